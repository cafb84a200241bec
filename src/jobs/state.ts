/**
 * Async jobs: submit, read, list, cancel, and the one write the worker makes per batch. A batch's result
 * rows, its ledger debit and the job's progress commit in one IMMEDIATE transaction that first re-reads
 * the job, so a cancel, a crash or a second worker can never make a row count (or charge) twice.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import type { Account } from '../account/types.js';
import type { JobNotifications, JobRow, JobStatus } from '../schemas/jobs.js';
import { getAccount } from '../account/accounts.js';
import { applyCharges, type PendingCharge } from '../account/credits.js';
import { sameSecret } from '../account/keys.js';
import { getList, type EntityType } from './uploads.js';
import { jobStatements } from '../store/sql/jobs.js';

/** Maximum run time of a job; past it the job is `expired`. */
export const JOB_RUN_LIMIT_MS = 24 * 3600_000;
/** How long results stay downloadable after a job ends. */
export const RESULTS_TTL_MS = 7 * 24 * 3600_000;
/** Jobs per `GET /v2/jobs` page (the reference gives no page size). */
export const JOBS_PAGE_SIZE = 100;

export type { JobRow } from '../schemas/jobs.js';

export const TERMINAL: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'cancelled', 'expired']);

/** A job by id (any account), or undefined. */
export const readJob = (engine: Context, jobId: string): JobRow | undefined =>
  jobStatements(engine.db).get.get(jobId) as JobRow | undefined;

/** The job the worker should run next: the oldest running one (resumed after a crash), else the oldest queued. */
export const nextJob = (engine: Context): JobRow | undefined =>
  jobStatements(engine.db).next.get() as JobRow | undefined;

/** Moves a queued job to running. */
export function startJob(engine: Context, jobId: string): JobRow {
  jobStatements(engine.db).start.run(engine.now(), jobId);
  return readJob(engine, jobId)!;
}

/** Finished jobs whose notice has not been handled yet. */
export const jobsToNotify = (engine: Context): JobRow[] =>
  jobStatements(engine.db).toNotify.all() as JobRow[];

/** Claims a job's notice; false when it was already claimed. */
export const claimNotice = (engine: Context, jobId: string): boolean =>
  jobStatements(engine.db).markNotified.run(jobId).changes === 1;

/** Deletes result rows past their 7-day retention. */
export function sweepResults(engine: Context): void {
  jobStatements(engine.db).sweep.run(engine.now());
}

export interface SubmitInput {
  entity_type: EntityType;
  enrichment: string;
  endpoint: string;
  list_id: string;
  parameters: unknown;
  notifications: JobNotifications;
  /** Runs after the list checks and before the job is stored; throws to refuse the parameters. */
  checkParameters?: () => void;
}

/** Queues a job over an uploaded list; 422 when the list is unknown, expired or of another entity type. */
export function submitJob(engine: Context, account: Account, input: SubmitInput): JobRow {
  const list = getList(engine, account.account_id, input.list_id);
  const loc = ['body', 'list_id'];
  if (!list)
    throw EngineError.validation([
      { loc, msg: `unknown list_id '${input.list_id}'`, type: 'value_error.list_id' },
    ]);
  if (list.expires_at <= engine.now()) {
    throw EngineError.validation([
      { loc, msg: `list '${input.list_id}' has expired; upload it again`, type: 'value_error.list_id' },
    ]);
  }
  if (list.entity_type !== input.entity_type) {
    throw EngineError.validation([
      {
        loc,
        msg: `list '${input.list_id}' holds ${list.entity_type} ids, not ${input.entity_type} ids`,
        type: 'value_error.list_id',
      },
    ]);
  }
  // After the list checks, before anything is written: a caller's check that may be costlier (research
  // compiles its output schema here, never for an unknown list).
  input.checkParameters?.();
  const job_id = engine.newId('job', 12);
  const s = jobStatements(engine.db);
  s.insert.run({
    job_id,
    account_id: account.account_id,
    entity_type: input.entity_type,
    enrichment: input.enrichment,
    endpoint: input.endpoint,
    list_id: list.list_id,
    row_count: list.row_count,
    parameters: input.parameters == null ? null : JSON.stringify(input.parameters),
    notifications: input.notifications?.email?.enabled ? JSON.stringify(input.notifications) : null,
    created_at: engine.now(),
  });
  return s.get.get(job_id) as JobRow;
}

/** One of an account's jobs, or 404. */
export function getJob(engine: Context, accountId: string, jobId: string): JobRow {
  const job = jobStatements(engine.db).ofAccount.get(jobId, accountId) as JobRow | undefined;
  if (!job) throw new EngineError('NOT_FOUND', `Job '${jobId}' not found`);
  return job;
}

/** A page of an account's jobs, newest first. */
export function listJobs(engine: Context, accountId: string, status: JobStatus | undefined, skip: number) {
  const s = jobStatements(engine.db);
  const args = { account_id: accountId, status: status ?? null };
  return {
    jobs: s.list.all({ ...args, skip, limit: JOBS_PAGE_SIZE }) as JobRow[],
    total: s.count.get(args) as number,
  };
}

