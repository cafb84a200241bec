/**
 * The in-process job worker. It takes the oldest running job (a job left running by a crashed process
 * resumes at its committed cursor), else the oldest queued one, and runs it batch by batch: compute the
 * batch, then commit rows + debit + progress in one transaction (`commitBatch`). Between batches it yields
 * to the event loop, so cancels and requests interleave. `stop()` ends it cleanly: no timer outlives it.
 */
import {
  claimNotice,
  commitBatch,
  finishJob,
  JOB_RUN_LIMIT_MS,
  jobsToNotify,
  nextJob,
  readJob,
  startJob,
  sweepResults,
  type JobRow,
} from './state.js';
import { getList } from './uploads.js';
import { kind, type Context } from '../runtime/context.js';
import type { JobWorkerOptions } from '../runtime/settings.js';
import { computeBatch } from './batch.js';
import { sendJobNotice, wantsNotice } from './notify.js';

export type { JobWorkerOptions } from '../runtime/settings.js';

export interface JobWorker {
  /** Wakes the worker (a job was submitted). */
  kick(): void;
  /** Resolves when no job is queued or running. */
  idle(): Promise<void>;
  /** Stops after the current batch; resolves when the loop has ended. */
  stop(): Promise<void>;
  readonly stopped: boolean;
}

/** The engine's worker, held by the context (one per engine). */
const WORKER = kind('jobs.worker', (): { current?: JobWorker } => ({}));

/** The worker running for an engine, if any. */
export const jobWorkerOf = (engine: Context): JobWorker | undefined => engine.services.get(WORKER).current;

/**
 * The engine's worker, started on first need (a job submitted, or jobs left by a crashed process at
 * open), unless the engine was opened with `jobs: { worker: false }` or read-only.
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

  const idsOf = (job: JobRow): string[] | null => {
    let ids = lists.get(job.list_id);
    if (!ids) {
      const list = getList(engine, job.account_id, job.list_id);
      if (!list) return null;
      ids = list.ids;
      lists.set(job.list_id, ids);
    }
    return ids;
  };

  async function notify(): Promise<void> {
    if (!opts.smtp) return;
    for (const job of jobsToNotify(engine)) {
      if (!alive()) return;
      // Marked before sending: a crash may lose a notice but never sends one twice.
      if (!claimNotice(engine, job.job_id) || !wantsNotice(job)) continue;
      try {
        await sendJobNotice(engine, opts.smtp, job);
      } catch (e) {
        opts.onError?.(e, job);
      }
    }
  }

  /** Runs one batch of `job`; returns false when the job ended. */
  async function step(job: JobRow): Promise<void> {
    const now = engine.now();
    if (job.status === 'queued') job = startJob(engine, job.job_id);
    if (job.started_at !== null && now - job.started_at > JOB_RUN_LIMIT_MS) {
      finishJob(engine, job, 'expired', {
        code: 'run_time_limit',
        message: 'The job ran longer than 24 hours',
      });
      return;
    }
    const ids = idsOf(job);
    if (!ids) {
      finishJob(engine, job, 'failed', {
        code: 'list_not_found',
        message: `list '${job.list_id}' not found`,
      });
      return;
    }
    const start = job.cursor;
    const batch = await computeBatch(engine, job, start, ids.slice(start, start + batchSize), opts.research);
    if (!alive()) return;
    const outcome = await commitBatch(engine, job.job_id, batch);
    if (outcome.ok) opts.onBatch?.(outcome.job);
    else if (outcome.reason === 'insufficient_credits') {
      const current = readJob(engine, job.job_id)!;
      finishJob(engine, current, 'failed', {
        code: 'insufficient_credits',
        message:
          'You have insufficient credits to perform this operation. Please purchase additional credits.',
      });
    }
  }

  async function loop(): Promise<void> {
    while (alive()) {
      const job = nextJob(engine);
      if (!job) {
        await notify();
        sweepResults(engine);
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
        if (!alive()) break;
        await sleep(pollMs);
        continue;
      }
      try {
        await step(job);
      } catch (e) {
        if (!alive()) break;
        opts.onError?.(e, job);
        finishJob(engine, readJob(engine, job.job_id) ?? job, 'failed', {
          code: 'internal_error',
          message: (e as Error).message ?? String(e),
        });
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
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
