package org.raidb.controller.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The server side of SCRAM-SHA-256 against the exchange of RFC 7677, section 3. */
class ScramSha256Test {
    private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final String CLIENT_FINAL_WITHOUT_PROOF =
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";

    private static ScramSha256 rfcExchange(String password) {
        byte[] salt = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
        return new ScramSha256(ScramSha256.Verifier.of(password.getBytes(StandardCharsets.UTF_8), salt), SERVER_NONCE);
    }

    @Test
    void theRfcExchangeIsAcceptedWithTheRfcServerSignature() throws Exception {
        ScramSha256 scram = rfcExchange("pencil");
        assertThat(scram.serverFirst(CLIENT_FIRST))
                .isEqualTo("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
        assertThat(scram.verifyClientFinal(
                        CLIENT_FINAL_WITHOUT_PROOF + ",p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="))
                .isEqualTo("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
    }

    @Test
    void theRfcProofIsRefusedForAnotherPassword() throws Exception {
        ScramSha256 scram = rfcExchange("not pencil");
        scram.serverFirst(CLIENT_FIRST);
        assertThat(scram.verifyClientFinal(
                        CLIENT_FINAL_WITHOUT_PROOF + ",p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="))
                .isNull();
    }

    @Test
    void aNonceThatIsNotTheExchangesIsRefused() throws Exception {
        ScramSha256 scram = rfcExchange("pencil");
        scram.serverFirst(CLIENT_FIRST);
        assertThatThrownBy(() -> scram.verifyClientFinal("c=biws,r=someoneElse,p=AAAA"))
                .isInstanceOf(ScramSha256.ScramException.class)
                .hasMessageContaining("nonce");
    }

    @Test
    void channelBindingIsRefused() {
        assertThatThrownBy(() -> rfcExchange("pencil").serverFirst("p=tls-server-end-point,,n=,r=abc"))
                .isInstanceOf(ScramSha256.ScramException.class)
                .hasMessageContaining("channel binding");
    }

    @Test
    void md5AnswerIsLibpqs() {
        // libpq: "md5" + md5(md5("secret" + "alice") + salt), computed independently with Python's hashlib.
        assertThat(PgStartup.md5Answer("secret".getBytes(StandardCharsets.UTF_8), "alice", new byte[] {1, 2, 3, 4}))
                .isEqualTo("md598a0412b9c31436fc53776e863350083");
    }
}
