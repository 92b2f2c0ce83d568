package org.raidb.controller.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each broken file must be reported as {@code FILE:LINE:COLUMN: reason} with the line of the mistake and a reason a
 * user understands. Broken files are one-line edits of {@link #VALID}, so line numbers below refer to it.
 */
class ConfigLoaderTest {

    private static final String VALID = """
      <raidb>
        <controller port="25322" adminPort="25380"/>
        <virtualDatabase name="shop">
          <authentication>
            <admin user="admin" password="a"/>
            <virtualUser name="app" password="p"/>
          </authentication>
          <backend name="pg1" url="jdbc:postgresql://127.0.0.1:5433/shop" user="postgres" weight="2" poolSize="5">
            <login virtualUser="app" user="app_real" password="r"/>
          </backend>
          <backend name="pg2" url="jdbc:postgresql://127.0.0.1:5434/shop" user="postgres"/>
          <raidb1 readPolicy="leastPending" completion="majority"/>
        </virtualDatabase>
      </raidb>
      """;

    @TempDir
    Path dir;

    @Test
    void loadsAValidFile() throws Exception {
        RaidbConfig config = ConfigLoader.load(write("good.xml", VALID));

        VirtualDatabaseConfig shop = config.virtualDatabase("shop");
        assertThat(config.virtualDatabases()).hasSize(1);
        assertThat(shop.authentication().admin()).isEqualTo(new UserCredentials("admin", "a"));
        assertThat(shop.backends())
                .containsExactly(
                        new BackendConfig(
                                "pg1",
                                "jdbc:postgresql://127.0.0.1:5433/shop",
                                "postgres",
                                "",
                                2,
                                5,
                                List.of(new LoginConfig("app", "app_real", "r"))),
                        new BackendConfig(
                                "pg2", "jdbc:postgresql://127.0.0.1:5434/shop", "postgres", "", 1, 20, List.of()));
        assertThat(shop.backends().get(0).loginFor("app")).isEqualTo(new LoginConfig("app", "app_real", "r"));
        assertThat(shop.replication()).isEqualTo(new ReplicationConfig("raidb1", "leastPending", "majority"));
    }

    @Test
    void acceptsAReadPolicyClassName() throws Exception {
        RaidbConfig config = ConfigLoader.load(
                edit("readPolicy=\"leastPending\"", "readPolicy=\"com.example.policy.Fastest\""), "custom.xml");
        assertThat(config.virtualDatabase("shop").replication().readPolicy()).isEqualTo("com.example.policy.Fastest");
    }

    @Test
    void acceptsSeveralVirtualDatabasesAndPortZero() throws Exception {
        String two = VALID.replace(
                        "port=\"25322\" adminPort=\"25380\"", "port=\"0\" adminPort=\"0\" host=\"127.0.0.1\"")
                .replace("</raidb>", """
          <virtualDatabase name="other">
            <authentication><admin user="admin"/><virtualUser name="app"/></authentication>
            <backend name="pg1" url="jdbc:h2:mem:other" user="sa"/>
            <raidb1/>
          </virtualDatabase>
        </raidb>
        """);
        RaidbConfig config = ConfigLoader.load(two, "two.xml");
        assertThat(config.virtualDatabases())
                .extracting(VirtualDatabaseConfig::name)
                .containsExactly("shop", "other");
        assertThat(config.controller().port()).isZero();
        assertThat(config.controller().host()).isEqualTo("127.0.0.1");
    }

    @Test
    void clientLimitsAreReadFromTheControllerElement() throws Exception {
        RaidbConfig config = ConfigLoader.load(
                edit(
                        "adminPort=\"25380\"",
                        "adminPort=\"25380\" preLoginMaxFrameBytes=\"4096\" "
                                + "handshakeTimeout=\"2000\" loginAttemptsBeforeDelay=\"3\" loginMaxDelay=\"0\" clientErrorLogInterval=\"1000\""),
                "limits.xml");
        assertThat(config.controller().clientLimits()).isEqualTo(new ClientLimits(4096, 2000, 3, 0, 1000));
        assertThat(ConfigLoader.load(VALID, "plain.xml").controller().clientLimits())
                .isEqualTo(ClientLimits.DEFAULT);
    }

    @Test
    void aHandshakeTimeoutOfZeroIsRefused() {
        assertError(
                edit("adminPort=\"25380\"", "adminPort=\"25380\" handshakeTimeout=\"0\""),
                "bad.xml:",
                "handshakeTimeout",
                "be at least 1");
    }

    @Test
    void unknownElement() {
        assertError(
                edit("    <raidb1 ", "    <cache/><raidb1 "),
                "bad.xml:12:",
                "unexpected element <cache>",
                "expected <backend>, <scheduler>, <determinism>, <recoveryLog>, <backup>, <verify>, <health>, <controllerGroup>, <resultCache>, <raidb0>, <raidb1>, <raidb1ec>,"
                        + " <raidb2> or <raidb2ec>");
    }

    @Test
    void tooShortBackendTimeout() {
        assertError(
                edit("    <raidb1 ", "    <health backendTimeout=\"10\"/><raidb1 "),
                "bad.xml:12:",
                "<health> attribute 'backendTimeout' must be at least 500, not '10'");
    }

    @Test
    void schedulerDefaultsAndValues() throws Exception {
        VirtualDatabaseConfig plain =
                ConfigLoader.load(edit("", ""), "ok.xml").virtualDatabases().get(0);
        assertThat(plain.scheduler()).isEqualTo(SchedulerConfig.DEFAULT);
        VirtualDatabaseConfig query = ConfigLoader.load(
                        edit("    <raidb1 ", "    <scheduler type=\"query\" lockTimeout=\"500\"/><raidb1 "), "ok.xml")
                .virtualDatabases()
                .get(0);
        assertThat(query.scheduler()).isEqualTo(new SchedulerConfig("query", 500));
    }

    @Test
    void automaticPurgeDefaultsAndValues() throws Exception {
        VirtualDatabaseConfig plain =
                ConfigLoader.load(edit("", ""), "ok.xml").virtualDatabases().get(0);
        assertThat(plain.recoveryLog().purgeAfter()).isEqualTo(java.time.Duration.ofHours(24));
        VirtualDatabaseConfig daily = ConfigLoader.load(
                        edit("    <raidb1 ", "    <recoveryLog purgeAfter=\"90m\"/><raidb1 "), "ok.xml")
                .virtualDatabases()
                .get(0);
        assertThat(daily.recoveryLog().purgeAfter()).isEqualTo(java.time.Duration.ofMinutes(90));
        VirtualDatabaseConfig off = ConfigLoader.load(
                        edit("    <raidb1 ", "    <recoveryLog purgeAfter=\"off\"/><raidb1 "), "ok.xml")
                .virtualDatabases()
                .get(0);
        assertThat(off.recoveryLog().purgeAfter()).isNull();
        assertError(
                edit("    <raidb1 ", "    <recoveryLog purgeAfter=\"one day\"/><raidb1 "),
                "bad.xml:12:",
                "be off or an age: a number followed by s, m, h or d");
    }

    @Test
    void verifyScheduleIsOffByDefaultAndTakesAnAge() throws Exception {
        assertThat(ConfigLoader.load(edit("", ""), "ok.xml")
                        .virtualDatabases()
                        .get(0)
                        .verifyEvery())
                .isNull();
        VirtualDatabaseConfig hourly = ConfigLoader.load(
                        edit("    <raidb1 ", "    <verify every=\"90m\"/><raidb1 "), "ok.xml")
                .virtualDatabases()
                .get(0);
        assertThat(hourly.verifyEvery()).isEqualTo(java.time.Duration.ofMinutes(90));
        assertError(
                edit("    <raidb1 ", "    <verify every=\"off\"/><raidb1 "),
                "bad.xml:12:",
                "be a number followed by s, m, h or d");
        assertError(edit("    <raidb1 ", "    <verify/><raidb1 "), "bad.xml:12:", "every");
    }

    @Test
    void controllerGroupDefaultsAndValues() throws Exception {
        assertThat(ConfigLoader.load(edit("", ""), "ok.xml")
                        .virtualDatabases()
                        .get(0)
                        .group())
                .isNull();
        GroupConfig g = ConfigLoader.load(
                        edit(
                                "    <raidb1 ",
                                "    <controllerGroup name=\"shop-group\" members=\"10.0.0.1:7800, 10.0.0.2:7801\""
                                        + " completion=\"majority\" whenAlone=\"wait\"/><raidb1 "),
                        "ok.xml")
                .virtualDatabases()
                .get(0)
                .group();
        assertThat(g.name()).isEqualTo("shop-group");
        assertThat(g.stack()).isEqualTo("tcp-loopback.xml");
        assertThat(g.members()).containsExactly("10.0.0.1:7800", "10.0.0.2:7801");
        assertThat(g.completion()).isEqualTo(GroupConfig.Completion.MAJORITY);
        assertThat(g.completion().required(3)).isEqualTo(2);
        assertThat(g.whenAlone()).isEqualTo(GroupConfig.WhenAlone.WAIT);
        assertThat(g.bindPort()).isEqualTo(7800);
    }

    @Test
    void aGroupMemberListNamingThisControllerTwiceIsRefused() {
        assertError(
                edit(
                        "    <raidb1 ",
                        "    <controllerGroup name=\"g\" members=\"127.0.0.1:7800,localhost:7800\"/><raidb1 "),
                "bad.xml:12:",
                "members names localhost:7800 twice (this controller's own address); list each member once");
        assertError(
                edit("    <raidb1 ", "    <controllerGroup name=\"g\" members=\"10.0.0.1\"/><raidb1 "),
                "bad.xml:12:",
                "member '10.0.0.1' is not host:port");
        assertError(
                edit("    <raidb1 ", "    <controllerGroup name=\"g\" completion=\"first\"/><raidb1 "),
                "bad.xml:12:",
                "completion");
    }

    @Test
    void determinismDefaultsAndValues() throws Exception {
        VirtualDatabaseConfig plain =
                ConfigLoader.load(edit("", ""), "ok.xml").virtualDatabases().get(0);
        assertThat(plain.determinism()).isEqualTo(DeterminismConfig.DEFAULT);
        assertThat(plain.determinism().refuseMultiStatements()).isFalse();
        VirtualDatabaseConfig refusing = ConfigLoader.load(
                        edit("    <raidb1 ", "    <determinism multiStatements=\"refuse\"/><raidb1 "), "ok.xml")
                .virtualDatabases()
                .get(0);
        assertThat(refusing.determinism().refuseMultiStatements()).isTrue();
        assertError(
                edit("    <raidb1 ", "    <determinism multiStatements=\"never\"/><raidb1 "),
                "bad.xml:12:",
                "'multiStatements' must be one of allow, refuse, not 'never'");
        assertThat(plain.determinism().refuseVolatileTriggers()).isFalse();
        VirtualDatabaseConfig refuse = ConfigLoader.load(
                        edit("    <raidb1 ", "    <determinism onVolatileTrigger=\"refuse\"/><raidb1 "), "ok.xml")
                .virtualDatabases()
                .get(0);
        assertThat(refuse.determinism().refuseVolatileTriggers()).isTrue();
        assertError(
                edit("    <raidb1 ", "    <determinism onVolatileTrigger=\"ignore\"/><raidb1 "),
                "bad.xml:12:",
                "'onVolatileTrigger' must be one of warn, refuse, not 'ignore'");
    }

    @Test
    void badSchedulerType() {
        assertError(
                edit("    <raidb1 ", "    <scheduler type=\"optimistic\"/><raidb1 "),
                "bad.xml:12:",
                "'type' must be one of optimisticTransaction, pessimisticTransaction, query, not 'optimistic'");
    }

    @Test
    void unknownAttribute() {
        assertError(edit("<raidb1 ", "<raidb1 colour=\"red\" "), "bad.xml:12:", "<raidb1> has no attribute 'colour'");
    }

    @Test
    void missingBackendUrl() {
        assertError(
                edit(" url=\"jdbc:postgresql://127.0.0.1:5434/shop\"", ""),
                "bad.xml:11:",
                "<backend> is missing the required attribute 'url'");
    }

    @Test
    void badCompletion() {
        assertError(
                edit("completion=\"majority\"", "completion=\"sometimes\""),
                "bad.xml:12:",
                "attribute 'completion' must be one of first, majority, all, not 'sometimes'");
    }

    @Test
    void badReadPolicy() {
        assertError(
                edit("readPolicy=\"leastPending\"", "readPolicy=\"random\""),
                "bad.xml:12:",
                "attribute 'readPolicy' must be roundRobin, weightedRoundRobin, leastPending or a fully-qualified class name");
    }

    @Test
    void nonNumericPort() {
        assertError(
                edit("port=\"25322\"", "port=\"abc\""),
                "bad.xml:2:",
                "<controller> attribute 'port' must be a whole number, not 'abc'");
    }

    @Test
    void portOutOfRange() {
        assertError(
                edit("port=\"25322\"", "port=\"70000\""),
                "bad.xml:2:",
                "<controller> attribute 'port' must be at most 65535, not '70000'");
    }

    @Test
    void zeroWeight() {
        assertError(
                edit("weight=\"2\"", "weight=\"0\""), "bad.xml:8:", "attribute 'weight' must be at least 1, not '0'");
    }

    @Test
    void badBackendName() {
        assertError(edit("name=\"pg2\"", "name=\"pg 2\""), "bad.xml:11:", "attribute 'name' must start with a letter");
    }

    @Test
    void duplicateBackendName() {
        assertError(
                edit("name=\"pg2\"", "name=\"pg1\""),
                "bad.xml:11:",
                "backend name 'pg1' is used twice in virtual database 'shop'");
    }

    @Test
    void duplicateBackendUrl() {
        assertError(
                edit("5434", "5433"),
                "bad.xml:11:",
                "backend url 'jdbc:postgresql://127.0.0.1:5433/shop' is used by two");
    }

    @Test
    void duplicateVirtualUser() {
        assertError(
                edit(
                        "<virtualUser name=\"app\" password=\"p\"/>",
                        "<virtualUser name=\"app\"/><virtualUser name=\"app\"/>"),
                "bad.xml:6:",
                "virtual user 'app' is declared twice in virtual database 'shop'");
    }

    @Test
    void duplicateVirtualDatabaseName() {
        String twice = VALID.replace("</raidb>", """
          <virtualDatabase name="shop">
            <authentication><admin user="admin"/><virtualUser name="app"/></authentication>
            <backend name="pg1" url="jdbc:h2:mem:other" user="sa"/>
            <raidb1/>
          </virtualDatabase>
        </raidb>
        """);
        assertError(twice, "bad.xml:14:", "virtual database name 'shop' is used twice");
    }

    @Test
    void loginNamingAnUnknownVirtualUser() {
        assertError(
                edit("<login virtualUser=\"app\"", "<login virtualUser=\"bob\""),
                "bad.xml:9:",
                "<login virtualUser='bob'> names no virtual user of virtual database 'shop'");
    }

    @Test
    void duplicateLoginForOneVirtualUser() {
        assertError(
                edit(
                        "<login virtualUser=\"app\" user=\"app_real\" password=\"r\"/>",
                        "<login virtualUser=\"app\" user=\"x\"/><login virtualUser=\"app\" user=\"y\"/>"),
                "bad.xml:9:",
                "backend 'pg1' has two <login> elements for virtual user 'app'");
    }

    @Test
    void zeroBackends() {
        String none = VALID.replaceAll("(?s)    <backend .*</backend>\n.*<backend [^>]*/>\n", "");
        assertThat(none).doesNotContain("<backend");
        assertError(
                none,
                "bad.xml:8:",
                "unexpected element <raidb1>: expected <backend>",
                "a virtual database needs at least one backend");
    }

    @Test
    void missingReplication() {
        assertError(
                edit("    <raidb1 readPolicy=\"leastPending\" completion=\"majority\"/>\n", ""),
                "bad.xml:12:",
                "<virtualDatabase> is incomplete: expected <backend>, <scheduler>, <determinism>, <recoveryLog>, <backup>, <verify>, <health>,"
                        + " <controllerGroup>, <resultCache>, <raidb0>, <raidb1>, <raidb1ec>, <raidb2> or <raidb2ec>");
    }

    @Test
    void twoReplicationElements() {
        assertError(edit("<raidb1 ", "<raidb1/><raidb1 "), "bad.xml:12:", "unexpected element <raidb1>");
    }

    @Test
    void wrongRootElement() {
        assertError("<raid/>\n", "bad.xml:1:", "the root element must be <raidb>, not <raid>");
    }

    @Test
    void samePortForClientsAndAdmin() {
        assertError(
                edit("adminPort=\"25380\"", "adminPort=\"25322\""), "bad.xml:2:", "port and adminPort are both 25322");
    }

    @Test
    void theAdminApiListensOnLoopbackAndRefusesH2BackendsUnlessConfigured() throws Exception {
        ControllerSettings defaults = ConfigLoader.load(VALID, "good.xml").controller();
        assertThat(defaults.host()).as("the driver port: every interface").isEqualTo("0.0.0.0");
        assertThat(defaults.adminHost()).isEqualTo("127.0.0.1");
        assertThat(defaults.allowH2BackendsFromAdmin()).isFalse();

        ControllerSettings set = ConfigLoader.load(
                        edit(
                                "adminPort=\"25380\"",
                                "adminHost=\"10.0.0.5\" adminPort=\"25380\" allowH2BackendsFromAdmin=\"true\""),
                        "set.xml")
                .controller();
        assertThat(set.adminHost()).isEqualTo("10.0.0.5");
        assertThat(set.allowH2BackendsFromAdmin()).isTrue();
    }

    @Test
    void theFileMayNameH2BackendsAndTheHostsFiles() throws Exception {
        String h2 = edit("jdbc:postgresql://127.0.0.1:5434/shop", "jdbc:h2:mem:shop;MODE=PostgreSQL");
        assertThat(ConfigLoader.load(h2, "h2.xml")
                        .virtualDatabase("shop")
                        .backends()
                        .get(1)
                        .url())
                .startsWith("jdbc:h2:");
        String tls = edit("5433/shop\"", "5433/shop?sslmode=verify-full&amp;sslrootcert=/etc/raidb/ca.pem\"");
        assertThat(ConfigLoader.load(tls, "tls.xml")
                        .virtualDatabase("shop")
                        .backends()
                        .get(0)
                        .url())
                .endsWith("sslrootcert=/etc/raidb/ca.pem");
    }

    @Test
    void aBackendUrlThatWouldRunCodeIsReportedAtItsElement() {
        assertError(
                edit("jdbc:postgresql://127.0.0.1:5434/shop", "jdbc:h2:mem:shop;INIT=RUNSCRIPT"),
                "bad.xml:11:",
                "<backend name=\"pg2\"> url: JDBC URL parameter 'INIT' is refused",
                "Java code");
        assertError(
                edit("5433/shop\"", "5433/shop?sslfactory=org.example.Trusting\""),
                "bad.xml:8:",
                "<backend name=\"pg1\"> url: JDBC URL parameter 'sslfactory' is refused");
        assertError(
                edit("jdbc:postgresql://127.0.0.1:5434/shop", "jdbc:oracle:thin:@db:1521/shop"),
                "bad.xml:11:",
                "is refused: backends are reached with PostgreSQL (jdbc:postgresql:)");
    }

    @Test
    void aRecoveryLogUrlIsCheckedLikeABackendsOne() {
        assertError(
                edit(
                        "    <raidb1 ",
                        "    <recoveryLog url=\"jdbc:postgresql://db/log?socketFactory=org.example.T\"/>\n"
                                + "    <raidb1 "),
                "bad.xml:12:",
                "<recoveryLog> url: JDBC URL parameter 'socketFactory' is refused");
    }

    @Test
    void backendNamesAreBoundedBecauseTheyBecomeFileNames() {
        String long65 = "b".repeat(65);
        assertError(
                edit("name=\"pg1\"", "name=\"" + long65 + "\""),
                "bad.xml:8:",
                "<backend> attribute 'name' must start with a letter or '_', contain only letters, digits, '_', '-' and '.',"
                        + " and have at most 64 characters, not '" + long65 + "'");
    }

    @Test
    void unclosedTag() {
        assertError(edit("  </virtualDatabase>\n", ""), "bad.xml:13:", "malformed XML", "virtualDatabase");
    }

    @Test
    void notXmlAtAll() {
        assertError("port = 25322\n", "bad.xml:1:", "this is not an XML file");
    }

    @Test
    void emptyFile() {
        assertError("", "bad.xml", "the file is empty");
    }

    @Test
    void externalEntitiesAreNeverResolved() {
        String xxe = """
        <?xml version="1.0"?>
        <!DOCTYPE raidb SYSTEM "file:///etc/passwd">
        <raidb/>
        """;
        assertError(xxe, "bad.xml:2:", "DOCTYPE declarations are not allowed");
    }

    @Test
    void internalEntityExpansionIsRefusedToo() {
        String entity = """
        <?xml version="1.0"?>
        <!DOCTYPE raidb [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
        <raidb><virtualDatabase name="&secret;"/></raidb>
        """;
        assertError(entity, "bad.xml:2:", "DOCTYPE declarations are not allowed");
    }

    @Test
    void missingFile() {
        Path missing = dir.resolve("nowhere.xml");
        assertThatThrownBy(() -> ConfigLoader.load(missing))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(missing + ": configuration file not found");
    }

    @Test
    void directoryInsteadOfFile() {
        assertThatThrownBy(() -> ConfigLoader.load(dir))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir + ": is a directory, not a configuration file");
    }

    @Test
    void everyProblemIsReportedOnItsOwnLine() {
        String twoMistakes =
                edit("port=\"25322\"", "port=\"abc\"").replace("completion=\"majority\"", "completion=\"x\"");
        assertThatThrownBy(() -> ConfigLoader.load(write("bad.xml", twoMistakes)))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(e.getMessage().lines())
                        .hasSize(2)
                        .allSatisfy(line -> assertThat(line).startsWith(dir.resolve("bad.xml") + ":")));
    }

    @Test
    void textSourcesAreNamedInErrors() {
        assertThatThrownBy(() -> ConfigLoader.load(edit("port=\"25322\"", "port=\"-1\""), "inline"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("inline:2:")
                .hasMessageContaining("must be at least 0");
    }

    @Test
    void messagesAreTranslatedWhateverTheDefaultLocale() {
        java.util.Locale before = java.util.Locale.getDefault();
        java.util.Locale.setDefault(java.util.Locale.GERMANY);
        try {
            badCompletion();
            unclosedTag();
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    /** VALID with exactly one occurrence of {@code from} replaced by {@code to}. */
    private static String edit(String from, String to) {
        assertThat(VALID).contains(from);
        return VALID.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
    }

    private void assertError(String xml, String positionPrefix, String... reasons) {
        Path file = write("bad.xml", xml);
        String expectedStart = positionPrefix.replace("bad.xml", file.toString());
        assertThatThrownBy(() -> ConfigLoader.load(file))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(expectedStart)
                .satisfies(
                        e -> assertThat(e.getMessage()).doesNotContain("cvc-").contains(reasons));
    }

    private Path write(String name, String content) {
        try {
            return Files.writeString(dir.resolve(name), content);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
