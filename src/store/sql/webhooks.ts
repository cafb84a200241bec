/**
 * SQL of the event-monitoring state (`ctx.state`, SQLite or PostgreSQL): webhooks, enrollments (with
 * their targets, one row per monitored entity × event type so an ingested event finds its enrollments
 * through one index lookup) and the delivery outbox. Times are milliseconds since the epoch from the
 * engine clock. Statements are plain strings in the subset both stores read (`?` positional
 * parameters, `ON CONFLICT`, `RETURNING`); the DDL is SQLite's, translated by `state/schema.ts`.
 *
 * A delivery is queued at most once per (event, webhook, enrollment): queuing is `ON CONFLICT DO
 * NOTHING`, so an ingest repeated after a crash, or the same event ingested by two nodes, never
 * doubles it. A worker claims due deliveries with a lease (`lease_owner` = the engine's instance,
 * `lease_until`): one UPDATE takes only rows that are unleased or whose lease ran out, and writes an
 * outcome only while the lease is still its own.
 */
import type { StateMigration } from './migration.js';

/** `last_error` of a delivery whose retries ran out. */
export const RETRIES_EXHAUSTED = 'retries_exhausted';
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
  updated_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS deliveries_once ON deliveries (event_id, webhook_rowid, enrollment_id);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS deliveries_webhook ON deliveries (webhook_rowid, status);
`;

/**
 * Migrations of stores made before leases: the lease columns, and the uniqueness that makes queuing
 * idempotent (a store made by an older version never held two deliveries of one event for one
 * enrollment: ingest skipped known events).
 */
export const WEBHOOK_MIGRATIONS: readonly StateMigration[] = [
  {
    version: 1,
    sqlite: `ALTER TABLE deliveries ADD COLUMN lease_owner TEXT;
ALTER TABLE deliveries ADD COLUMN lease_until INTEGER;
CREATE UNIQUE INDEX IF NOT EXISTS deliveries_once ON deliveries (event_id, webhook_rowid, enrollment_id);`,
    postgres: `ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS lease_owner TEXT;
ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS lease_until BIGINT;
CREATE UNIQUE INDEX IF NOT EXISTS deliveries_once ON deliveries (event_id, webhook_rowid, enrollment_id);`,
  },
];

const WEBHOOK_COLUMNS = `webhook_id, account_id, partner_id, api_version, name, description, url, headers,
  payload_format, status, disabled_reason, secret, created_at, updated_at`;

/** Webhooks (`registry.ts`). */
export const WEBHOOK_SQL = {
  /** Params: webhook_id, account_id, partner_id, api_version, name, description, url, headers,
   * payload_format, status, disabled_reason, secret, now, now. */
  insert: `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  byId: 'SELECT * FROM webhooks WHERE webhook_id = ? AND account_id = ? AND api_version = 2',
  byRowid: 'SELECT * FROM webhooks WHERE rowid = ?',
  v1Of: 'SELECT * FROM webhooks WHERE account_id = ? AND api_version = 1',
  list: 'SELECT * FROM webhooks WHERE account_id = ? AND api_version = 2 ORDER BY created_at, rowid',
  countV2: 'SELECT count(*) FROM webhooks WHERE account_id = ? AND api_version = 2',
  /** Params: name, description, url, headers, payload_format, status, disabled_reason, now, rowid. */
  update: `UPDATE webhooks SET name = ?, description = ?, url = ?, headers = ?, payload_format = ?, status = ?,
      disabled_reason = ?, updated_at = ? WHERE rowid = ? RETURNING *`,
  /** Params: url, headers, payload_format, secret, now, rowid. */
  replaceV1: `UPDATE webhooks SET url = ?, headers = ?, payload_format = ?, status = 'active',
      disabled_reason = NULL, secret = ?, previous_secret = NULL, previous_secret_expires_at = NULL,
      updated_at = ? WHERE rowid = ? RETURNING *`,
  /** Params: expires, secret, now, rowid. */
  rotate: `UPDATE webhooks SET previous_secret = secret, previous_secret_expires_at = ?, secret = ?,
      updated_at = ? WHERE rowid = ? RETURNING *`,
  /** Params: reason, now, rowid. */
  disable: `UPDATE webhooks SET status = 'disabled', disabled_reason = ?, updated_at = ?
      WHERE rowid = ? AND status = 'active'`,
  remove: 'DELETE FROM webhooks WHERE rowid = ?',
  enrollmentsOf: 'SELECT enrollment_id FROM enrollments WHERE webhook_rowid = ? ORDER BY rowid',
  removeEnrollments: 'DELETE FROM enrollments WHERE webhook_rowid = ?',
  /** Params: now, webhook_rowid. */
  cancelDeliveries: `UPDATE deliveries SET status = 'cancelled', lease_owner = NULL, lease_until = NULL,
      updated_at = ? WHERE webhook_rowid = ? AND status = 'pending'`,
} as const;

