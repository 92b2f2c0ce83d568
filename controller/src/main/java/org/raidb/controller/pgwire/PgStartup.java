package org.raidb.controller.pgwire;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.raidb.controller.auth.LoginThrottle;
import org.raidb.controller.config.PostgresWireSettings;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.SqlStates;

/**
 * The start of a PostgreSQL connection: SSLRequest answered 'S' when the controller has TLS (the session
 * then runs the handshake and starts over), else 'N', as is GSSENCRequest; a
 * CancelRequest handed on, then the startup packet (protocol 3.0) and the authentication its settings ask for,
 * against the virtual database's virtual users, under the controller's login throttle. Nothing here opens a
 * backend connection.
 */
final class PgStartup {
    static final int SSL_REQUEST = 80877103;
    static final int GSSENC_REQUEST = 80877104;
    static final int CANCEL_REQUEST = 80877102;
    static final int PROTOCOL_3 = 3 << 16;
    private static final int AUTH_CLEARTEXT = 3;
    private static final int AUTH_MD5 = 5;
    private static final int AUTH_SASL = 10;
    private static final int AUTH_SASL_CONTINUE = 11;
    private static final int AUTH_SASL_FINAL = 12;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Who logged in, and the startup parameters they sent (application_name, …). */
    record Login(VirtualDatabase vdb, String user, Map<String, String> parameters) {}

    /** A CancelRequest: the connection carried nothing else. */
    record Cancel(int processId, int secret) {}

    /** An SSLRequest this port answered 'S': the TLS handshake comes next, then the startup again. */
    record TlsAccepted() {}

    private final PgMessageReader in;
    private final PgMessageWriter out;
    private final OutputStream raw;
    private final PostgresFrontEnd frontEnd;
    private final InetAddress source;

    PgStartup(
            PgMessageReader in, PgMessageWriter out, OutputStream raw, PostgresFrontEnd frontEnd, InetAddress source) {
        this.in = in;
        this.out = out;
        this.raw = raw;
        this.frontEnd = frontEnd;
        this.source = source;
    }

    /**
     * The startup packet's parameters, a {@link Cancel}, or {@link TlsAccepted} when {@code offerTls} and the
     * client asked for TLS; other encryption requests are declined.
     */
    Object startupPacket(boolean offerTls) throws IOException {
        while (true) {
            PgMessage m = in.startup();
            int code = m.readInt();
            if (code == SSL_REQUEST && offerTls) {
                raw.write('S');
                raw.flush();
                return new TlsAccepted();
            }
            if (code == SSL_REQUEST || code == GSSENC_REQUEST) {
                raw.write('N'); // no TLS (or GSS encryption) here: the client goes on in the clear or leaves
                raw.flush();
                continue;
            }
            if (code == CANCEL_REQUEST) {
                return new Cancel(m.readInt(), m.readInt());
            }
            if ((code >>> 16) != 3) {
                throw new PgProtocolException(
                        "unsupported frontend protocol " + (code >>> 16) + "." + (code & 0xffff)
                                + ": this controller speaks the PostgreSQL protocol 3.0",
                        SqlStates.FEATURE_NOT_SUPPORTED);
            }
            Map<String, String> parameters = new LinkedHashMap<>();
            while (true) {
                String name = m.readCString();
                if (name.isEmpty()) {
                    break;
                }
                parameters.put(name, m.readCString());
            }
            if ((code & 0xffff) != 0) {
                negotiateMinorVersion(parameters);
            }
            return parameters;
        }
    }

    /** A 3.x client is told that 3.0 is what it gets, and which protocol options ({@code _pq_.…}) were not understood. */
    private void negotiateMinorVersion(Map<String, String> parameters) throws IOException {
        out.begin('v').int32(0);
        java.util.List<String> options =
                parameters.keySet().stream().filter(k -> k.startsWith("_pq_.")).toList();
        out.int32(options.size());
        options.forEach(out::cstring);
        out.end();
        parameters.keySet().removeAll(options);
    }

