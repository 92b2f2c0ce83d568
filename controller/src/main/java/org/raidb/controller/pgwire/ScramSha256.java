package org.raidb.controller.pgwire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL runs it: the user name comes from the
 * startup packet (the client sends {@code n=} empty), no channel binding. One exchange per instance:
 * {@link #serverFirst}, then {@link #verifyClientFinal}, whose answer is the server-final message or null when
 * the proof is wrong.
 */
final class ScramSha256 {
    static final String MECHANISM = "SCRAM-SHA-256";
    static final int ITERATIONS = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getEncoder();
    private static final Base64.Decoder B64D = Base64.getDecoder();

    /** What the server keeps of a password: a salt and the two keys derived from it (PostgreSQL's verifier). */
    @SuppressWarnings("ArrayRecordComponent") // never compared; never changed once derived
    record Verifier(byte[] salt, byte[] storedKey, byte[] serverKey) {
        static Verifier of(byte[] password) {
            byte[] salt = new byte[16];
            RANDOM.nextBytes(salt);
            return of(password, salt);
        }

        static Verifier of(byte[] password, byte[] salt) {
            byte[] salted = saltedPassword(password, salt);
            return new Verifier(salt, sha256(hmac(salted, "Client Key")), hmac(salted, "Server Key"));
        }
    }

    private final Verifier verifier;
    /** What the server adds to the client's nonce. */
    private final String serverNonce;

    private String clientFirstBare;
    private String serverFirst;
    private String gs2Header;
    private String nonce;

    ScramSha256(Verifier verifier) {
        this(verifier, randomNonce());
    }

    /** With a given server nonce: for tests against the RFC's exchange. */
    ScramSha256(Verifier verifier, String serverNonce) {
        this.verifier = verifier;
        this.serverNonce = serverNonce;
    }

    private static String randomNonce() {
        byte[] ours = new byte[18];
        RANDOM.nextBytes(ours);
        return B64.encodeToString(ours);
    }

    /** Reads the client-first message and answers the server-first one. */
    String serverFirst(String clientFirst) throws ScramException {
        String header;
        if (clientFirst.startsWith("n,") || clientFirst.startsWith("y,")) {
            int second = clientFirst.indexOf(',', 2);
            if (second < 0) {
                throw new ScramException("malformed client-first message");
            }
            header = clientFirst.substring(0, second + 1);
            clientFirstBare = clientFirst.substring(second + 1);
        } else {
            throw new ScramException(
                    "channel binding is not supported here: connect with channel_binding=disable" + " or prefer");
        }
        String clientNonce = attribute(clientFirstBare, 'r');
        if (clientNonce == null || clientNonce.isEmpty()) {
            throw new ScramException("client-first message without a nonce");
        }
        gs2Header = header;
        nonce = clientNonce + serverNonce;
        serverFirst = "r=" + nonce + ",s=" + B64.encodeToString(verifier.salt()) + ",i=" + ITERATIONS;
        return serverFirst;
    }

    /** Checks the client's proof; the server-final message when it holds, null when the password is wrong. */
    String verifyClientFinal(String clientFinal) throws ScramException {
        int proofAt = clientFinal.lastIndexOf(",p=");
        if (proofAt < 0) {
            throw new ScramException("client-final message without a proof");
        }
        String withoutProof = clientFinal.substring(0, proofAt);
        String binding = attribute(clientFinal, 'c');
        if (binding == null || !binding.equals(B64.encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8)))) {
            throw new ScramException("client-final message with unexpected channel binding data");
        }
        if (!nonce.equals(attribute(clientFinal, 'r'))) {
            throw new ScramException("client-final message with a nonce that is not this exchange's");
        }
        byte[] proof;
        try {
            proof = B64D.decode(clientFinal.substring(proofAt + 3));
        } catch (IllegalArgumentException e) {
            throw new ScramException("client proof is not base64");
        }
        String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
        byte[] signature = hmac(verifier.storedKey(), authMessage);
        if (proof.length != signature.length) {
            return null;
        }
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ signature[i]);
        }
        if (!MessageDigest.isEqual(sha256(clientKey), verifier.storedKey())) {
            return null;
        }
        return "v=" + B64.encodeToString(hmac(verifier.serverKey(), authMessage));
    }

    /** The value of {@code name=} among a message's comma-separated attributes, or null. */
    private static String attribute(String message, char name) {
        for (String part : message.split(",", -1)) {
            if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
                return part.substring(2);
            }
        }
        return null;
    }

    static byte[] saltedPassword(byte[] password, byte[] salt) {
        try {
            char[] chars = new String(password, StandardCharsets.UTF_8).toCharArray();
            PBEKeySpec spec = new PBEKeySpec(chars, salt, ITERATIONS, 256);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every Java 17 runtime", e);
        }
    }

    static byte[] hmac(byte[] key, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }

    static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every Java 17 runtime", e);
        }
    }

    /** The client broke the exchange (not a wrong password, which is a null answer). */
    static final class ScramException extends Exception {
        private static final long serialVersionUID = 1L;

        ScramException(String message) {
            super(message);
        }
    }
}
