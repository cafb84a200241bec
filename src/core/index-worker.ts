/**
 * An index worker: builds lanes of saved indexes (`index-lanes.ts`) on a read-only connection to a
 * loaded file and sends each index back as its container bytes, for the thread that owns the file to
 * save (`buildIndexesThreaded` in `warm.ts`). The worker never writes the file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildingIndexes, sendingIndexes } from '../indexes/persist.js';
import { createOwner, randomId, type Context } from '../runtime/context.js';
import { resolveSettings } from '../runtime/settings.js';
import { handOffProspectKeys, type HandedKeys } from '../store/load-keys.js';
import { closeDatabase, openDatabase } from '../store/open.js';
import { INDEX_STEPS, INDEX_WORKER_TAG } from './index-lanes.js';

/** What the writing thread asks: the lane's steps, and the prospect keys a load or delta handed off. */
export interface IndexJob {
  path: string;
  steps: readonly string[];
  keys?: { hash: string; keys: HandedKeys };
}

/** What a worker answers: each index as it is built, then `done` (or `failed`: the lane is rebuilt). */
export type IndexWorkerMessage =
  | { type: 'index'; name: string; stamp: string; bytes: Uint8Array }
  | { type: 'done' }
  | { type: 'failed'; message: string };

/** Builds `job`'s steps, handing every index's bytes to `send`. */
export function buildLane(job: IndexJob, send: (m: IndexWorkerMessage) => void): void {
  const db = openDatabase(job.path, { readonly: true });
  try {
    if (job.keys) handOffProspectKeys(db, job.keys.hash, job.keys.keys);
    // Only what an index build reads: the database, its path and the settings (never the state store).
    const ctx: Context = {
      db,
      path: job.path,
      state: undefined as never,
      instance: 'index-worker',
      settings: resolveSettings({}),
      now: Date.now,
      newId: randomId,
      indexes: createOwner(() => ctx),
      services: createOwner(() => ctx),
      invalidate: () => undefined,
      closed: false,
    };
    sendingIndexes(
      db,
      (name, stamp, bytes) => send({ type: 'index', name, stamp, bytes }),
      () =>
        buildingIndexes(ctx, () => {
          for (const step of job.steps) INDEX_STEPS[step]!(ctx);
        }),
    );
  } finally {
    closeDatabase(db);
  }
}

if (parentPort && (workerData as { tag?: string } | undefined)?.tag === INDEX_WORKER_TAG) {
  const port = parentPort;
  port.on('message', (job: IndexJob) => {
    try {
      buildLane(job, (m) =>
        port.postMessage(m, m.type === 'index' && whole(m.bytes) ? [m.bytes.buffer as ArrayBuffer] : []),
      );
      port.postMessage({ type: 'done' } satisfies IndexWorkerMessage);
    } catch (e) {
      port.postMessage({
        type: 'failed',
        message: String((e as Error).message),
      } satisfies IndexWorkerMessage);
    }
  });
}

/** Whether `bytes` is its whole buffer (then it is moved to the other thread, not copied). */
const whole = (bytes: Uint8Array) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
