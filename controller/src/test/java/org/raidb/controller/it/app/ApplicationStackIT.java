package org.raidb.controller.it.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.MigrateResult;
import org.hibernate.SessionFactory;
import org.hibernate.dialect.PostgreSQLDialect;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;
import org.slf4j.LoggerFactory;

/**
 * Issue 12's acceptance test: an application built like a real one, pointed at RAIDb-1 over three
 * PostgreSQL backends with nothing changed but its JDBC URL. HikariCP pools the raidb driver;
 * Flyway with its default settings migrates (tables with {@code DEFAULT now()},
 * {@code gen_random_uuid()} and {@code clock_timestamp()} defaults, a sequence, an identity column, a
 * view, {@code ALTER TABLE … ADD COLUMN … DEFAULT now()} over existing rows); Hibernate, bootstrapped
 * plainly, runs a bank (sequence and identity keys, optimistic locking, database-generated values read
 * back, a REQUIRES_NEW audit on a second connection) from 8 threads for 20 s; then a later migration
 * runs over the rows the application wrote, and Flyway validates and reports every migration applied.
 * At the end every table is identical on every backend and no backend was disabled.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES) // far above its run (about a minute): a hang fails with a thread dump
class ApplicationStackIT {
    private static final int THREADS = 8;
    private static final Duration RUN = Duration.ofSeconds(20);
    private static final String BASE = "classpath:db/appstack/base";
    private static final String LATER = "classpath:db/appstack/later";

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("bank");

    @Test
    void anApplicationOnHikariFlywayAndHibernateLeavesEveryTableIdenticalOnEveryBackend() throws Exception {
        Bank bank;
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("bank"), "bank");
                HikariDataSource pool = pool(raidb)) {
            MigrateResult migrated =
                    Flyway.configure().dataSource(pool).locations(BASE).load().migrate();
            assertThat(migrated.success).isTrue();
            assertThat(migrated.migrationsExecuted).isEqualTo(5);

            try (SessionFactory orm = Bank.sessionFactory(pool)) {
                assertThat(orm.unwrap(SessionFactoryImplementor.class)
                                .getJdbcServices()
                                .getDialect())
                        .isInstanceOf(PostgreSQLDialect.class);
                bank = new Bank(orm, pool);
                runFor(RUN, bank);
            }

            Flyway flyway =
                    Flyway.configure().dataSource(pool).locations(BASE, LATER).load();
            assertThat(flyway.migrate().migrationsExecuted)
                    .as("the migration written after the application ran")
                    .isEqualTo(1);
            flyway.validate();
            MigrationInfo[] applied = flyway.info().all();
            assertThat(applied)
                    .extracting(MigrationInfo::getScript)
                    .containsExactly(
                            "V1__accounts.sql",
                            "V2__transfers.sql",
                            "V3__audit.sql",
                            "V4__account_last_seen.sql",
                            "R__account_totals.sql",
                            "V5__transfer_settled_at.sql");
            assertThat(applied)
                    .allSatisfy(m -> assertThat(m.getState()).as(m.getScript()).isEqualTo(MigrationState.SUCCESS));
            assertThat(flyway.info().pending()).isEmpty();

            try (Connection c = pool.getConnection()) {
                assertTheBooksBalance(c, bank);
            }
            raidb.assertEveryBackendEnabled();
        }
        List<EmbeddedPostgresServer> servers = pg.cluster().servers();
        ReplicaChecks.assertIdentical(servers);
        assertThat(ControllerFixture.checksums(servers).values().iterator().next())
                .containsKeys("account", "transfer", "audit_event", "flyway_schema_history");
        List<ReplicaChecks.Backend> backends =
                servers.stream().map(s -> (ReplicaChecks.Backend) s::connect).toList();
        ReplicaChecks.assertSameOnEvery(backends, "SELECT last_value, is_called FROM account_seq");
        ReplicaChecks.assertSameOnEvery(
                backends, "SELECT last_value FROM pg_sequences WHERE sequencename LIKE 'transfer%'");
        // The defaults really varied, so identical tables mean one value per row, not one per run.
        for (String varied : List.of(
                "SELECT count(DISTINCT made_at) > 1, count(DISTINCT ref) = count(*) FROM transfer",
                "SELECT count(DISTINCT opened_at) > 1, count(DISTINCT last_seen) > 1 FROM account",
                "SELECT count(DISTINCT at) > 1, count(DISTINCT id) = count(*) FROM audit_event")) {
            assertThat(ReplicaChecks.rowsOn(servers.get(0), varied)).as(varied).containsExactly("t|t|");
        }
    }

    private static HikariDataSource pool(ControllerFixture raidb) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(raidb.url());
        hc.setUsername(ControllerFixture.USER);
        hc.setPassword(ControllerFixture.PASSWORD);
        // Each worker may hold two connections at once (the REQUIRES_NEW audit), plus Flyway's own.
        hc.setMaximumPoolSize(2 * THREADS + 2);
        hc.setPoolName("bank-pool");
        return new HikariDataSource(hc);
    }

    private static void runFor(Duration run, Bank bank) throws Exception {
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        long deadline = System.nanoTime() + run.toNanos();
        ExecutorService workers = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random random = new Random(t);
                futures.add(workers.submit(() -> {
                    while (System.nanoTime() < deadline && errors.isEmpty()) {
                        try {
                            bank.serveOneRequest(random);
                        } catch (Throwable e) {
                            errors.add(e);
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(run.toSeconds() + 60, TimeUnit.SECONDS);
            }
        } finally {
            workers.shutdownNow();
        }
        LoggerFactory.getLogger(ApplicationStackIT.class)
                .info(
                        "{} threads for {}: {} transfers ({} retries), {} accounts opened, {} reads",
                        THREADS,
                        run,
                        bank.transfers(),
                        bank.retries(),
                        bank.opened(),
                        bank.reads());
        assertThat(errors).as("errors seen by the application").isEmpty();
        assertThat(bank.transfers()).as("transfers made").isGreaterThan(THREADS);
        assertThat(bank.opened()).as("accounts opened").isGreaterThan(THREADS);
    }

    private static void assertTheBooksBalance(Connection c, Bank bank) throws Exception {
        assertThat(ReplicaChecks.count(c, Bank.BOOKS_OFF_BY)).isZero();
        assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM account")).isEqualTo(Bank.FOUNDERS + bank.opened());
        assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM transfer")).isEqualTo(bank.transfers());
        assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM audit_event WHERE kind = 'transfer'"))
                .isEqualTo(bank.transfers());
        assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM audit_event WHERE kind = 'attempt'"))
                .isEqualTo(bank.auditedAttempts());
        // Every balance is its opening amount plus what the recorded transfers moved.
        assertThat(ReplicaChecks.count(
                        c,
                        "SELECT count(*) FROM account_totals WHERE balance <> net_transfers + CASE WHEN id <= "
                                + Bank.FOUNDERS + " THEN " + Bank.FOUNDER_BALANCE + " ELSE " + Bank.OPENING_BALANCE
                                + " END"))
                .isZero();
        assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM transfer WHERE settled_at IS NULL"))
                .isZero();
    }
}
