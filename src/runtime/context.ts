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
   * The in-memory indexes of the current data version, built on first use; a load or a delta drops
   * them all together, an event ingest those built from events (see {@link Reads}).
   */
  readonly indexes: Owner;
  /** Per-engine state that outlives data changes: rate limiters, workers, wake-ups, scratch buffers. */
  readonly services: Owner;
  /**
   * Call after writing the snapshot's rows outside `load` so the indexes are rebuilt: every one, or
   * (`'data'`) only those built from more than the businesses and prospects (see {@link Reads}).
   */
  invalidate(reads?: 'data'): void;
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
 * What a kind's value is built from: `entities` (the businesses and prospects only, and other kinds of
 * the same scope) or `data` (anything in the snapshot, events included). An event ingest changes the
 * data but not the entities: it drops the `data` kinds and keeps the `entities` ones, which at 100k
 * prospects took ~7 s to build again on the next request (minutes at 5M).
 */
export type Reads = 'entities' | 'data';

/**
 * A kind of per-engine value, declared once (at module level, immutable) by the module that builds it:
 * `const BUSINESS_INDEX = kind('search.businessIndex', build)`. The value itself lives in the context's
 * owner, never in the module; the name is for timings and for the saved form.
 */
export interface Kind<T> {
  readonly name: string;
  /** What the value is built from (see {@link Reads}). */
  readonly reads: Reads;
  build(ctx: Context): T;
}

/**
 * Declares a kind of per-engine value. `reads`: `entities` only for a value built from businesses and
 * prospects alone (never from events, nor from a `data` kind); `data` by default.
 */
export function kind<T>(name: string, build: (ctx: Context) => T, reads: Reads = 'data'): Kind<T> {
  return { name, build, reads };
}

/** Holds one value per kind, built on first `get`. */
export interface Owner {
  get<T>(kind: Kind<T>): T;
  /** Drops every value (the next `get` builds again), or only the `data` kinds' (`'data'`). */
  clear(reads?: 'data'): void;
}

/**
 * The versions an index owner compares on every `get` (`meta`): `data` changes with every write of the
 * snapshot's rows (a load, a delta, an event ingest), `entities` with a write of businesses or prospects.
 */
export interface DataVersions {
  data: number;
  entities: number;
}

/**
 * An owner of values built from `ctx`. `versions` (optional) is read on every `get`: when the entities'
 * version changes every value is dropped together, when only the data version does (an event ingest)
 * the values of `data` kinds are (the index owner passes the snapshot's versions).
 */
export function createOwner(ctx: () => Context, versions?: () => DataVersions): Owner {
  const values = new Map<Kind<unknown>, unknown>();
  let seen: DataVersions = { data: -1, entities: -1 };
  const clear = (reads?: 'data') => {
    if (reads === undefined) values.clear();
    else for (const k of values.keys()) if (k.reads === 'data') values.delete(k);
  };
  return {
    get<T>(k: Kind<T>): T {
      if (versions) {
        const v = versions();
        if (v.entities !== seen.entities) clear();
        else if (v.data !== seen.data) clear('data');
        seen = v;
      }
      if (!values.has(k)) values.set(k, k.build(ctx()));
      return values.get(k) as T;
    },
    clear(reads) {
      clear(reads);
      if (reads === undefined) seen = { data: -1, entities: -1 };
    },
  };
}

/** The default id source: `prefix_` and `bytes` random bytes in hex. */
export const randomId = (prefix: string, bytes: number): string =>
  `${prefix}_${randomBytes(bytes).toString('hex')}`;
