package org.raidb.controller.it.app;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.OffsetDateTime;
import org.hibernate.annotations.Generated;

/**
 * A bank account as an application maps it: a sequence key drawn 50 at a time, optimistic locking,
 * and two timestamps the database fills from its {@code DEFAULT now()} (Hibernate leaves them out of
 * the INSERT and reads back what the database stored).
 */
@Entity
@Table(name = "account")
public class Account {
    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "account_ids")
    @SequenceGenerator(name = "account_ids", sequenceName = "account_seq", allocationSize = 50)
    private Long id;

    @Version
    private int version;

    @Column(nullable = false)
    private String owner;

    @Column(nullable = false)
    private long balance;

    @Generated
    @Column(name = "opened_at", updatable = false)
    private OffsetDateTime openedAt;

    @Generated
    @Column(name = "last_seen", updatable = false)
    private OffsetDateTime lastSeen;

    protected Account() {}

    public Account(String owner, long balance) {
        this.owner = owner;
        this.balance = balance;
    }

    public Long getId() {
        return id;
    }

    public long getBalance() {
        return balance;
    }

    public OffsetDateTime getOpenedAt() {
        return openedAt;
    }

    /** Moves money out; the CHECK (balance >= 0) is the database's last word, this is the application's. */
    public boolean withdraw(long amount) {
        if (balance < amount) {
            return false;
        }
        balance -= amount;
        return true;
    }

    public void deposit(long amount) {
        balance += amount;
    }
}
