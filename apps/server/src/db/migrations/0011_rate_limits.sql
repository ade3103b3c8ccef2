-- Rate limits shared by every server instance on this database (modules/limits).
-- A sliding log per key: the times of the hits still inside the key's window.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  hits timestamptz[] NOT NULL,
  -- After this moment every hit has left the window and the row may be deleted.
  expires_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at);
