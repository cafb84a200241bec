/**
 * WAL checkpoints of the SQLite state file, off the request path. Left to itself, SQLite checkpoints
 * inside the commit that takes the WAL past 1000 pages: that one request copies ~4 MB back into the
 * database file and syncs it, ~8 ms on the 2-core bench box, and with a key lookup's rate-limit upsert
 * and a charge's debit and ledger row per request it lands on about one charged fetch in a hundred
 * (it was the facade's fetch p99). Here a worker thread with a connection of its own runs passive
 * checkpoints (they wait for no reader or writer, and writers go on appending meanwhile) whenever the
 * store has seen another batch of statements; the store's own connection keeps a higher
 * auto-checkpoint as a backstop in case the worker falls behind. The worker starts on the first batch
 * (a store that serves a handful of statements never starts one) and is unref'd: it never holds the
 * process open.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * `PROSPECTDB_STATE_CHECKPOINT=commit` keeps SQLite's own checkpoint in the commit (no worker thread),
 * read when a store opens.
 */
export const CHECKPOINT_ENV = 'PROSPECTDB_STATE_CHECKPOINT';

/** Statements between two checkpoint requests (a charged fetch issues about four). */
export const CHECKPOINT_EVERY = 64;
/** The store connection's own auto-checkpoint, pages: only reached if the worker falls behind. */
export const BACKSTOP_PAGES = 4000;

// Plain CommonJS run by the worker (`eval`): no loader or build step involved.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
parentPort.on('message', (m) => {
  if (m === 'checkpoint') {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closed: the next request retries */ }
    return;
  }
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Counts one statement or commit of the store; every CHECKPOINT_EVERY asks for a checkpoint. */
  tick(): void;
  /** Stops the worker (if one started) and closes its connection. */
  stop(): void;
}

export function createCheckpointer(path: string): Checkpointer {
  let worker: Worker | null = null;
  let failed = false;
  let count = 0;
  let stopped = false;
  const start = (): Worker | null => {
    if (worker || failed) return worker;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path } });
      worker.unref();
      // A worker that cannot open the file leaves checkpoints to SQLite's own, as before.
      worker.on('error', () => {
        failed = true;
        worker = null;
      });
    } catch {
      failed = true;
    }
    return worker;
  };
  return {
    tick() {
      if (stopped || ++count % CHECKPOINT_EVERY !== 0) return;
      start()?.postMessage('checkpoint');
    },
    stop() {
      stopped = true;
      worker?.postMessage('stop');
      worker = null;
    },
  };
}
