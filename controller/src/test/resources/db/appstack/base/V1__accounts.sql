-- Accounts take their ids from a sequence that Hibernate's pooled optimizer draws 50 at a time.
CREATE SEQUENCE account_seq START WITH 1 INCREMENT BY 50;

CREATE TABLE account (
  id        bigint PRIMARY KEY,
  owner     text   NOT NULL,
  balance   bigint NOT NULL CHECK (balance >= 0),
  version   int    NOT NULL DEFAULT 0,
  opened_at timestamptz NOT NULL DEFAULT now()
);

-- Twenty founding accounts of 1000 each; the sequence is moved past their ids, as data migrations do.
INSERT INTO account (id, owner, balance)
SELECT g, 'founder ' || g, 1000 FROM generate_series(1, 20) g;
SELECT setval('account_seq', 1000);
