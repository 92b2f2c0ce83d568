package org.raidb.controller.session;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.auth.LoginThrottle;
import org.raidb.controller.config.ClientLimits;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.tls.TlsAcceptor;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.CancelFrame;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.SqlStates;

/** The controller's live sessions and virtual databases, as sessions need them. */
public final class SessionRegistry {
    private final Map<String, VirtualDatabase> virtualDatabases;
    /** How each virtual database's requests run: its controller group's protocol, or this controller alone. */
    private final Map<String, ReplicationProtocol> protocols;
    /** Configured virtual databases that could not start, with why. */
    private final Map<String, String> unavailable;

    private final Map<Long, ClientSession> sessions = new ConcurrentHashMap<>();
    private final int maxFrameBytes;
    private final ClientLimits limits;
    private final LoginThrottle loginThrottle;
    private final ClientErrorLog clientErrors;
    private final String version;
    /** Per virtual database, by name: the outcomes its sessions remember for clients that fail over. */
    private final Map<String, RecentOutcomes> recentOutcomes = new ConcurrentHashMap<>();

    private volatile AnswerHook answerHook = AnswerHook.NONE;

    private final TlsAcceptor tls;

    public SessionRegistry(
            Map<String, VirtualDatabase> virtualDatabases,
            Map<String, ReplicationProtocol> protocols,
            Map<String, String> unavailable,
            ControllerSettings settings,
            String version,
            TlsAcceptor tls) {
        this.tls = tls;
        this.virtualDatabases = virtualDatabases;
        this.protocols = protocols;
        this.unavailable = unavailable;
        this.maxFrameBytes = settings.maxFrameBytes();
        this.limits = settings.clientLimits();
        this.loginThrottle =
                new LoginThrottle(limits.loginAttemptsBeforeDelay(), Duration.ofMillis(limits.loginMaxDelayMillis()));
        this.clientErrors = new ClientErrorLog(Duration.ofMillis(limits.clientErrorLogIntervalMillis()));
        this.version = version;
        virtualDatabases.keySet().forEach(name -> recentOutcomes.put(name, new RecentOutcomes()));
    }

    /**
     * The recent outcomes of the requests of the named virtual database's sessions: a session answers a
     * request sent again from them, and a controller group records there the writes it runs for another
     * controller's clients.
     */
    public RecentOutcomes recentOutcomes(String virtualDatabase) {
        return recentOutcomes.computeIfAbsent(virtualDatabase, name -> new RecentOutcomes());
    }

    /** For tests: what sessions call between remembering an outcome and answering it ({@link AnswerHook}). */
    public void answerHook(AnswerHook hook) {
        answerHook = hook == null ? AnswerHook.NONE : hook;
    }

    AnswerHook answerHook() {
        return answerHook;
    }

    public VirtualDatabase virtualDatabase(String name) throws SQLException {
        VirtualDatabase vdb = name == null ? null : virtualDatabases.get(name);
        if (vdb == null && unavailable.containsKey(name)) {
            throw new SQLException(
                    "virtual database \"" + name + "\" is configured but not served: it could not start ("
                            + unavailable.get(name) + "); fix that and restart the controller",
                    SqlStates.CONNECTION_UNABLE);
        }
        if (vdb == null) {
            // Not the names it serves: nobody has logged in yet, and they are no one else's business.
            throw new SQLException(
                    "virtual database \"" + name + "\" does not exist on this controller: check the database "
                            + "name in the JDBC URL",
                    SqlStates.INVALID_CATALOG);
        }
        return vdb;
    }

    /** The protocol the virtual database's requests go through. */
    public ReplicationProtocol protocol(VirtualDatabase vdb) {
        return protocols.computeIfAbsent(vdb.name(), n -> new SessionRequests(vdb, recentOutcomes(n)));
    }

    void register(long id, ClientSession s) {
        sessions.put(id, s);
    }

    void unregister(long id) {
        sessions.remove(id);
    }

    void cancel(PayloadReader frame) throws ProtocolException {
        CancelFrame cancel = CancelFrame.read(frame);
        ClientSession s = sessions.get(cancel.sessionId());
        if (s != null) {
            s.cancel(cancel.cancelSecret());
        }
    }

    public Collection<ClientSession> sessions() {
        return sessions.values();
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** The frame limit until a client has logged in; never above {@link #maxFrameBytes}. */
    public int preLoginMaxFrameBytes() {
        return Math.min(maxFrameBytes, limits.preLoginMaxFrameBytes());
    }

    /** TLS for client connections, or null when the controller has none. */
    public TlsAcceptor tls() {
        return tls;
    }

    public Duration handshakeTimeout() {
        return Duration.ofMillis(limits.handshakeTimeoutMillis());
    }

    public LoginThrottle loginThrottle() {
        return loginThrottle;
    }

    ClientErrorLog clientErrors() {
        return clientErrors;
    }

    public String version() {
        return version;
    }
}
