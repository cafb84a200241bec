/**
 * DDL of uploaded entity-id lists and async jobs. A job row holds its progress (`cursor` = input rows
 * done) and totals; `job_rows` holds one result line per input row, keyed (job, row), so a resumed job can
 * never write a row twice. Batch rows, the cursor and the ledger debit commit in one transaction.
 */
import type { Db } from '../db.js';
import { preparedOnce, type Statements } from '../statements.js';
export const JOBS_SCHEMA = `
CREATE TABLE IF NOT EXISTS entity_id_lists (
  list_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  entity_type TEXT NOT NULL CHECK (entity_type IN ('business', 'prospect')),
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  row_count INTEGER NOT NULL,
  ids TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS jobs (
  seq INTEGER PRIMARY KEY,
  job_id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  enrichment TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  list_id TEXT NOT NULL,
  row_count INTEGER NOT NULL,
  parameters TEXT,
  notifications TEXT,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired')),
  cursor INTEGER NOT NULL DEFAULT 0,
  total_credits INTEGER NOT NULL DEFAULT 0,
  total_results INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  results_token TEXT,
  results_expires_at INTEGER,
  error TEXT,
  notified INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX IF NOT EXISTS jobs_account ON jobs (account_id, seq);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, seq);

CREATE TABLE IF NOT EXISTS job_rows (
  job_id TEXT NOT NULL,
  row INTEGER NOT NULL,
  line TEXT NOT NULL,
  PRIMARY KEY (job_id, row)
) STRICT, WITHOUT ROWID;
`;

export type JobStatements = Statements<
  | 'insert'
  | 'get'
  | 'ofAccount'
  | 'list'
  | 'count'
  | 'next'
  | 'start'
  | 'progress'
  | 'finish'
  | 'insertRow'
  | 'rows'
  | 'rowCount'
  | 'toNotify'
  | 'markNotified'
  | 'pending'
  | 'sweep'
>;

/** The job statements of a database, prepared once. */
export const jobStatements = preparedOnce((db: Db): JobStatements => ({
  insert: db.prepare(
    `INSERT INTO jobs (job_id, account_id, entity_type, enrichment, endpoint, list_id, row_count, parameters, notifications, status, created_at)
       VALUES (@job_id, @account_id, @entity_type, @enrichment, @endpoint, @list_id, @row_count, @parameters, @notifications, 'queued', @created_at)`,
  ),
  get: db.prepare('SELECT * FROM jobs WHERE job_id = ?'),
  ofAccount: db.prepare('SELECT * FROM jobs WHERE job_id = ? AND account_id = ?'),
  list: db.prepare(
    'SELECT * FROM jobs WHERE account_id = @account_id AND (@status IS NULL OR status = @status) ORDER BY seq DESC LIMIT @limit OFFSET @skip',
  ),
  count: db
    .prepare(
      'SELECT count(*) FROM jobs WHERE account_id = @account_id AND (@status IS NULL OR status = @status)',
    )
    .pluck(),
  next: db.prepare(
    "SELECT * FROM jobs WHERE status IN ('running', 'queued') ORDER BY status = 'queued', seq LIMIT 1",
  ),
  start: db.prepare(
    "UPDATE jobs SET status = 'running', started_at = ? WHERE job_id = ? AND status = 'queued'",
  ),
  progress: db.prepare(
    'UPDATE jobs SET cursor = ?, total_credits = total_credits + ?, total_results = total_results + ? WHERE job_id = ?',
  ),
  finish: db.prepare(
    `UPDATE jobs SET status = @status, finished_at = @at, error = @error, results_token = @token,
       results_expires_at = @expires WHERE job_id = @job_id AND status IN ('queued', 'running')`,
  ),
  insertRow: db.prepare('INSERT INTO job_rows (job_id, row, line) VALUES (?, ?, ?)'),
  rows: db.prepare('SELECT line FROM job_rows WHERE job_id = ? ORDER BY row').pluck(),
  rowCount: db.prepare('SELECT count(*) FROM job_rows WHERE job_id = ?').pluck(),
  toNotify: db.prepare(
    "SELECT * FROM jobs WHERE notified = 0 AND notifications IS NOT NULL AND status IN ('succeeded', 'failed', 'expired')",
  ),
  markNotified: db.prepare('UPDATE jobs SET notified = 1 WHERE job_id = ? AND notified = 0'),
  /** Jobs left queued or running (a crashed process): the engine resumes them when it opens. */
  pending: db.prepare("SELECT 1 FROM jobs WHERE status IN ('queued', 'running') LIMIT 1"),
  sweep: db.prepare(
    'DELETE FROM job_rows WHERE job_id IN (SELECT job_id FROM jobs WHERE results_expires_at IS NOT NULL AND results_expires_at < ?)',
  ),
}));

export type UploadStatements = Statements<'insert' | 'get'>;

/** The uploaded-list statements of a database, prepared once. */
export const uploadStatements = preparedOnce((db: Db): UploadStatements => ({
  insert: db.prepare(
    `INSERT INTO entity_id_lists (list_id, account_id, entity_type, name, description, row_count, ids, created_at, expires_at)
       VALUES (@list_id, @account_id, @entity_type, @name, @description, @row_count, @ids, @created_at, @expires_at)`,
  ),
  get: db.prepare('SELECT * FROM entity_id_lists WHERE list_id = ? AND account_id = ?'),
}));
