/**
 * Async jobs: submit, read, list, cancel, claim, and the one write the worker makes per batch, all on
 * the state store. A worker holds a job by a lease (`claimJob`); a batch's result rows, its ledger
 * debit and the job's progress commit in one transaction that first renews that lease at the expected
 * cursor, so a cancel, a crash, or a worker of another process can never make a row count (or charge)
 * twice, and a job whose owner died is taken over once its lease ends.
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
import { insertJobRowsSql, JOB_ROWS_PER_INSERT, JOB_SQL } from '../store/sql/jobs.js';
import type { Param } from '../state/db.js';

/** Maximum run time of a job; past it the job is `expired`. */
export const JOB_RUN_LIMIT_MS = 24 * 3600_000;
/** How long results stay downloadable after a job ends. */
export const RESULTS_TTL_MS = 7 * 24 * 3600_000;
/** Jobs per `GET /v2/jobs` page (the reference gives no page size). */
export const JOBS_PAGE_SIZE = 100;
/** How long a worker holds a job without renewing it (`jobs.leaseMs`); each batch renews it. */
export const DEFAULT_LEASE_MS = 30_000;

export type { JobRow } from '../schemas/jobs.js';

export const TERMINAL: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'cancelled', 'expired']);

/**
 * Lease times are wall-clock milliseconds shared by every process, not the engine's clock (which a
 * test or a replay may hold still).
 */
export const leaseClock = (): number => Date.now();

/** A job by id (any account), or undefined. */
export const readJob = (engine: Context, jobId: string): Promise<JobRow | undefined> =>
  engine.state.get<JobRow>(JOB_SQL.get, [jobId]);

/**
 * Takes the next job for this engine (`engine.instance`) until `leaseMs` from now: the oldest running
 * job whose lease has ended (its owner died), else the oldest queued one. Undefined when none is free
 * or another worker took it first.
 */
export function claimJob(engine: Context, leaseMs: number): Promise<JobRow | undefined> {
  const now = leaseClock();
  return engine.state.get<JobRow>(JOB_SQL.claim, [engine.instance, now + leaseMs, engine.now(), now, now]);
}

/** Whether a job could be claimed now (after a lost race the worker tries again at once). */
export const claimableJob = async (engine: Context): Promise<boolean> =>
  (await engine.state.value(JOB_SQL.claimable, [leaseClock()])) !== undefined;

/** Renews this engine's lease on `job` at its cursor; undefined when the lease (or the job) moved on. */
export const holdJob = (engine: Context, job: JobRow, leaseMs: number): Promise<JobRow | undefined> =>
  engine.state.get<JobRow>(JOB_SQL.hold, [leaseClock() + leaseMs, job.job_id, engine.instance, job.cursor]);

/** Gives this engine's lease on a running job back (a worker that stops), so another resumes it at once. */
export async function releaseJob(engine: Context, jobId: string): Promise<void> {
  await engine.state.run(JOB_SQL.release, [jobId, engine.instance, 'running']);
}

/** Whether any job is left queued or running. */
export const hasPendingJobs = async (engine: Context): Promise<boolean> =>
  (await engine.state.value(JOB_SQL.pending)) !== undefined;

/** Finished jobs whose notice has not been handled yet. */
export const jobsToNotify = (engine: Context): Promise<JobRow[]> =>
  engine.state.all<JobRow>(JOB_SQL.toNotify);

/** Claims a job's notice (one process wins); false when it was already claimed. */
export const claimNotice = async (engine: Context, jobId: string): Promise<boolean> =>
  (await engine.state.run(JOB_SQL.markNotified, [jobId])) === 1;

