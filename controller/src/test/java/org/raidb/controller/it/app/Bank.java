package org.raidb.controller.it.app;

import jakarta.persistence.OptimisticLockException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.StaleStateException;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;

/**
 * The application: a bank written as such code usually is, Hibernate for the domain and plain JDBC
 * on the same pool for an audit trail that must survive the caller's rollback (Spring's
 * REQUIRES_NEW). Money only moves between accounts, so the bank's books always balance: the sum
 * of balances is what the founders and the opened accounts brought in.
 */
public final class Bank {
    public static final int FOUNDERS = 20;
    public static final long FOUNDER_BALANCE = 1000;
    public static final long OPENING_BALANCE = 100;
    /** What every read of the books must return: 0, however the writes interleave. */
    public static final String BOOKS_OFF_BY =
            "SELECT sum(balance) - " + FOUNDER_BALANCE + " * count(*) FILTER (WHERE id <= " + FOUNDERS + ") - "
                    + OPENING_BALANCE + " * count(*) FILTER (WHERE id > " + FOUNDERS + ") FROM account";

    private static final int ATTEMPTS = 20;

    private final SessionFactory orm;
    private final DataSource pool;
    private final List<Long> accountIds = new CopyOnWriteArrayList<>(
            LongStream.rangeClosed(1, FOUNDERS).boxed().toList());
    private final AtomicLong transfers = new AtomicLong();
    private final AtomicLong auditedAttempts = new AtomicLong();
    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();

    public Bank(SessionFactory orm, DataSource pool) {
        this.orm = orm;
        this.pool = pool;
    }

    /**
     * Hibernate bootstrapped the plain way over the application's pool: annotated classes, no schema
     * generation (Flyway owns the schema), the dialect left for Hibernate to pick from the connection.
     */
    public static SessionFactory sessionFactory(DataSource pool) {
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
                .applySetting(AvailableSettings.DATASOURCE, pool)
                .applySetting(AvailableSettings.HBM2DDL_AUTO, "none")
                .build();
        try {
            return new MetadataSources(registry)
                    .addAnnotatedClass(Account.class)
                    .addAnnotatedClass(Transfer.class)
                    .buildMetadata()
                    .buildSessionFactory();
        } catch (RuntimeException e) {
            StandardServiceRegistryBuilder.destroy(registry);
            throw e;
        }
    }

    /** One request of the mix a web front end sends: mostly reads and transfers, some new accounts and touches. */
    public void serveOneRequest(Random random) throws SQLException {
        int kind = random.nextInt(20);
        if (kind < 8) {
            read(random);
        } else if (kind < 15) {
            transfer(random);
        } else if (kind < 18) {
            openAccount();
        } else {
            touch(random);
        }
    }

    void openAccount() {
        Account account = orm.fromTransaction(s -> {
            Account a = new Account("customer", OPENING_BALANCE);
            s.persist(a);
            return a;
        });
        if (account.getOpenedAt() == null) {
            throw new AssertionError("opened_at not read back from the database default");
        }
        accountIds.add(account.getId());
        opened.incrementAndGet();
    }

    /** Moves money with optimistic locking, retrying as applications do on a stale version or a serialization failure. */
    void transfer(Random random) throws SQLException {
        long fromId = pick(random);
        long toId = pick(random);
        if (fromId == toId) {
            return;
        }
        long amount = 1 + random.nextInt(50);
        for (int attempt = 1; ; attempt++) {
            try {
                Transfer made = orm.fromTransaction(s -> {
                    Account from = s.find(Account.class, fromId);
                    Account to = s.find(Account.class, toId);
                    if (!from.withdraw(amount)) {
                        return null;
                    }
                    to.deposit(amount);
                    Transfer t = new Transfer(from, to, amount);
                    s.persist(t);
                    s.createNativeMutationQuery("INSERT INTO audit_event (kind, detail) VALUES ('transfer', :detail)")
                            .setParameter("detail", "transfer " + t.getId())
                            .executeUpdate();
                    s.flush();
                    auditAttempt(fromId, toId, amount);
                    return t;
                });
                if (made != null) {
                    if (made.getRef() == null || made.getMadeAt() == null) {
                        throw new AssertionError("transfer defaults not read back: " + made.getId());
                    }
                    transfers.incrementAndGet();
                }
                return;
            } catch (RuntimeException e) {
                if (!retryable(e) || attempt == ATTEMPTS) {
                    throw e;
                }
                retries.incrementAndGet();
            }
        }
    }

    /** The REQUIRES_NEW part: a second connection, its own auto-committed insert, while the caller's transaction is open. */
    private void auditAttempt(long fromId, long toId, long amount) {
        try (Connection c = pool.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO audit_event (kind, detail) VALUES ('attempt', ?)")) {
            ps.setString(1, fromId + "->" + toId + ": " + amount);
            ps.executeUpdate();
            auditedAttempts.incrementAndGet();
        } catch (SQLException e) {
            throw new IllegalStateException("audit insert failed", e);
        }
    }

    void read(Random random) {
        long id = pick(random);
        orm.inSession(s -> {
            if (s.find(Account.class, id) == null) {
                throw new AssertionError("account " + id + " missing");
            }
            s.createSelectionQuery("from Transfer t where t.from.id = :id order by t.id desc", Transfer.class)
                    .setParameter("id", id)
                    .setMaxResults(5)
                    .getResultList();
            Number offBy =
                    (Number) s.createNativeQuery(BOOKS_OFF_BY, Object.class).getSingleResult();
            if (offBy.longValue() != 0) {
                throw new AssertionError("the books are off by " + offBy + " on a read");
            }
        });
        reads.incrementAndGet();
    }

    /** A plain JDBC write with now() in it, the kind of statement every code base has somewhere. */
    void touch(Random random) throws SQLException {
        try (Connection c = pool.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE account SET last_seen = now() WHERE id = ?")) {
            ps.setLong(1, pick(random));
            if (ps.executeUpdate() != 1) {
                throw new AssertionError("touch updated no account");
            }
        }
    }

    private long pick(Random random) {
        return accountIds.get(random.nextInt(accountIds.size()));
    }

    static boolean retryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OptimisticLockException || t instanceof StaleStateException) {
                return true;
            }
            if (t instanceof SQLException sql
                    && ("40001".equals(sql.getSQLState()) || "40P01".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    public long transfers() {
        return transfers.get();
    }

    public long auditedAttempts() {
        return auditedAttempts.get();
    }

    public long opened() {
        return opened.get();
    }

    public long retries() {
        return retries.get();
    }

    public long reads() {
        return reads.get();
    }
}
