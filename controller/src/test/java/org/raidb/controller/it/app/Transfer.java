package org.raidb.controller.it.app;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.hibernate.annotations.Generated;

/**
 * Money moved between two accounts: an identity key (Hibernate inserts at once and reads the key
 * back), a reference from {@code gen_random_uuid()} and a time from {@code now()}, both column
 * defaults.
 */
@Entity
@Table(name = "transfer")
public class Transfer {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "from_id")
    private Account from;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "to_id")
    private Account to;

    @Column(nullable = false)
    private long amount;

    @Generated
    @Column(updatable = false)
    private UUID ref;

    @Generated
    @Column(name = "made_at", updatable = false)
    private OffsetDateTime madeAt;

    protected Transfer() {}

    public Transfer(Account from, Account to, long amount) {
        this.from = from;
        this.to = to;
        this.amount = amount;
    }

    public Long getId() {
        return id;
    }

    public UUID getRef() {
        return ref;
    }

    public OffsetDateTime getMadeAt() {
        return madeAt;
    }
}
