/**
 * The in-process job worker. Any number of them, in any number of processes sharing the state store,
 * run the jobs between them: a worker claims a job with a lease (`claimJob`: the oldest running job
 * whose owner's lease ended, i.e. a process that died, else the oldest queued one) and runs it batch
 * by batch: renew the lease, compute the batch (reads the snapshot), then commit rows + debit +
 * progress in one transaction that holds only while the lease is still this engine's
 * (`commitBatch`). So each batch is applied exactly once, and a job whose process died resumes in
 * another at its committed cursor once the lease (`jobs.leaseMs`) runs out. Between batches it yields
 * to the event loop, so cancels and requests interleave. `stop()` ends it cleanly (the lease is given
 * back, no timer outlives it).
 */
import {
  claimableJob,
  claimJob,
  claimNotice,
  commitBatch,
  DEFAULT_LEASE_MS,
  finishHeldJob,
  holdJob,
  JOB_RUN_LIMIT_MS,
  jobsToNotify,
  releaseJob,
  sweepResults,
  type JobRow,
} from './state.js';
import { getList, sweepLists } from './uploads.js';
import type { Context } from '../runtime/context.js';
import type { JobWorkerOptions } from '../runtime/settings.js';
import { computeBatch } from './batch.js';
import { sendJobNotice, wantsNotice } from './notify.js';
import { WORKER, type JobWorker } from './slot.js';

export type { JobWorkerOptions } from '../runtime/settings.js';
export { jobWorkerOf, type JobWorker } from './slot.js';

/**
 * The engine's worker, started on first need (a job submitted, jobs left by a crashed process, or a
 * shared state store where another process may die holding a job), unless the engine was opened with
 * `jobs: { worker: false }` or read-only.
 */
export function ensureJobWorker(engine: Context): JobWorker | undefined {
  if (engine.settings.readonly || !engine.settings.jobs.worker || engine.closed) return undefined;
  return startJobWorker(engine);
}

/**
 * Starts the worker of an engine (one per engine; a second call returns the running one).
 * @example const worker = startJobWorker(engine, { batchSize: 500 }); …; await worker.stop();
 */
export function startJobWorker(engine: Context, options: JobWorkerOptions = {}): JobWorker {
  const slot = engine.services.get(WORKER);
  const existing = slot.current;
  if (existing && !existing.stopped) return existing;
  const engineJobs = engine.settings.jobs;
  const opts: JobWorkerOptions = { ...engineJobs, ...options };
  const batchSize = Math.max(1, opts.batchSize ?? 500);
  const pollMs = opts.pollMs ?? 1000;
  const leaseMs = Math.max(1, opts.leaseMs ?? DEFAULT_LEASE_MS);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];
  const lists = new Map<string, string[]>();

  const alive = () => !stopped && !engine.closed;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = () => {
        if (timer) clearTimeout(timer);
        timer = undefined;
        wake = undefined;
        resolve();
      };
      // An idle poll must not keep a script alive; a running job resumes on the next open anyway.
      timer = setTimeout(() => wake?.(), ms).unref();
    });
  const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

  const idsOf = async (job: JobRow): Promise<string[] | null> => {
    let ids = lists.get(job.list_id);
    if (!ids) {
      const list = await getList(engine, job.account_id, job.list_id);
      if (!list) return null;
      ids = list.ids;
      lists.set(job.list_id, ids);
    }
    return ids;
  };

  async function notify(): Promise<void> {
    if (!opts.smtp) return;
    for (const job of await jobsToNotify(engine)) {
      if (!alive()) return;
      // Marked before sending: a crash may lose a notice but never sends one twice.
      if (!(await claimNotice(engine, job.job_id)) || !wantsNotice(job)) continue;
      try {
        await sendJobNotice(engine, opts.smtp, job);
      } catch (e) {
        opts.onError?.(e, job);
      }
    }
  }

  /** Runs one batch of a job this worker holds; resolves to the job to go on with, or null when it is done (or no longer ours). */
  async function step(claimed: JobRow): Promise<JobRow | null> {
    // Renewed before the batch is computed, so a long batch does not outlive the lease unnoticed.
    const job = await holdJob(engine, claimed, leaseMs);
    if (!job) return null;
    if (job.started_at !== null && engine.now() - job.started_at > JOB_RUN_LIMIT_MS) {
      await finishHeldJob(engine, job, leaseMs, 'expired', {
        code: 'run_time_limit',
        message: 'The job ran longer than 24 hours',
      });
      return null;
    }
    const ids = await idsOf(job);
    if (!ids) {
      await finishHeldJob(engine, job, leaseMs, 'failed', {
        code: 'list_not_found',
        message: `list '${job.list_id}' not found`,
      });
      return null;
    }
    const start = job.cursor;
    const batch = await computeBatch(engine, job, start, ids.slice(start, start + batchSize), opts.research);
    if (!alive()) return null;
    const outcome = await commitBatch(engine, job.job_id, batch, leaseMs);
    if (outcome.ok) {
      await opts.onBatch?.(outcome.job);
      return outcome.job.status === 'running' ? outcome.job : null;
    }
    if (outcome.reason === 'insufficient_credits') {
      await finishHeldJob(engine, job, leaseMs, 'failed', {
        code: 'insufficient_credits',
        message:
          'You have insufficient credits to perform this operation. Please purchase additional credits.',
      });
    }
    return null;
  }

  /** Runs a claimed job until it ends, its lease is lost, or the worker stops. */
  async function run(claimed: JobRow): Promise<void> {
    let job: JobRow | null = claimed;
    try {
      while (job && alive()) {
        job = await step(job);
        await yieldLoop();
      }
      // Stopped mid-job: give the lease back so another worker need not wait for it to run out.
      if (job && !engine.closed) await releaseJob(engine, job.job_id);
    } catch (e) {
      if (!alive()) return;
      opts.onError?.(e, job ?? claimed);
      await finishHeldJob(engine, job ?? claimed, leaseMs, 'failed', {
        code: 'internal_error',
        message: (e as Error).message ?? String(e),
      }).catch(() => {});
    }
  }

  async function loop(): Promise<void> {
    while (alive()) {
      try {
        const job = await claimJob(engine, leaseMs);
        if (job) {
          await run(job);
          continue;
        }
        // Another worker won the race for the last free job: look again at once.
        if (await claimableJob(engine)) {
          await yieldLoop();
          continue;
        }
        await notify();
        await sweepResults(engine);
        await sweepLists(engine, JOB_RUN_LIMIT_MS);
      } catch (e) {
        // The store went away (closing) or failed for a moment: the next poll tries again.
        if (!alive()) break;
        opts.onError?.(e);
      }
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
      if (!alive()) break;
      await sleep(pollMs);
    }
    for (const w of idleWaiters.splice(0)) w();
  }

  const done = loop();
  const worker: JobWorker = {
    kick: () => wake?.(),
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        wake?.();
      }),
    async stop() {
      stopped = true;
      wake?.();
      await done;
      if (slot.current === worker) slot.current = undefined;
    },
    get stopped() {
      return stopped;
    },
  };
  slot.current = worker;
  return worker;
}