    /** Authenticates the startup packet's user on its database; a SQLException (28P01, 3D000, 08004) refuses it. */
    Login authenticate(Map<String, String> parameters, PostgresWireSettings settings) throws IOException, SQLException {
        String user = parameters.get("user");
        if (user == null || user.isEmpty()) {
            throw new SQLException(
                    "no PostgreSQL user name specified in the startup packet", SqlStates.INVALID_AUTHORIZATION);
        }
        String database = parameters.getOrDefault("database", user);
        LoginThrottle throttle = frontEnd.registry().loginThrottle();
        String throttled = database + "/" + user;
        throttle.checkClient(source, throttled);
        VirtualDatabase vdb = frontEnd.registry().virtualDatabase(database);
        boolean ok;
        switch (settings.authentication()) {
            case PostgresWireSettings.PASSWORD -> ok = cleartext(vdb, user);
            case PostgresWireSettings.MD5 -> ok = md5(vdb, user);
            default -> ok = scram(vdb, user);
        }
        if (!ok) {
            throttle.failed(source, throttled);
            throw new SQLException(
                    "password authentication failed for user \"" + user + "\" on virtual database \"" + vdb.name()
                            + "\": check the user and password against the virtual database's <virtualUser> entries",
                    SqlStates.INVALID_PASSWORD);
        }
        throttle.succeeded(source, throttled);
        out.authenticationOk();
        return new Login(vdb, user, parameters);
    }

    private boolean cleartext(VirtualDatabase vdb, String user) throws IOException {
        out.authentication(AUTH_CLEARTEXT, new byte[0]);
        out.flush();
        String password = password().readCString();
        try {
            vdb.authentication().authenticateVirtualUser(user, password);
            return true;
        } catch (SQLException wrong) {
            return false;
        }
    }

    private boolean md5(VirtualDatabase vdb, String user) throws IOException {
        byte[] salt = new byte[4];
        RANDOM.nextBytes(salt);
        out.authentication(AUTH_MD5, salt);
        out.flush();
        String answer = password().readCString();
        byte[] password = vdb.authentication().virtualUserPassword(user);
        // An unknown user is checked against a password nobody has, so that both cases look alike.
        String expected = md5Answer(password == null ? randomPassword() : password, user, salt);
        return password != null
                && MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.US_ASCII), answer.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code "md5" + md5hex(md5hex(password + user) + salt)}, as libpq computes it. */
    static String md5Answer(byte[] password, String user, byte[] salt) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(password);
            md.update(user.getBytes(StandardCharsets.UTF_8));
            String inner = HexFormat.of().formatHex(md.digest());
            md.update(inner.getBytes(StandardCharsets.US_ASCII));
            md.update(salt);
            return "md5" + HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is part of every Java 17 runtime", e);
        }
    }

    private boolean scram(VirtualDatabase vdb, String user) throws IOException {
        out.authentication(AUTH_SASL, (ScramSha256.MECHANISM + "\0\0").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        PgMessage initial = password();
        String mechanism = initial.readCString();
        if (!mechanism.equals(ScramSha256.MECHANISM)) {
            throw new PgProtocolException(
                    "SASL mechanism " + mechanism + " is not offered here: use " + ScramSha256.MECHANISM,
                    SqlStates.INVALID_AUTHORIZATION);
        }
        int length = initial.readInt();
        String clientFirst = new String(initial.readBytes(length), StandardCharsets.UTF_8);
        byte[] password = vdb.authentication().virtualUserPassword(user);
        // An unknown user goes through the whole exchange against a verifier nobody can match.
        ScramSha256 scram = new ScramSha256(
                password == null ? ScramSha256.Verifier.of(randomPassword()) : frontEnd.verifier(vdb, user, password));
        try {
            out.authentication(
                    AUTH_SASL_CONTINUE, scram.serverFirst(clientFirst).getBytes(StandardCharsets.UTF_8));
            out.flush();
            PgMessage response = password();
            String serverFinal = scram.verifyClientFinal(
                    new String(response.readBytes(response.remaining()), StandardCharsets.UTF_8));
            if (serverFinal == null || password == null) {
                return false;
            }
            out.authentication(AUTH_SASL_FINAL, serverFinal.getBytes(StandardCharsets.UTF_8));
            return true;
        } catch (ScramSha256.ScramException e) {
            throw new PgProtocolException(
                    "SCRAM-SHA-256 exchange failed: " + e.getMessage(), SqlStates.PROTOCOL_VIOLATION);
        }
    }

    /** The client's next authentication message ('p'): anything else breaks the exchange. */
    private PgMessage password() throws IOException {
        PgMessage m = in.next();
        if (m.type() != 'p') {
            throw new PgProtocolException(
                    "expected a password message during authentication, got '" + m.describeType() + "'");
        }
        return m;
    }

    private static byte[] randomPassword() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b).getBytes(StandardCharsets.US_ASCII);
    }
}
