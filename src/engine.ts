/**
 * The engine, and the composition root: the one module that wires the layers together (store, context,
 * facade, workers). Operations are functions that take the narrow `Context` first (`fetchPage(ctx, …)`,
 * `src/runtime/context.ts`); an `Engine` is a `Context` with the lifecycle and the shortcuts on top, so
 * library users pass an engine wherever a context is asked for. Only `index.ts`, `cli/`, the adapters
 * (`http/server.ts`, `mcp/`) and tests import this module.
 */
import { accountsApi, type AccountsApi } from './account/accounts.js';
import { ingestEvents, type IngestOptions, type IngestReport } from './core/events.js';
import { EngineError } from './errors.js';
import { handle, type HandleOptions } from './facade/handle.js';
import type { FacadeRequest, FacadeResponse } from './facade/types.js';
import { ensureJobWorker, hasPendingJobs, jobWorkerOf } from './jobs/index.js';
import { createOwner, kind, randomId, type Context, type Kind } from './runtime/context.js';
import { STATE_AREAS } from './state/areas.js';
import type { StateDb } from './state/db.js';
import { openState, stateOnConnection } from './state/open.js';
import { resolveSettings, type SettingsOptions } from './runtime/settings.js';
import type { SnapshotSource } from './snapshot/files.js';
import { loadSnapshot, type LoadOptions, type LoadReport } from './store/load.js';
import { getMeta, openDatabase, type Db } from './store/open.js';
import { countStatements } from './store/sql/meta.js';
import { startDeliveryWorker, type DeliveryWorker } from './webhooks/index.js';

export interface EngineOptions extends SettingsOptions {
  /** The snapshot's SQLite file; `:memory:` (the default) keeps everything in memory. */
  path?: string;
  /** The same as `path` (the name the two-store options read best with). */
  snapshot?: string;
  /**
   * The state store: a SQLite file, or a `postgres://user:password@host:port/db` URL to share it between
   * processes and machines. Default: beside the snapshot (see `defaultStateLocation`); an in-memory
   * engine keeps its state in the same in-memory database.
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
   * every enrollment they match, in one transaction.
   */
  ingestEvents(records: unknown[], options?: IngestOptions): IngestReport;
  /** Stops background workers and closes the database. */
  close(): void;
}

/**
 * Opens (or creates) an engine. A built database file is reused as it is: nothing is reloaded.
 * @example const engine = openEngine({ path: 'prospects.db' }); await engine.load('fixtures/demo');
 */
export function openEngine(options: EngineOptions = {}): Engine {
  const path = options.snapshot ?? options.path ?? ':memory:';
  const db = openDatabase(path, { readonly: options.readonly });
  const state = openEngineState(db, path, options.state);
  const clock = options.clock ?? Date.now;
  const settings = resolveSettings(options);
  // `cached(name)` values: one kind per name, held by the index owner like the engine's own indexes.
  const named = new Map<string, Kind<unknown>>();
  let closed = false;
  let deliveries: DeliveryWorker | undefined;

  const dataVersion = () => Number(getMeta(db, 'data_version') ?? '0');
  const ensureOpen = () => {
    if (closed) throw new EngineError('ENGINE_CLOSED');
  };

  const indexes = createOwner(
    () => engine,
    () => {
      ensureOpen();
      return dataVersion();
    },
  );
  const services = createOwner(() => engine);

  const engine: Engine = {
    db,
    path,
    state,
    instance: randomId('eng', 8),
    options,
    settings,
    indexes,
    services,
    now: () => clock(),
    newId: options.newId ?? randomId,
    async load(snapshot, loadOptions = {}) {
      ensureOpen();
      try {
        return await loadSnapshot(db, snapshot, { now: clock, ...loadOptions });
      } finally {
        engine.invalidate();
      }
    },
    info() {
      ensureOpen();
      const counts = countStatements(db);
      const formatVersion = getMeta(db, 'format_version');
      return {
        path,
        snapshotId: getMeta(db, 'snapshot_id') ?? null,
        asOf: getMeta(db, 'as_of') ?? null,
        formatVersion: formatVersion ? Number(formatVersion) : null,
        schemaVersion: Number(getMeta(db, 'schema_version') ?? '0'),
        dataVersion: dataVersion(),
        counts: {
          businesses: counts.businesses.get() as number,
          prospects: counts.prospects.get() as number,
          events: counts.events.get() as number,
        },
      };
    },
    cached<T>(name: string, build: (engine: Engine) => T): T {
      let k = named.get(name);
      if (!k) named.set(name, (k = kind(name, () => build(engine))));
      return indexes.get(k as Kind<T>);
    },
    invalidate() {
      indexes.clear();
    },
    handle: (request, handleOptions) => handle(engine, request, handleOptions),
    get accounts() {
      return accountsApi(engine);
    },
    ingestEvents(records, ingestOptions) {
      ensureOpen();
      return ingestEvents(engine, records, ingestOptions);
    },
    close() {
      if (closed) return;
      // Workers check `closed` before every write; stopping them first ends their loops cleanly
      // (a delivery in flight stays pending and is sent again after the next open).
      void jobWorkerOf(engine)?.stop();
      void deliveries?.stop();
      closed = true;
      indexes.clear();
      void state.close();
      db.close();
    },
    get closed() {
      return closed;
    },
  };
  // Jobs left queued or running by a process that died resume here. A state store of its own that
  // other processes may share (a file, PostgreSQL) gets its worker at once, so a job another process
  // holds when it dies is taken over once its lease runs out, even if this one never had a job. A
  // state kept in the snapshot's own file (an in-memory engine, a single-file database) starts it only
  // for pending jobs: there a worker's polls would wait on every load's write lock.
  if (!settings.readonly) {
    if (state.location !== path && state.location !== ':memory:') ensureJobWorker(engine);
    else
      void hasPendingJobs(engine).then(
        (pending) => pending && ensureJobWorker(engine),
        () => {},
      );
  }
  // Deliveries left pending by a previous process resume here; new ones wake the worker on ingest.
  if (!settings.readonly && settings.webhooks.worker) deliveries = startDeliveryWorker(engine);
  return engine;
}

/**
 * Where the state lives when no `state` option names it: an in-memory engine keeps it in its own
 * database; a file keeps it in the same file (a second connection), so a single-file database made
 * before the split opens as both stores.
 */
function openEngineState(db: Db, path: string, spec: string | undefined): StateDb {
  if (spec !== undefined) return openState(spec, STATE_AREAS);
  if (path === ':memory:') return stateOnConnection(db, path, STATE_AREAS);
  return openState(path, STATE_AREAS);
}
