/**
 * The jobs slice, the one surface the facade and the engine call: entity-id lists (`uploads.ts`), job
 * state and its atomic per-batch commit (`state.ts`), the in-process worker (`worker.ts`) that computes
 * batches (`batch.ts`) and sends notices (`notify.ts`), and the results CSV (`csv.ts`). Its modules
 * import each other directly; everything outside imports this file.
 *
 * @example
 * const job = enqueueJob(engine, account, { entity_type: 'business', enrichment: 'firmographics', … });
 */
import type { Context } from '../runtime/context.js';
import type { Account } from '../account/types.js';
import { toCsv } from './csv.js';
import { jobResultLines, submitJob, type JobRow, type SubmitInput } from './state.js';
import { ensureJobWorker } from './worker.js';

export {
  cancelJob,
  getJob,
  hasPendingJobs,
  jobListItem,
  jobStatusBody,
  listJobs,
  readJob,
  type JobRow,
  type SubmitInput,
} from './state.js';
export {
  createList,
  getList,
  parseIdCsv,
  MAX_CSV_BYTES,
  MAX_LIST_DESCRIPTION,
  MAX_LIST_ROWS,
  type EntityList,
} from './uploads.js';
export {
  ensureJobWorker,
  jobWorkerOf,
  startJobWorker,
  type JobWorker,
  type JobWorkerOptions,
} from './worker.js';
export { parseCsv, toCsv } from './csv.js';

/** Stores a queued job (charges nothing yet) and wakes the engine's worker to run it. */
export async function enqueueJob(engine: Context, account: Account, input: SubmitInput): Promise<JobRow> {
  const job = await submitJob(engine, account, input);
  ensureJobWorker(engine)?.kick();
  return job;
}

/** The results CSV of a finished job; the download token is the credential (404 when it is wrong). */
export async function jobResultsCsv(
  engine: Context,
  jobId: string,
  token: string | undefined,
): Promise<string> {
  return toCsv(await jobResultLines(engine, jobId, token));
}
