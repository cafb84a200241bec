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

/** How long closing the store waits for the worker to close its connection (it takes milliseconds). */
const STOP_WAIT_MS = 5_000;

// Plain CommonJS run by the worker (`eval`): no loader or build step involved. `done[0]` becomes 1 once
// the worker holds no connection (closed, or never opened), and wakes a `stop()` waiting on it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const done = new Int32Array(workerData.done);
const finish = () => { Atomics.store(done, 0, 1); Atomics.notify(done, 0); };
let db;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.path, { fileMustExist: true });
} catch (e) {
  finish();
  throw e;
}
parentPort.on('message', (m) => {
  if (m === 'checkpoint') {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closed: the next request retries */ }
    return;
  }
  db.close();
  finish();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Counts one statement or commit of the store; every CHECKPOINT_EVERY asks for a checkpoint. */
  tick(): void;
  /**
   * Stops the worker (if one started) and returns once its connection is closed: the store's own
   * connection then closes last, so the file is left whole, with no WAL or shared-memory file beside
   * it, and a caller may move or remove it at once (a worker still opening or closing its connection
   * after `close()` recreated those files under a folder being removed).
   */
  stop(): void;
}

export function createCheckpointer(path: string): Checkpointer {
  let worker: Worker | null = null;
  let failed = false;
  let count = 0;
  let stopped = false;
  const done = new Int32Array(new SharedArrayBuffer(4));
  const start = (): Worker | null => {
    if (worker || failed) return worker;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path, done: done.buffer } });
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
      if (!worker) return;
      worker.postMessage('stop');
      worker = null;
      // Blocks the calling thread for as long as the worker takes to close (milliseconds); a worker
      // that died without closing is not waited for beyond the bound.
      Atomics.wait(done, 0, 0, STOP_WAIT_MS);
    },
  };
}
