/**
 * The engine, and the composition root: the one module that wires the layers together (store, context,
 * facade, workers). Operations are functions that take the narrow `Context` first (`fetchPage(ctx, …)`,
 * `src/runtime/context.ts`); an `Engine` is a `Context` with the lifecycle and the shortcuts on top, so
 * library users pass an engine wherever a context is asked for. Only `index.ts`, `cli/`, the adapters
 * (`http/server.ts`, `mcp/`) and tests import this module.
 */
import { extname, resolve } from 'node:path';
import { statSync } from 'node:fs';
import { accountsApi, type AccountsApi } from './account/accounts.js';
import type { IngestOptions, IngestReport } from './core/events.js';
import { distance } from 'fastest-levenshtein';
import { EngineError, type ValidationIssue } from './errors.js';
import { handle, type HandleOptions } from './facade/handle.js';
import type { FacadeRequest, FacadeResponse } from './facade/types.js';
import { jobWorkerOf } from './jobs/slot.js';
import { ensureCursorSecret } from './core/cursor.js';
import { loadedInProcess, savedIndexStamp } from './indexes/persist.js';
import {
  createOwner,
  kind,
  randomId,
  type Context,
  type Kind,
  type Owner,
  type SnapshotPin,
} from './runtime/context.js';
import { STATE_AREAS } from './state/areas.js';
import type { StateDb } from './state/db.js';
import { openState, STATE_ENV, stateOnConnection } from './state/open.js';
import { resolveSettings, type SettingsOptions } from './runtime/settings.js';
import type { SnapshotSource } from './snapshot/files.js';
import type { LoadOptions, LoadReport } from './store/load.js';
import type { DeltaOptions, DeltaReport } from './store/delta.js';
import { closeDatabase, entitiesVersion, getMeta, isWalFile, openDatabase, type Db } from './store/open.js';
import { countStatements, hasStateTables } from './store/sql/meta.js';
import type { DeliveryWorker } from './webhooks/index.js';

export interface EngineOptions extends SettingsOptions {
  /** The snapshot's SQLite file; `:memory:` (the default) keeps everything in memory. */
  path?: string;
  /** The same as `path` (the name the two-store options read best with). */
  snapshot?: string;
  /**
   * The state store: a SQLite file, or a `postgres://user:password@host:port/db` URL to share it between
   * processes and machines. Default: the `PROSPECTDB_STATE` environment variable when set (what the
   * CLI's `--state` sets), else beside the snapshot (see `defaultStateLocation`); an in-memory engine
   * keeps its state in the same in-memory database.
   */
  state?: string;
  /** Milliseconds since the epoch; injected so tests and replays are exact. Default `Date.now`. */
  clock?: () => number;
}

export interface EngineCounts {
  businesses: number;
  prospects: number;
  events: number;
}

export interface EngineInfo {
  path: string;
  snapshotId: string | null;
  asOf: string | null;
  formatVersion: number | null;
  schemaVersion: number;
  dataVersion: number;
  counts: EngineCounts;
}

