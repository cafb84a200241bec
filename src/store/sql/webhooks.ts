/**
 * DDL of the event-monitoring state: webhooks, enrollments (with their targets, one row per monitored
 * entity × event type so an ingested event finds its enrollments through one index lookup) and the
 * delivery outbox. Times are milliseconds since the epoch from the engine clock.
 */
import type { Db } from '../db.js';
import { preparedOnce, type Statements } from '../statements.js';

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
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS deliveries_webhook ON deliveries (webhook_rowid, status);
`;

export type WebhookStatements = Statements<
  | 'insert'
  | 'byId'
  | 'byRowid'
  | 'v1Of'
  | 'list'
  | 'countV2'
  | 'update'
  | 'replaceV1'
  | 'rotate'
  | 'disable'
  | 'remove'
  | 'enrollmentsOf'
  | 'removeEnrollments'
  | 'cancelDeliveries'
>;

/** The webhook statements of a database, prepared once. */
export const webhookStatements = preparedOnce((db: Db): WebhookStatements => ({
  insert:
    db.prepare(`INSERT INTO webhooks (webhook_id, account_id, partner_id, api_version, name, description, url,
      headers, payload_format, status, disabled_reason, secret, created_at, updated_at)
      VALUES (@webhook_id, @account_id, @partner_id, @api_version, @name, @description, @url, @headers,
      @payload_format, @status, @disabled_reason, @secret, @now, @now)`),
  byId: db.prepare('SELECT * FROM webhooks WHERE webhook_id = ? AND account_id = ? AND api_version = 2'),
  byRowid: db.prepare('SELECT * FROM webhooks WHERE rowid = ?'),
  v1Of: db.prepare('SELECT * FROM webhooks WHERE account_id = ? AND api_version = 1'),
  list: db.prepare(
    'SELECT * FROM webhooks WHERE account_id = ? AND api_version = 2 ORDER BY created_at, rowid',
  ),
  countV2: db.prepare('SELECT count(*) FROM webhooks WHERE account_id = ? AND api_version = 2').pluck(),
  update:
    db.prepare(`UPDATE webhooks SET name = @name, description = @description, url = @url, headers = @headers,
      payload_format = @payload_format, status = @status, disabled_reason = @disabled_reason, updated_at = @now
      WHERE rowid = @rowid`),
  replaceV1: db.prepare(`UPDATE webhooks SET url = @url, headers = @headers, payload_format = @payload_format,
      status = 'active', disabled_reason = NULL, secret = @secret, previous_secret = NULL,
      previous_secret_expires_at = NULL, updated_at = @now WHERE rowid = @rowid`),
  rotate: db.prepare(`UPDATE webhooks SET previous_secret = secret, previous_secret_expires_at = @expires,
      secret = @secret, updated_at = @now WHERE rowid = @rowid`),
  disable: db.prepare(`UPDATE webhooks SET status = 'disabled', disabled_reason = @reason, updated_at = @now
      WHERE rowid = @rowid AND status = 'active'`),
  remove: db.prepare('DELETE FROM webhooks WHERE rowid = ?'),
  enrollmentsOf: db
    .prepare('SELECT enrollment_id FROM enrollments WHERE webhook_rowid = ? ORDER BY rowid')
    .pluck(),
  removeEnrollments: db.prepare('DELETE FROM enrollments WHERE webhook_rowid = ?'),
  cancelDeliveries: db.prepare(`UPDATE deliveries SET status = 'cancelled', updated_at = ?
      WHERE webhook_rowid = ? AND status = 'pending'`),
}));

export type EnrollmentStatements = Statements<
  'insert' | 'byId' | 'byRowid' | 'list' | 'update' | 'remove' | 'clearTargets' | 'addTarget' | 'match'
>;

/** The enrollment statements of a database, prepared once. */
export const enrollmentStatements = preparedOnce((db: Db): EnrollmentStatements => ({
  insert:
    db.prepare(`INSERT INTO enrollments (enrollment_id, account_id, partner_id, api_version, entity_type,
      enrollment_key, event_types, entity_ids, webhook_rowid, created_at, updated_at)
      VALUES (@enrollment_id, @account_id, @partner_id, @api_version, @entity_type, @enrollment_key, @event_types,
      @entity_ids, @webhook_rowid, @now, @now)`),
  byId: db.prepare(`SELECT * FROM enrollments WHERE enrollment_id = ? AND account_id = ? AND api_version = ?
      AND entity_type = ?`),
  byRowid: db.prepare('SELECT * FROM enrollments WHERE rowid = ?'),
  list: db.prepare(`SELECT * FROM enrollments WHERE account_id = ? AND api_version = ? AND entity_type = ?
      ORDER BY created_at, rowid`),
  update: db.prepare(`UPDATE enrollments SET enrollment_key = @enrollment_key, event_types = @event_types,
      entity_ids = @entity_ids, webhook_rowid = @webhook_rowid, updated_at = @now WHERE rowid = @rowid`),
  remove: db.prepare('DELETE FROM enrollments WHERE rowid = ?'),
  clearTargets: db.prepare('DELETE FROM enrollment_targets WHERE enrollment_rowid = ?'),
  addTarget: db.prepare(
    'INSERT OR IGNORE INTO enrollment_targets (entity_id, event_name, enrollment_rowid) VALUES (?, ?, ?)',
  ),
  match: db.prepare(`SELECT e.enrollment_id, e.account_id, e.partner_id, e.api_version, e.enrollment_key,
      COALESCE(e.webhook_rowid, (SELECT w.rowid FROM webhooks w WHERE w.account_id = e.account_id
        AND w.api_version = 1)) AS webhook_rowid
      FROM enrollment_targets t JOIN enrollments e ON e.rowid = t.enrollment_rowid
      WHERE t.entity_id = ? AND t.event_name = ? ORDER BY e.rowid`),
}));

export type OutboxStatements = Statements<
  'insert' | 'due' | 'nextDue' | 'byRowid' | 'delivered' | 'retry' | 'failed' | 'requeue' | 'ofWebhook'
>;

/** The delivery outbox statements of a database, prepared once. */
export const outboxStatements = preparedOnce((db: Db): OutboxStatements => ({
  insert:
    db.prepare(`INSERT INTO deliveries (delivery_id, webhook_rowid, event_id, enrollment_id, payload, status,
      attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`),
  due: db.prepare(`SELECT d.* FROM deliveries d JOIN webhooks w ON w.rowid = d.webhook_rowid
      WHERE d.status = 'pending' AND w.status = 'active' AND d.next_attempt_at <= ?
      ORDER BY d.next_attempt_at, d.rowid LIMIT ?`),
  nextDue: db
    .prepare(
      `SELECT min(d.next_attempt_at) FROM deliveries d JOIN webhooks w ON w.rowid = d.webhook_rowid
      WHERE d.status = 'pending' AND w.status = 'active'`,
    )
    .pluck(),
  byRowid: db.prepare('SELECT * FROM deliveries WHERE rowid = ?'),
  delivered:
    db.prepare(`UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, last_attempt_at = @now,
      last_status = @code, last_error = NULL, updated_at = @now WHERE rowid = @rowid AND status = 'pending'`),
  retry:
    db.prepare(`UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = @next, last_attempt_at = @now,
      last_status = @code, last_error = @error, updated_at = @now WHERE rowid = @rowid AND status = 'pending'`),
  failed:
    db.prepare(`UPDATE deliveries SET status = 'failed', attempts = attempts + 1, last_attempt_at = @now,
      last_status = @code, last_error = @error, updated_at = @now WHERE rowid = @rowid AND status = 'pending'`),
  requeue: db.prepare(`UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = @now,
      updated_at = @now WHERE webhook_rowid = @webhook AND status = 'failed' AND last_error = '${RETRIES_EXHAUSTED}'`),
  ofWebhook: db.prepare('SELECT * FROM deliveries WHERE webhook_rowid = ? ORDER BY rowid'),
}));
