/**
 * DDL of uploaded entity-id lists and async jobs. A job row holds its progress (`cursor` = input rows
 * done) and totals; `job_rows` holds one result line per input row, keyed (job, row), so a resumed job can
 * never write a row twice. Batch rows, the cursor and the ledger debit commit in one transaction.
 */
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