export interface Engine extends Context {
  /** The options as given (operations read `settings`, resolved from them once). */
  readonly options: Readonly<EngineOptions>;
  /** Loads a snapshot folder (or explicit stream files); replaces the streams it holds. */
  load(snapshot: SnapshotSource, options?: LoadOptions): Promise<LoadReport>;
  /**
   * Applies a delta folder (`"kind": "delta"` manifest) to the snapshot this engine holds, in place, in
   * one transaction: the result is a new snapshot, equal to a full load of the base's records with the
   * delta applied. Refused when its `base_snapshot_id` is not this snapshot's id. To make a new file
   * from a base file and leave the base as it is, use `applyDeltaFile` (CLI: `load --base`).
   * @example await engine.applyDelta('deltas/2026-11-02');
   */
  applyDelta(delta: string, options?: DeltaOptions): Promise<DeltaReport>;
  info(): EngineInfo;
  /**
   * A value of your own built once per data version (after a load or an ingest the builder runs again),
   * held by the same owner as the engine's indexes (`indexes`, typed by their `Kind`).
   */
  cached<T>(name: string, build: (engine: Engine) => T): T;
  /**
   * The HTTP-compatible facade without a socket: `/v1/...`, `/v2/...` and the operational routes.
   * @example await engine.handle({ method: 'POST', path: '/v2/businesses/match', headers: { api_key }, body })
   */
  handle(request: FacadeRequest, options?: HandleOptions): Promise<FacadeResponse>;
  /** Accounts, API keys and credits. */
  readonly accounts: AccountsApi;
  /**
   * Stores events (validated per type; known `event_id`s are skipped) and queues a webhook delivery for
   * every enrollment they match, at most once each (a repeated or interrupted ingest never doubles one).
   */
  ingestEvents(records: unknown[], options?: IngestOptions): Promise<IngestReport>;
  /**
   * Switches the engine to another snapshot file without stopping: opens `path` read-only, builds its
   * indexes off the request path, then switches at once. Requests already running finish on the old
   * snapshot (each pins the snapshot current at its start); the old connection closes when the last
   * of them ends. The state (accounts, credits, keys, jobs, webhooks) is not touched. A file that does
   * not open or holds no loaded snapshot is refused (`SNAPSHOT_NOT_FOUND`, `SNAPSHOT_INVALID`) and the
   * current snapshot stays. Swaps run one at a time.
   * @example await engine.swapSnapshot('snapshots/2026-11-24.db');
   */
  swapSnapshot(path: string): Promise<SwapReport>;
  /** Stops background workers and closes the database. */
  close(): void;
}

/** What a snapshot swap did. */
export interface SwapReport {
  /** The snapshot now current. */
  path: string;
  snapshotId: string;
  counts: EngineCounts;
  /** The snapshot swapped out, and the requests still running on it when the switch happened. */
  previous: { path: string; snapshotId: string | null; inFlight: number };
  /** Milliseconds each index took to build on the new snapshot before the switch. */
  warmMs: Record<string, number>;
  elapsedMs: number;
}

/**
 * Opens (or creates) an engine over a database file, or in memory (`':memory:'`, the default). A built
 * database file is reused as it is: nothing is reloaded. An unknown option is refused with the closest
 * known one named (`EngineError` `VALIDATION`: `Misspelled option "readOnly" should be "readonly"`).
 * @example const engine = openEngine({ path: 'prospects.db' }); await engine.load(DEMO_SNAPSHOT);
 */