/** Enrollments (`enrollments.ts`). */
export const ENROLLMENT_SQL = {
  /** Params: enrollment_id, account_id, partner_id, api_version, entity_type, enrollment_key,
   * event_types, entity_ids, webhook_rowid, now, now. */
  insert: `INSERT INTO enrollments (enrollment_id, account_id, partner_id, api_version, entity_type,
      enrollment_key, event_types, entity_ids, webhook_rowid, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  byId: `SELECT * FROM enrollments WHERE enrollment_id = ? AND account_id = ? AND api_version = ?
      AND entity_type = ?`,
  list: `SELECT * FROM enrollments WHERE account_id = ? AND api_version = ? AND entity_type = ?
      ORDER BY created_at, rowid`,
  /** Params: enrollment_key, event_types, entity_ids, webhook_rowid, now, rowid. */
  update: `UPDATE enrollments SET enrollment_key = ?, event_types = ?, entity_ids = ?, webhook_rowid = ?,
      updated_at = ? WHERE rowid = ? RETURNING *`,
  remove: 'DELETE FROM enrollments WHERE rowid = ?',
  clearTargets: 'DELETE FROM enrollment_targets WHERE enrollment_rowid = ?',
  /** Params: entity_id, event_name, enrollment_rowid. */
  addTarget: `INSERT INTO enrollment_targets (entity_id, event_name, enrollment_rowid) VALUES (?, ?, ?)
      ON CONFLICT DO NOTHING`,
  match: `SELECT e.enrollment_id, e.account_id, e.partner_id, e.api_version, e.enrollment_key,
      COALESCE(e.webhook_rowid, (SELECT w.rowid FROM webhooks w WHERE w.account_id = e.account_id
        AND w.api_version = 1)) AS webhook_rowid
      FROM enrollment_targets t JOIN enrollments e ON e.rowid = t.enrollment_rowid
      WHERE t.entity_id = ? AND t.event_name = ? ORDER BY e.rowid`,
} as const;

/** A pending delivery of an active webhook that is due and free: never leased, or its lease ran out. */
const DUE = `d.status = 'pending' AND w.status = 'active' AND d.next_attempt_at <= ?
      AND (d.lease_until IS NULL OR d.lease_until < ?)`;

/**
 * Claims up to `limit` due deliveries for `owner` until `lease_until`; params: owner, lease_until,
 * now, now, limit, now. One statement, race-free in both stores: SQLite runs it under the write lock;
 * PostgreSQL re-checks the outer WHERE on a row another claimer just leased (after waiting for its
 * lock) and leaves it out, and `SKIP LOCKED` lets concurrent claimers take different rows rather than
 * queue on the same ones.
 */
export function claimDeliveriesSql(dialect: 'sqlite' | 'postgres'): string {
  return `UPDATE deliveries SET lease_owner = ?, lease_until = ?
      WHERE rowid IN (SELECT d.rowid FROM deliveries d JOIN webhooks w ON w.rowid = d.webhook_rowid
        WHERE ${DUE} ORDER BY d.next_attempt_at, d.rowid LIMIT ?${dialect === 'postgres' ? ' FOR UPDATE OF d SKIP LOCKED' : ''})
      AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)
      RETURNING *`;
}

/** The delivery outbox (`outbox.ts`, `deliver.ts`). */
export const OUTBOX_SQL = {
  /** Params: delivery_id, webhook_rowid, event_id, enrollment_id, payload, next_attempt_at, now, now. */
  insert: `INSERT INTO deliveries (delivery_id, webhook_rowid, event_id, enrollment_id, payload, status,
      attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
      ON CONFLICT (event_id, webhook_rowid, enrollment_id) DO NOTHING`,
  /**
   * When the next pending delivery of an active webhook can be claimed: its attempt time, or just
   * after its lease ends (null when there is none).
   */
  nextDue: `SELECT min(CASE WHEN d.lease_until IS NOT NULL AND d.lease_until >= d.next_attempt_at
        THEN d.lease_until + 1 ELSE d.next_attempt_at END)
      FROM deliveries d JOIN webhooks w ON w.rowid = d.webhook_rowid
      WHERE d.status = 'pending' AND w.status = 'active'`,
  byRowid: 'SELECT * FROM deliveries WHERE rowid = ?',
  /** Outcomes, written only while the lease is the writer's; params: …, rowid, owner. */
  delivered: `UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, last_attempt_at = ?,
      last_status = ?, last_error = NULL, lease_owner = NULL, lease_until = NULL, updated_at = ?
      WHERE rowid = ? AND status = 'pending' AND lease_owner = ?`,
  /** Params: next, now, code, error, now, rowid, owner. */
  retry: `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = ?, last_attempt_at = ?,
      last_status = ?, last_error = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
      WHERE rowid = ? AND status = 'pending' AND lease_owner = ?`,
  /** Params: now, code, error, now, rowid, owner. */
  failed: `UPDATE deliveries SET status = 'failed', attempts = attempts + 1, last_attempt_at = ?,
      last_status = ?, last_error = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
      WHERE rowid = ? AND status = 'pending' AND lease_owner = ?`,
  /** Gives back a stopping worker's lease; params: rowid, owner. */
  release: `UPDATE deliveries SET lease_owner = NULL, lease_until = NULL
      WHERE rowid = ? AND lease_owner = ? AND status = 'pending'`,
  /** Params: now, now, webhook_rowid. */
  requeue: `UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, lease_owner = NULL,
      lease_until = NULL, updated_at = ?
      WHERE webhook_rowid = ? AND status = 'failed' AND last_error = '${RETRIES_EXHAUSTED}'`,
  ofWebhook: 'SELECT * FROM deliveries WHERE webhook_rowid = ? ORDER BY rowid',
} as const;