/** Deletes result rows past their 7-day retention (idempotent: any worker of any process may run it). */
export async function sweepResults(engine: Context): Promise<void> {
  await engine.state.run(JOB_SQL.sweepRows, [engine.now()]);
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
export async function submitJob(engine: Context, account: Account, input: SubmitInput): Promise<JobRow> {
  const list = await getList(engine, account.account_id, input.list_id);
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
  const job = await engine.state.get<JobRow>(JOB_SQL.insert, [
    engine.newId('job', 12),
    account.account_id,
    input.entity_type,
    input.enrichment,
    input.endpoint,
    list.list_id,
    list.row_count,
    input.parameters == null ? null : JSON.stringify(input.parameters),
    input.notifications?.email?.enabled ? JSON.stringify(input.notifications) : null,
    engine.now(),
  ]);
  return job!;
}

/** One of an account's jobs, or 404. */
export async function getJob(engine: Context, accountId: string, jobId: string): Promise<JobRow> {
  const job = await engine.state.get<JobRow>(JOB_SQL.ofAccount, [jobId, accountId]);
  if (!job) throw new EngineError('NOT_FOUND', `Job '${jobId}' not found`);
  return job;
}

/** A page of an account's jobs, newest first. */
export async function listJobs(
  engine: Context,
  accountId: string,
  status: JobStatus | undefined,
  skip: number,
): Promise<{ jobs: JobRow[]; total: number }> {
  const filter: Param[] = status === undefined ? [accountId] : [accountId, status];
  const [jobs, total] = await Promise.all([
    engine.state.all<JobRow>(status === undefined ? JOB_SQL.list : JOB_SQL.listByStatus, [
      ...filter,
      JOBS_PAGE_SIZE,
      skip,
    ]),
    engine.state.value<number>(status === undefined ? JOB_SQL.count : JOB_SQL.countByStatus, filter),
  ]);
  return { jobs, total: Number(total ?? 0) };
}

/** Cancels a queued or running job (rows already committed stay, and stay charged); a finished job is returned as is. */
export function cancelJob(engine: Context, accountId: string, jobId: string): Promise<JobRow> {
  return engine.state.transaction(async () => {
    const job = await getJob(engine, accountId, jobId);
    if (TERMINAL.has(job.status)) return job;
    await finishJob(engine, job, 'cancelled', null);
    return (await readJob(engine, jobId))!;
  });
}

/** Ends a job; results (the rows committed so far) get a download token when there are any. */
export async function finishJob(
  engine: Context,
  job: JobRow,
  status: JobStatus,
  error: Record<string, unknown> | null,
): Promise<boolean> {
  const at = engine.now();
  const hasRows =
    job.cursor > 0 || Number((await engine.state.value(JOB_SQL.rowCount, [job.job_id])) ?? 0) > 0;
  const changed = await engine.state.run(JOB_SQL.finish, [
    status,
    at,
    error ? JSON.stringify(error) : null,
    hasRows ? randomBytes(16).toString('hex') : null,
    hasRows ? at + RESULTS_TTL_MS : null,
    job.job_id,
  ]);
  return changed === 1;
}

/**
 * Ends a job this engine holds (a failure the worker found: out of credits, list gone, run time over),
 * in one transaction that first checks the lease is still ours; false when it is not (nothing written).
 */
export function finishHeldJob(
  engine: Context,
  job: JobRow,
  leaseMs: number,
  status: JobStatus,
  error: Record<string, unknown>,
): Promise<boolean> {
  return engine.state.transaction(async () => {
    const held = await holdJob(engine, job, leaseMs);
    return held !== undefined && (await finishJob(engine, held, status, error));
  });
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
 * Commits one batch: rows + debit + progress in one transaction, which first renews this engine's
 * lease on the job at the batch's cursor (a cancelled job, one taken over by another worker after our
 * lease ended, or one already advanced commits nothing: `stale`). Completes the job when the last row
 * lands.
 */
export async function commitBatch(
  engine: Context,
  jobId: string,
  batch: BatchWrite,
  leaseMs: number,
): Promise<BatchOutcome> {
  try {
    return await engine.state.transaction(async (): Promise<BatchOutcome> => {
      const job = await engine.state.get<JobRow>(JOB_SQL.hold, [
        leaseClock() + leaseMs,
        jobId,
        engine.instance,
        batch.start,
      ]);
      if (!job) return { ok: false, reason: 'stale' };
      const account = await getAccount(engine, job.account_id);
      if (!account) throw new EngineError('NOT_FOUND', `account '${job.account_id}' not found`);
      for (let at = 0; at < batch.lines.length; at += JOB_ROWS_PER_INSERT) {
        const chunk = batch.lines.slice(at, at + JOB_ROWS_PER_INSERT);
        const params: Param[] = [];
        chunk.forEach((line, i) => params.push(jobId, batch.start + at + i, JSON.stringify(line)));
        await engine.state.run(insertJobRowsSql(chunk.length), params);
      }
      const billed = await applyCharges(
        engine,
        { account, keyId: null, endpoint: job.endpoint, correlationId: jobId },
        batch.charges,
      );
      const cursor = batch.start + batch.lines.length;
      await engine.state.run(JOB_SQL.progress, [cursor, billed.total_credits, batch.results, jobId]);
      if (cursor >= job.row_count) await finishJob(engine, { ...job, cursor }, 'succeeded', null);
      return { ok: true, job: (await readJob(engine, jobId))! };
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
export async function jobResultLines(
  engine: Context,
  jobId: string,
  token: string | undefined,
): Promise<string[]> {
  const job = await readJob(engine, jobId);
  if (!job || !job.results_token || token === undefined || !sameSecret(token, job.results_token))
    throw new EngineError('NOT_FOUND', 'Results not found');
  if (job.results_expires_at === null || job.results_expires_at <= engine.now()) {
    throw new EngineError('NOT_FOUND', 'Results have expired');
  }
  return (await engine.state.all<{ line: string }>(JOB_SQL.rows, [jobId])).map((r) => r.line);
}