export function openEngine(options: EngineOptions = {}): Engine {
  checkOptions(options);
  const path = options.snapshot ?? options.path ?? ':memory:';
  const db = openDatabase(path, { readonly: options.readonly });
  const state = openEngineState(db, path, options.state ?? envState());
  const clock = options.clock ?? Date.now;
  const settings = resolveSettings(options);
  // `cached(name)` values: one kind per name, held by the index owner like the engine's own indexes.
  const named = new Map<string, Kind<unknown>>();
  let closed = false;
  let deliveries: DeliveryWorker | undefined;
  // Swaps run one at a time, in the order asked.
  let swapping: Promise<unknown> = Promise.resolve();

  const ensureOpen = () => {
    if (closed) throw new EngineError('ENGINE_CLOSED');
  };

  /**
   * The snapshot holder: the connection, its path and the index owner of one snapshot file, with the
   * context requests on it run with (the engine's state, services and settings, this snapshot's data).
   * `refs` counts the requests pinned to it; a swapped-out snapshot closes when it reaches 0.
   */
  interface Snapshot {
    readonly db: Db;
    readonly path: string;
    /** The file's device and inode when opened (a file renamed over the path has others). */
    readonly stamp: string;
    readonly indexes: Owner;
    readonly view: Context;
    refs: number;
    retired: boolean;
  }
  const snapshots = new Set<Snapshot>();
  const openSnapshot = (snapshotDb: Db, snapshotPath: string, stamp: string): Snapshot => {
    const owner = createOwner(
      () => snap.view,
      () => {
        ensureOpen();
        return {
          data: Number(getMeta(snapshotDb, 'data_version') ?? '0'),
          entities: Number(entitiesVersion(snapshotDb)),
        };
      },
    );
    // The view inherits the engine (state, services, clock, ids, settings, `closed`) and overrides
    // the snapshot's three members; pinning a view pins its own snapshot, not the current one.
    const view: Context = Object.create(engine, {
      db: { value: snapshotDb, enumerable: true },
      path: { value: snapshotPath, enumerable: true },
      indexes: { value: owner, enumerable: true },
      pin: { value: () => pin(snap) },
    }) as Context;
    const snap: Snapshot = {
      db: snapshotDb,
      path: snapshotPath,
      stamp,
      indexes: owner,
      view,
      refs: 0,
      retired: false,
    };
    snapshots.add(snap);
    return snap;
  };
  const closeSnapshot = (snap: Snapshot) => {
    if (!snapshots.delete(snap)) return;
    snap.indexes.clear();
    // An in-memory engine's first connection carries the state too: the engine's close closes it.
    if (snap.db !== db || path !== ':memory:') closeDatabase(snap.db);
  };
  const pin = (snap: Snapshot): SnapshotPin => {
    snap.refs++;
    let released = false;
    return {
      ctx: snap.view,
      release() {
        if (released) return;
        released = true;
        if (--snap.refs === 0 && snap.retired) closeSnapshot(snap);
      },
    };
  };

  const services = createOwner(() => engine);
  const engine: Engine = {
    get db() {
      return current.db;
    },
    get path() {
      return current.path;
    },
    get indexes() {
      return current.indexes;
    },
    state,
    instance: randomId('eng', 8),
    options,
    settings,
    services,
    now: () => clock(),
    newId: options.newId ?? randomId,
    pin: () => pin(current),
    async load(snapshot, loadOptions = {}) {
      ensureOpen();
      const target = current;
      // The loader (stream readers, worker pool, validation) is imported by the first load: a process
      // that only answers requests never pays for it.
      const { loadSnapshot } = await import('./store/load.js');
      try {
        const report = await loadSnapshot(target.db, snapshot, { now: clock, ...loadOptions });
        loadedInProcess(target.db); // its indexes are built on first use without a notice
        ensureCursorSecret(target.db);
        return report;
      } finally {
        target.indexes.clear();
      }
    },
    async applyDelta(delta, deltaOptions = {}) {
      ensureOpen();
      const target = current;
      try {
        const { applyDelta } = await import('./store/delta.js');
        // The stamp of the base's saved indexes: the next prospect match index build reads the base's
        // keys from its saved one (`handedProspectKeys`) instead of decoding every stored record.
        const baseStamp = savedIndexStamp(target.db);
        const report = await applyDelta(target.db, delta, { now: clock, ...deltaOptions }, baseStamp);
        loadedInProcess(target.db);
        return report;
      } finally {
        target.indexes.clear();
      }
    },
    info() {
      ensureOpen();
      return snapshotInfo(current.db, current.path);
    },
    swapSnapshot(next) {
      ensureOpen();
      const run = swapping.then(() => swapTo(next));
      swapping = run.catch(() => {});
      return run;
    },
    cached<T>(name: string, build: (engine: Engine) => T): T {
      let k = named.get(name);
      if (!k) named.set(name, (k = kind(name, () => build(engine))));
      return current.indexes.get(k as Kind<T>);
    },
    invalidate(reads) {
      current.indexes.clear(reads);
    },
    handle: (request, handleOptions) => handle(engine, request, handleOptions),
    get accounts() {
      return accountsApi(engine);
    },
    async ingestEvents(records, ingestOptions) {
      ensureOpen();
      // Ingest and its webhook outbox are imported by the first ingest (a reader never loads them).
      const { ingestEvents } = await import('./core/events.js');
      return ingestEvents(engine, records, ingestOptions);
    },
    close() {
      if (closed) return;
      // Workers check `closed` before every write; stopping them first ends their loops cleanly
      // (a delivery in flight stays pending and is sent again after the next open).
      void jobWorkerOf(engine)?.stop();
      void deliveries?.stop();
      closed = true;
      for (const snap of [...snapshots]) closeSnapshot(snap);
      void state.close();
      closeDatabase(db);
    },
    get closed() {
      return closed;
    },
  };
  let current: Snapshot = openSnapshot(db, path, fileStamp(path));

  /** Opens `next` read-only, warms its indexes off the request path, then makes it the current one. */
  async function swapTo(next: string): Promise<SwapReport> {
    ensureOpen();
    const started = performance.now();
    let nextDb: Db;
    let info: EngineInfo;
    let stamp: string;
    try {
      const s = statSync(next);
      stamp = `${s.dev}:${s.ino}`;
    } catch (e) {
      throw new EngineError('SNAPSHOT_NOT_FOUND', `cannot open snapshot ${next}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    try {
      // A WAL file renamed over a file still open here would share that file's -wal/-shm (found by
      // path) and read its pages as its own: refused (`settleSnapshotFile`, run by `prospectdb load`).
      const replaced = [...snapshots].some((o) => resolve(o.path) === resolve(next) && o.stamp !== stamp);
      if (replaced && isWalFile(next)) {
        throw new Error(
          'it is in WAL mode and replaced a file still open; finish it with `prospectdb load` ' +
            '(or PRAGMA journal_mode = DELETE) before renaming it into place',
        );
      }
      nextDb = openDatabase(next, { readonly: true });
    } catch (e) {
      throw new EngineError('SNAPSHOT_INVALID', `cannot swap to ${next}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    try {
      info = snapshotInfo(nextDb, next);
      if (!info.snapshotId) throw new Error('it holds no loaded snapshot (no snapshot_id)');
    } catch (e) {
      closeDatabase(nextDb);
      throw new EngineError('SNAPSHOT_INVALID', `cannot swap to ${next}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    const snap = openSnapshot(nextDb, next, stamp);
    let warm: Record<string, number>;
    try {
      const { warmEngine } = await import('./core/warm.js');
      warm = await warmEngine(snap.view);
      ensureOpen();
    } catch (e) {
      closeSnapshot(snap);
      throw e;
    }
    const previous = current;
    const before = snapshotInfo(previous.db, previous.path);
    // The switch itself: one assignment, between two requests' starts (a request pins at its start).
    current = snap;
    previous.retired = true;
    const inFlight = previous.refs;
    if (inFlight === 0) closeSnapshot(previous);
    return {
      path: next,
      snapshotId: info.snapshotId,
      counts: info.counts,
      previous: { path: before.path, snapshotId: before.snapshotId, inFlight },
      warmMs: warm,
      elapsedMs: performance.now() - started,
    };
  }

  // Jobs left queued or running by a process that died resume here. A state store of its own that
  // other processes may share (a file, PostgreSQL) gets its worker at once, so a job another process
  // holds when it dies is taken over once its lease runs out, even if this one never had a job. A
  // state kept in the snapshot's own file (an in-memory engine, a single-file database) starts it only
  // for pending jobs: there a worker's polls would wait on every load's write lock.
  // Each worker's slice is imported here, after the open, not with the package: importing it (or
  // opening a read-only engine) never loads them.
  if (!settings.readonly && settings.jobs.worker) {
    void import('./jobs/index.js').then(({ ensureJobWorker, hasPendingJobs }) => {
      if (closed) return;
      if (state.location !== path && state.location !== ':memory:') ensureJobWorker(engine);
      else
        void hasPendingJobs(engine).then(
          (pending) => pending && ensureJobWorker(engine),
          () => {},
        );
    });
  }
  // Deliveries left pending by a previous process resume here; new ones wake the worker on ingest.
  if (!settings.readonly && settings.webhooks.worker) {
    void import('./webhooks/index.js').then(({ startDeliveryWorker }) => {
      if (!closed) deliveries = startDeliveryWorker(engine);
    });
  }
  return engine;
}

/** Every option `openEngine` reads; the type check below keeps the list equal to `EngineOptions`' keys. */
const OPTION_NAMES = [
  'path',
  'snapshot',
  'state',
  'clock',
  'readonly',
  'newId',
  'jobs',
  'research',
  'webhooks',
  'rateLimit',
  'creditMenu',
  'correlationId',
  'maxJsonDepth',
  'authFailureLimit',
] as const satisfies readonly (keyof EngineOptions)[];
type Unlisted = Exclude<keyof EngineOptions, (typeof OPTION_NAMES)[number]>;
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyOptionListed;
const OPTION_SET: ReadonlySet<string> = new Set(OPTION_NAMES);

/** The known option a misspelled one most likely meant: same letters in another case, or 1–2 edits away. */
function closestOption(name: string): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = OPTION_NAMES.find((o) => o.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(name.length / 3));
  for (const o of OPTION_NAMES) {
    const d = distance(lower, o.toLowerCase());
    if (d <= bestDistance) [best, bestDistance] = [o, d - 1];
  }
  return best;
}

/**
 * Refuses an options value that is not an object, and any option `openEngine` does not read, naming the
 * closest known one (better-sqlite3's habit: a misspelled `readOnly` would otherwise open a writable
 * engine without a word). One `VALIDATION` error lists every unknown option.
 */
function checkOptions(options: unknown): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw EngineError.validation([
      { loc: ['options'], msg: 'Expected the "options" argument to be an object', type: 'type_error.dict' },
    ]);
  }
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(options)) {
    if (OPTION_SET.has(name)) continue;
    const near = closestOption(name);
    issues.push(
      near === undefined
        ? {
            loc: ['options', name],
            msg: `Unknown option "${name}" (options: ${OPTION_NAMES.join(', ')})`,
            type: 'value_error.extra',
          }
        : {
            loc: ['options', name],
            msg: `Misspelled option "${name}" should be "${near}"`,
            type: 'value_error.extra',
            ctx: { did_you_mean: near },
          },
    );
  }
  if (issues.length > 0) throw EngineError.validation(issues);
}

/** The device and inode of the file at `path` (empty for an in-memory database). */
function fileStamp(path: string): string {
  if (path === ':memory:') return '';
  const s = statSync(path);
  return `${s.dev}:${s.ino}`;
}

/** What `info()` and a swap report say of a snapshot connection. */
function snapshotInfo(db: Db, path: string): EngineInfo {
  const counts = countStatements(db);
  const formatVersion = getMeta(db, 'format_version');
  return {
    path,
    snapshotId: getMeta(db, 'snapshot_id') ?? null,
    asOf: getMeta(db, 'as_of') ?? null,
    formatVersion: formatVersion ? Number(formatVersion) : null,
    schemaVersion: Number(getMeta(db, 'schema_version') ?? '0'),
    dataVersion: Number(getMeta(db, 'data_version') ?? '0'),
    counts: {
      businesses: counts.businesses.get() as number,
      prospects: counts.prospects.get() as number,
      events: counts.events.get() as number,
    },
  };
}

/** The state file beside a snapshot file: `x.db` → `x.state.db` (`x` → `x.state.db`). */
export function defaultStateFile(snapshot: string): string {
  const ext = extname(snapshot);
  return ext ? `${snapshot.slice(0, -ext.length)}.state${ext}` : `${snapshot}.state.db`;
}

/**
 * Where the state lives when no `state` option names it: an in-memory engine keeps it in its own
 * database (`:memory:`); a single-file database made before the split (it holds the state's tables)
 * is opened as both stores, its file opened a second time, writable even when the snapshot is opened
 * read-only; any other snapshot file keeps its state in `defaultStateFile`, made on first open.
 */
export function defaultStateLocation(db: Db, path: string): string {
  if (path === ':memory:' || hasStateTables(db)) return path;
  return defaultStateFile(path);
}

/** `PROSPECTDB_STATE` (`cli/state-option.ts`), when set and not empty. */
function envState(): string | undefined {
  return process.env[STATE_ENV] || undefined;
}

function openEngineState(db: Db, path: string, spec: string | undefined): StateDb {
  if (spec !== undefined) return openState(spec, STATE_AREAS);
  if (path === ':memory:') return stateOnConnection(db, path, STATE_AREAS);
  // Never the snapshot's own connection: a swap closes that one.
  return openState(defaultStateLocation(db, path), STATE_AREAS);
}
