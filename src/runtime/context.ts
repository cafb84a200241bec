/**
 * The narrow context every operation takes first: the database, the clock, the typed settings, and the
 * two owners of per-engine state (the in-memory indexes of the current data, and the long-lived
 * services such as limiters and workers). It is the bottom of the engine: core, indexes, account, jobs
 * and the facade take a `Context`; only the composition root (`src/engine.ts`) builds one, and an
 * `Engine` is a `Context` with the lifecycle and the shortcuts on top.
 */
import { randomBytes } from 'node:crypto';
import type { StateDb } from '../state/db.js';
import type { Db } from '../store/open.js';
import type { Settings } from './settings.js';

export interface Context {
  /** The snapshot: the entities, events and saved indexes (read-only between loads). */
  readonly db: Db;
  /** The snapshot's SQLite file (`:memory:` for an in-memory database). */
  readonly path: string;
  /**
   * Everything requests change: accounts, keys, ledger, rate-limit windows, webhooks, enrollments,
   * outbox, uploads, jobs, OAuth (`src/state/`: SQLite by default, PostgreSQL to share it).
   */
  readonly state: StateDb;
  /**
   * This engine's id among every process sharing the state (random per open): the owner written on a
   * leased job or delivery, so another process can tell a live owner's lease from a dead one's.
   */
  readonly instance: string;
  readonly settings: Settings;
  /** The engine's clock, in milliseconds since the epoch (injected so tests and replays are exact). */
  now(): number;
  /**
   * The id of a new row: `prefix_` and `bytes` random bytes in hex by default (`acc_…`, `job_…`,
   * `msg_…`); the engine option `newId` replaces the source (tests, replays). Never used for secrets.
   */
  newId(prefix: string, bytes: number): string;
  /**
   * The in-memory indexes of the current data version, built on first use; a load or an ingest (a new
   * data version) drops them all together.
   */
  readonly indexes: Owner;
  /** Per-engine state that outlives data changes: rate limiters, workers, wake-ups, scratch buffers. */
  readonly services: Owner;
  /** Call after writing entity data outside `load` so the indexes are rebuilt. */
  invalidate(): void;
  readonly closed: boolean;
  /**
   * Pins the snapshot current now for the length of one request (`facade/handle.ts` calls it): `ctx`
   * has that snapshot's `db`, `path` and `indexes` and the engine's everything else; the snapshot stays
   * open until `release()`, even when the engine swaps to another one meanwhile. Absent on a context
   * without swappable snapshots (the request then runs on `ctx` itself).
   */
  pin?(): SnapshotPin;
}

/** A snapshot held open for one request (see `Context.pin`). */
export interface SnapshotPin {
  readonly ctx: Context;
  /** Ends the hold; the snapshot closes here when it was swapped out and this was its last holder. */
  release(): void;
}

/**
 * A kind of per-engine value, declared once (at module level, immutable) by the module that builds it:
 * `const BUSINESS_INDEX = kind('search.businessIndex', build)`. The value itself lives in the context's
 * owner, never in the module; the name is for timings and for the saved form.
 */
export interface Kind<T> {
  readonly name: string;
  build(ctx: Context): T;
}

/** Declares a kind of per-engine value. */
export function kind<T>(name: string, build: (ctx: Context) => T): Kind<T> {
  return { name, build };
}

/** Holds one value per kind, built on first `get`. */
export interface Owner {
  get<T>(kind: Kind<T>): T;
  /** Drops every value (the next `get` builds again). */
  clear(): void;
}

/**
 * An owner of values built from `ctx`. `version` (optional) is read on every `get`: when it changes,
 * every value is dropped together (the index owner passes the data version).
 */
export function createOwner(ctx: () => Context, version?: () => number): Owner {
  const values = new Map<Kind<unknown>, unknown>();
  let seen = -1;
  return {
    get<T>(k: Kind<T>): T {
      if (version) {
        const v = version();
        if (v !== seen) {
          values.clear();
          seen = v;
        }
      }
      if (!values.has(k)) values.set(k, k.build(ctx()));
      return values.get(k) as T;
    },
    clear() {
      values.clear();
      seen = -1;
    },
  };
}

/** The default id source: `prefix_` and `bytes` random bytes in hex. */
export const randomId = (prefix: string, bytes: number): string =>
  `${prefix}_${randomBytes(bytes).toString('hex')}`;
