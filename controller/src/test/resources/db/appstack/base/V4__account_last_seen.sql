-- Fills the founding accounts with the migration's now(): one value, the same on every replica.
ALTER TABLE account ADD COLUMN last_seen timestamptz NOT NULL DEFAULT now();
