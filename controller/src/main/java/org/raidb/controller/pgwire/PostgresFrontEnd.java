package org.raidb.controller.pgwire;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.config.PostgresWireSettings;
import org.raidb.controller.net.ClientListener;
import org.raidb.controller.session.SessionRegistry;
import org.raidb.controller.vdb.VirtualDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL wire-protocol front end (protocol 3.0): psql, pgjdbc, psycopg and the like connect to a
 * virtual database by its name, on {@code <controller pgPort>}. It is a second codec in front of the one request
 * path: its sessions ({@link PgSession}) hand statements to the same {@link SessionRegistry#protocol} as the
 * RAIDb driver's sessions. Accepting and threads are {@link ClientListener}'s, one thread per connection.
 */
public final class PostgresFrontEnd {
    private static final Logger log = LoggerFactory.getLogger(PostgresFrontEnd.class);
    /**
     * Session ids of this front end's sessions in the request path (conflict classes, logs), far from the driver
     * port's, which count up from 1.
     */
    private static final long SESSION_ID_BASE = 1L << 40;

    private final SessionRegistry registry;
    private final PostgresWireSettings settings;
    private final AtomicInteger processIds = new AtomicInteger();
    private final Map<Integer, PgSession> sessions = new ConcurrentHashMap<>();
    /** One SCRAM verifier per virtual user and password, as PostgreSQL keeps one per role: PBKDF2 once, not per login. */
    private final Map<String, ScramSha256.Verifier> verifiers = new ConcurrentHashMap<>();

    private PostgresFrontEnd(SessionRegistry registry, PostgresWireSettings settings) {
        this.registry = registry;
        this.settings = settings;
    }

    /** Starts listening on {@code host:pgPort}; null when the front end is off (no pgPort). */
    public static ClientListener listen(ControllerSettings controller, SessionRegistry registry) throws IOException {
        PostgresWireSettings settings = controller.postgresWire();
        if (!settings.enabled()) {
            return null;
        }
        PostgresFrontEnd frontEnd = new PostgresFrontEnd(registry, settings);
        ClientListener listener = new ClientListener(controller.host(), settings.port(), "raidb-pg", frontEnd::session);
        log.info(
                "PostgreSQL front end listening on {}:{} ({} authentication)",
                controller.host(),
                listener.port(),
                settings.authentication());
        return listener;
    }

    private Runnable session(java.net.Socket socket, long id) {
        return new PgSession(socket, this, processIds.incrementAndGet() & Integer.MAX_VALUE);
    }

    SessionRegistry registry() {
        return registry;
    }

    PostgresWireSettings settings() {
        return settings;
    }

    long sessionId(int processId) {
        return SESSION_ID_BASE + processId;
    }

    void register(int processId, PgSession s) {
        sessions.put(processId, s);
    }

    void unregister(int processId, PgSession s) {
        sessions.remove(processId, s);
    }

    /** A CancelRequest: the statements of the session it names are cancelled, if its secret matches. */
    void cancel(int processId, int secret) {
        PgSession s = sessions.get(processId);
        if (s != null) {
            s.cancel(secret);
        }
    }

    ScramSha256.Verifier verifier(VirtualDatabase vdb, String user, byte[] password) {
        String key = vdb.name() + "\0" + user + "\0" + java.util.HexFormat.of().formatHex(ScramSha256.sha256(password));
        return verifiers.computeIfAbsent(key, k -> ScramSha256.Verifier.of(password));
    }
}
