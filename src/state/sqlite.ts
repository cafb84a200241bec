/**
 * The embedded state store: a SQLite file of its own (or `:memory:`), the default. Statements run
 * synchronously on one better-sqlite3 connection; a transaction is `BEGIN IMMEDIATE … COMMIT` around
 * an async function, so while one is open the process's other statements wait for it (they would
 * otherwise join it on the shared connection). Several processes share the file through WAL and a
 * busy timeout: `BEGIN IMMEDIATE` takes the write lock first, so two writers queue instead of
 * deadlocking. WAL checkpoints of a file run on a worker thread of their own (`checkpointer.ts`), not
 * inside whichever request's commit fills the WAL.
 */
import { resolve } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import type { Db } from '../store/db.js';
import { BACKSTOP_PAGES, CHECKPOINT_ENV, createCheckpointer, type Checkpointer } from './checkpointer.js';
import type { Param, StateDb } from './db.js';
import { createLock, currentFrame, runInFrame, type TxFrame } from './transactions.js';

type Lock = ReturnType<typeof createLock>;
const fileLocks = new Map<string, Lock>();

/**
 * One lock per file for the whole process: two stores on one file in one process (two engines) must
 * queue for each other's transactions here. Left to SQLite, the second one's statement would wait for
 * the file lock synchronously (the busy timeout), blocking the very event loop the first one needs to
 * finish its transaction.
 */
function lockOf(location: string): Lock {
  if (location === ':memory:' || location === '') return createLock();
  const key = resolve(location);
  let lock = fileLocks.get(key);
  if (!lock) fileLocks.set(key, (lock = createLock()));
  return lock;
}

/** How long a writer waits for another process's transaction before giving up, ms. */
const BUSY_TIMEOUT_MS = 10_000;

export function openSqliteState(path: string, migrate: (db: Db) => void): StateDb {
  const db = new Database(path);
  const file = path !== ':memory:' && path !== '';
  if (file) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  migrate(db);
  let checkpointer: Checkpointer | undefined;
  const wal = file && String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
  if (wal && process.env[CHECKPOINT_ENV] !== 'commit') {
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    checkpointer = createCheckpointer(path);
  }
  return sqliteState(
    db,
    path,
    () => {
      checkpointer?.stop();
      db.close();
    },
    checkpointer,
  );
}

/**
 * The state store over an open connection: a file of its own, or a single-file database made before
 * the split (the snapshot's file opened a second time, as both stores).
 */
export function sqliteState(
  db: Db,
  location: string,
  closeDb: () => void,
  checkpointer?: Checkpointer,
): StateDb {
  const statements = new Map<string, Statement>();
  const rawStatements = new Map<string, Statement>();
  const lock = lockOf(location);
  const owner = {};
  let closed = false;

  const prepare = (sql: string): Statement => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  /** Runs `op` now when no other transaction holds the connection, else once it is free. */
  const exec = async <T>(op: () => T): Promise<T> => {
    if (closed) throw new Error('state store closed');
    if (currentFrame(owner)) return op();
    checkpointer?.tick();
    if (!lock.held) return op();
    const release = await lock.acquire();
    try {
      return op();
    } finally {
      release();
    }
  };

  const store: StateDb = {
    dialect: 'sqlite',
    location,
    all: <T>(sql: string, params: readonly Param[] = []) =>
      exec(() => {
        const s = prepare(sql);
        return (s.reader ? s.all(...params) : (s.run(...params), [])) as T[];
      }),
    get: <T>(sql: string, params: readonly Param[] = []) =>
      exec(() => prepare(sql).get(...params) as T | undefined),
    value: <T>(sql: string, params: readonly Param[] = []) =>
      exec(() => {
        let s = rawStatements.get(sql);
        if (!s) rawStatements.set(sql, (s = db.prepare(sql).raw(true)));
        return (s.get(...params) as unknown[] | undefined)?.[0] as T | undefined;
      }),
    run: (sql: string, params: readonly Param[] = []) =>
      exec(() => {
        const s = prepare(sql);
        if (s.reader) return s.all(...params).length;
        return s.run(...params).changes;
      }),
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      if (currentFrame(owner)) return fn();
      if (closed) throw new Error('state store closed');
      const release = await lock.acquire();
      const frame: TxFrame<Db> = { owner, conn: db, open: true };
      try {
        db.exec('BEGIN IMMEDIATE');
        try {
          const out = await runInFrame(frame, fn);
          frame.open = false;
          db.exec('COMMIT');
          checkpointer?.tick();
          return out;
        } catch (e) {
          frame.open = false;
          if (db.inTransaction) db.exec('ROLLBACK');
          throw e;
        }
      } finally {
        release();
      }
    },
    ready: () => Promise.resolve(),
    get inTransaction() {
      return currentFrame(owner) !== undefined;
    },
    async close() {
      if (closed) return;
      // A transaction in flight finishes first.
      const release = await lock.acquire();
      closed = true;
      release();
      closeDb();
    },
  };
  return store;
}
