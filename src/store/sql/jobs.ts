/**
 * SQL of uploaded entity-id lists and async jobs, on the state store (`ctx.state`): plain strings with
 * `?` placeholders, read alike by SQLite and PostgreSQL. A job row holds its progress (`cursor` = input
 * rows done), its totals and its lease (`lease_owner` = the engine instance running it, `lease_until` =
 * wall-clock ms); `job_rows` holds one result line per input row, keyed (job, row), so a resumed job can
 * never write a row twice. A batch's rows, the cursor and the ledger debit commit in one transaction
 * that first checks the lease is still the committer's.
 */
import type { StateMigration } from './migration.js';

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
  notified INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until INTEGER
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

/** Stores made before leases: the two lease columns (a running job without a lease is claimable). */
export const JOBS_MIGRATIONS: readonly StateMigration[] = [
  {
    version: 1,
    sqlite: 'ALTER TABLE jobs ADD COLUMN lease_owner TEXT; ALTER TABLE jobs ADD COLUMN lease_until INTEGER;',
    postgres:
      'ALTER TABLE jobs ADD COLUMN IF NOT EXISTS lease_owner TEXT; ALTER TABLE jobs ADD COLUMN IF NOT EXISTS lease_until BIGINT;',
  },
];

/** A job another worker may take: queued, or running with no live lease (its owner died or stopped). */
const CLAIMABLE = "(status = 'queued' OR (status = 'running' AND (lease_until IS NULL OR lease_until < ?)))";

export const JOB_SQL = {
  insert: `INSERT INTO jobs (job_id, account_id, entity_type, enrichment, endpoint, list_id, row_count, parameters, notifications, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?) RETURNING *`,
  get: 'SELECT * FROM jobs WHERE job_id = ?',
  ofAccount: 'SELECT * FROM jobs WHERE job_id = ? AND account_id = ?',
  list: 'SELECT * FROM jobs WHERE account_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?',
  listByStatus: 'SELECT * FROM jobs WHERE account_id = ? AND status = ? ORDER BY seq DESC LIMIT ? OFFSET ?',
  count: 'SELECT count(*) FROM jobs WHERE account_id = ?',
  countByStatus: 'SELECT count(*) FROM jobs WHERE account_id = ? AND status = ?',
  /**
   * Takes the next job (a running one whose owner is gone first, then the oldest queued) for `owner`
   * until `lease_until`, in one statement: the conditions are repeated outside the subquery so that of
   * two workers racing for the same row only one changes it (PostgreSQL re-checks them on the locked
   * row; SQLite runs one writer at a time). Params: owner, lease_until, started_at, now, now.
   */
  claim: `UPDATE jobs SET lease_owner = ?, lease_until = ?, status = 'running', started_at = COALESCE(started_at, ?)
     WHERE seq = (SELECT seq FROM jobs WHERE ${CLAIMABLE} ORDER BY (status = 'queued'), seq LIMIT 1)
       AND ${CLAIMABLE}
     RETURNING *`,
  /** Whether any job is claimable now (a lost race is retried at once instead of after a poll). */
  claimable: `SELECT 1 FROM jobs WHERE ${CLAIMABLE} LIMIT 1`,
  /**
   * Renews the lease of a running job its owner still holds, at the expected cursor (the batch commit
   * starts with it: it also locks the row). Params: lease_until, job_id, owner, cursor.
   */
  hold: `UPDATE jobs SET lease_until = ? WHERE job_id = ? AND status = 'running' AND lease_owner = ? AND cursor = ?
     RETURNING *`,
  /** Gives a lease back (a worker that stops), so another worker resumes the job at once. */
  release: 'UPDATE jobs SET lease_until = NULL WHERE job_id = ? AND lease_owner = ? AND status = ?',
  progress:
    'UPDATE jobs SET cursor = ?, total_credits = total_credits + ?, total_results = total_results + ? WHERE job_id = ?',
  finish: `UPDATE jobs SET status = ?, finished_at = ?, error = ?, results_token = ?, results_expires_at = ?,
       lease_owner = NULL, lease_until = NULL
     WHERE job_id = ? AND status IN ('queued', 'running')`,
  rows: 'SELECT line FROM job_rows WHERE job_id = ? ORDER BY row',
  rowCount: 'SELECT count(*) FROM job_rows WHERE job_id = ?',
  toNotify:
    "SELECT * FROM jobs WHERE notified = 0 AND notifications IS NOT NULL AND status IN ('succeeded', 'failed', 'expired') ORDER BY seq",
  markNotified: 'UPDATE jobs SET notified = 1 WHERE job_id = ? AND notified = 0',
  /** Jobs left queued or running (a crashed process): the engine resumes them when it opens. */
  pending: "SELECT 1 FROM jobs WHERE status IN ('queued', 'running') LIMIT 1",
  /** Result rows past their retention (idempotent: any number of workers may run it). */
  sweepRows:
    'DELETE FROM job_rows WHERE job_id IN (SELECT job_id FROM jobs WHERE results_expires_at IS NOT NULL AND results_expires_at < ?)',
} as const;

/** Result rows one INSERT carries (3 parameters each, far below both stores' limits). */
export const JOB_ROWS_PER_INSERT = 100;

const rowInserts = new Map<number, string>();

/** `INSERT INTO job_rows … VALUES (?, ?, ?), …` for `n` rows (one statement text per size, cached). */
export function insertJobRowsSql(n: number): string {
  let sql = rowInserts.get(n);
  if (sql === undefined) {
    sql = `INSERT INTO job_rows (job_id, row, line) VALUES ${Array.from({ length: n }, () => '(?, ?, ?)').join(', ')}`;
    rowInserts.set(n, sql);
  }
  return sql;
}

export const UPLOAD_SQL = {
  insert: `INSERT INTO entity_id_lists (list_id, account_id, entity_type, name, description, row_count, ids, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  get: 'SELECT * FROM entity_id_lists WHERE list_id = ? AND account_id = ?',
  /** Lists expired before `?` (the caller leaves a job's run time of slack; idempotent). */
  sweep: 'DELETE FROM entity_id_lists WHERE expires_at < ?',
} as const;
