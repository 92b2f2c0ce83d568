CREATE TABLE audit_event (
  id     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  kind   text NOT NULL,
  detail text
);