/** Cancels a queued or running job (rows already committed stay, and stay charged); a finished job is returned as is. */
export function cancelJob(engine: Context, accountId: string, jobId: string): JobRow {
  return engine.db
    .transaction(() => {
      const job = getJob(engine, accountId, jobId);
      if (TERMINAL.has(job.status)) return job;
      finishJob(engine, job, 'cancelled', null);
      return jobStatements(engine.db).get.get(jobId) as JobRow;
    })
    .immediate();
}

/** Ends a job; results (the rows committed so far) get a download token when there are any. */
export function finishJob(
  engine: Context,
  job: JobRow,
  status: JobStatus,
  error: Record<string, unknown> | null,
): boolean {
  const at = engine.now();
  const hasRows = job.cursor > 0 || (jobStatements(engine.db).rowCount.get(job.job_id) as number) > 0;
  return (
    jobStatements(engine.db).finish.run({
      job_id: job.job_id,
      status,
      at,
      error: error ? JSON.stringify(error) : null,
      token: hasRows ? randomBytes(16).toString('hex') : null,
      expires: hasRows ? at + RESULTS_TTL_MS : null,
    }).changes === 1
  );
}

export interface BatchWrite {
  /** Input index of the first line (the job's cursor when the batch was read). */
  start: number;
  /** One result object per input row, in order. */
  lines: Record<string, unknown>[];
  charges: PendingCharge[];
  /** Rows that returned data (`credit_usage.total_results`). */
  results: number;
}

export type BatchOutcome =
  { ok: true; job: JobRow } | { ok: false; reason: 'stale' | 'insufficient_credits' };

/**
 * Commits one batch: rows + debit + progress in one IMMEDIATE transaction, after checking the job is still
 * running at the expected cursor (a cancelled or already-advanced job commits nothing). Completes the
 * job when the last row lands.
 */
export async function commitBatch(engine: Context, jobId: string, batch: BatchWrite): Promise<BatchOutcome> {
  const s = jobStatements(engine.db);
  try {
    // The debit runs in the state store; its transaction holds the job's writes too (one connection
    // until the jobs move to the state store).
    return await engine.state.transaction(async (): Promise<BatchOutcome> => {
      const job = s.get.get(jobId) as JobRow | undefined;
      if (!job || job.status !== 'running' || job.cursor !== batch.start)
        return { ok: false, reason: 'stale' };
      const account = await getAccount(engine, job.account_id);
      if (!account) throw new EngineError('NOT_FOUND', `account '${job.account_id}' not found`);
      batch.lines.forEach((line, i) => s.insertRow.run(jobId, batch.start + i, JSON.stringify(line)));
      const billed = await applyCharges(
        engine,
        { account, keyId: null, endpoint: job.endpoint, correlationId: jobId },
        batch.charges,
      );
      const cursor = batch.start + batch.lines.length;
      s.progress.run(cursor, billed.total_credits, batch.results, jobId);
      const updated = { ...job, cursor };
      if (cursor >= job.row_count) finishJob(engine, updated, 'succeeded', null);
      return { ok: true, job: s.get.get(jobId) as JobRow };
    });
  } catch (e) {
    if (e instanceof EngineError && e.code === 'INSUFFICIENT_CREDITS')
      return { ok: false, reason: 'insufficient_credits' };
    throw e;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Where a job's results are served (engine option `jobs.baseUrl` makes it absolute). */
export function resultsUrl(engine: Context, job: JobRow): string {
  const base = engine.settings.jobs.baseUrl;
  return `${base.replace(/\/+$/, '')}/v2/jobs/results/${job.job_id}?token=${job.results_token}`;
}

/** `V2JobStatusResponse`. */
export function jobStatusBody(engine: Context, job: JobRow): Record<string, unknown> {
  const body: Record<string, unknown> = {
    job_id: job.job_id,
    status: job.status,
    input: { list_id: job.list_id, row_count: job.row_count, entity_type: job.entity_type },
    timing: {
      created_at: iso(job.created_at),
      started_at: iso(job.started_at),
      finished_at: iso(job.finished_at),
    },
    additional_data: { enrichment: job.enrichment, endpoint: job.endpoint, processed_rows: job.cursor },
    credit_usage: { total_credits: job.total_credits, total_results: job.total_results },
  };
  if (job.results_token && job.results_expires_at !== null) {
    body.results = {
      format: 'csv',
      download_url: resultsUrl(engine, job),
      expires_at: iso(job.results_expires_at),
      file_expires_at: iso(job.results_expires_at),
    };
  }
  if (job.error) body.error = JSON.parse(job.error) as unknown;
  return body;
}

/** `V2JobListItem`. */
export function jobListItem(job: JobRow): Record<string, unknown> {
  return {
    job_id: job.job_id,
    job_type: job.enrichment,
    status: job.status,
    endpoint: job.endpoint,
    created_at: iso(job.created_at),
    finished_at: iso(job.finished_at),
  };
}

/** The result lines of a job when `token` is its download token and the results have not expired. */
export function jobResultLines(engine: Context, jobId: string, token: string | undefined): string[] {
  const job = jobStatements(engine.db).get.get(jobId) as JobRow | undefined;
  if (!job || !job.results_token || token === undefined || !sameSecret(token, job.results_token))
    throw new EngineError('NOT_FOUND', 'Results not found');
  if (job.results_expires_at === null || job.results_expires_at <= engine.now()) {
    throw new EngineError('NOT_FOUND', 'Results have expired');
  }
  return jobStatements(engine.db).rows.all(jobId) as string[];
}
