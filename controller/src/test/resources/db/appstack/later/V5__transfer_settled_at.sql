-- A migration after the application has run: every transfer made so far gets one settled_at.
ALTER TABLE transfer ADD COLUMN settled_at timestamptz NOT NULL DEFAULT now();
