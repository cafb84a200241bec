/**
 * DDL of the event-monitoring state: webhooks, enrollments (with their targets, one row per monitored
 * entity × event type so an ingested event finds its enrollments through one index lookup) and the
 * delivery outbox. Times are milliseconds since the epoch from the engine clock.
 */
export const EVENTS_ACCOUNT_DDL = `
CREATE TABLE IF NOT EXISTS webhooks (
  rowid INTEGER PRIMARY KEY,
  webhook_id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  partner_id TEXT NOT NULL,
  api_version INTEGER NOT NULL,
  name TEXT,
  description TEXT,
  url TEXT NOT NULL,
  headers TEXT NOT NULL,
  payload_format TEXT NOT NULL,
  status TEXT NOT NULL,
  disabled_reason TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS webhooks_account ON webhooks (account_id, api_version);

CREATE TABLE IF NOT EXISTS enrollments (
  rowid INTEGER PRIMARY KEY,
  enrollment_id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  partner_id TEXT NOT NULL,
  api_version INTEGER NOT NULL,
  entity_type TEXT NOT NULL,
  enrollment_key TEXT NOT NULL,
  event_types TEXT NOT NULL,
  entity_ids TEXT NOT NULL,
  webhook_rowid INTEGER REFERENCES webhooks (rowid),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS enrollments_account ON enrollments (account_id, api_version, entity_type);
CREATE INDEX IF NOT EXISTS enrollments_webhook ON enrollments (webhook_rowid);

CREATE TABLE IF NOT EXISTS enrollment_targets (
  entity_id TEXT NOT NULL,
  event_name TEXT NOT NULL,
  enrollment_rowid INTEGER NOT NULL REFERENCES enrollments (rowid) ON DELETE CASCADE,
  PRIMARY KEY (entity_id, event_name, enrollment_rowid)
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS enrollment_targets_enrollment ON enrollment_targets (enrollment_rowid);

CREATE TABLE IF NOT EXISTS deliveries (
  rowid INTEGER PRIMARY KEY,
  delivery_id TEXT NOT NULL UNIQUE,
  webhook_rowid INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  enrollment_id TEXT,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_attempt_at INTEGER,
  last_status INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS deliveries_webhook ON deliveries (webhook_rowid, status);
`;
