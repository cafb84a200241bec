/**
 * The engine: an open SQLite store plus the in-memory indexes built over it. Operations are functions
 * that take the engine first (`fetchPage(engine, …)`); the methods here are the lifecycle and shortcuts.
 */
import { accountsApi, type AccountsApi } from './account/accounts.js';
import { ingestEvents, type IngestOptions, type IngestReport } from './core/events.js';
import type { ResearchProvider } from './core/research/provider.js';
import { EngineError } from './errors.js';
import { handle, type HandleOptions } from './facade/handle.js';
import type { FacadeOptions, FacadeRequest, FacadeResponse } from './facade/types.js';
import { ensureJobWorker, jobWorkerOf, type JobWorkerOptions } from './jobs/index.js';
import type { SnapshotSource } from './snapshot/files.js';
import { loadSnapshot, type LoadOptions, type LoadReport } from './store/load.js';
import { getMeta, openDatabase, type Db } from './store/open.js';
import { startDeliveryWorker, type DeliveryWorker, type WebhookSettings } from './webhooks/index.js';

export interface EngineOptions extends FacadeOptions {
  /** SQLite file; `:memory:` (the default) keeps everything in memory. */
  path?: string;
  readonly?: boolean;
  /** Milliseconds since the epoch; injected so tests and replays are exact. Default `Date.now`. */
  clock?: () => number;
  /**
   * Async jobs: the in-process worker (`worker: false` to never start it), batch size, SMTP notices,
   * and `baseUrl` to make result download URLs absolute.
   */
  jobs?: JobWorkerOptions & { worker?: boolean; baseUrl?: string };
  /** Research provider; the default answers offline from the loaded records. */
  research?: { provider?: ResearchProvider };
  /**
   * Webhook delivery: `allowPrivateTargets` (http and private addresses, for tests and local use),
   * `retrySchedule` (ms between attempts, about a day by default), and `worker: false` to not run the
   * delivery worker in this process.
   */
  webhooks?: Partial<WebhookSettings> & { worker?: boolean };
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

export interface Engine {
  readonly db: Db;
  readonly path: string;
  readonly options: Readonly<EngineOptions>;
  /** The engine's clock, in milliseconds since the epoch. */
  now(): number;
  /** Loads a snapshot folder (or explicit stream files); replaces the streams it holds. */
  load(snapshot: SnapshotSource, options?: LoadOptions): Promise<LoadReport>;
  info(): EngineInfo;
  /**
   * A value built once per data version (after a load or an ingest the builder runs again). This is
   * where in-memory indexes keyed by rowid live.
   */
  cached<T>(name: string, build: (engine: Engine) => T): T;
  /** Call after writing entity data outside `load` so cached indexes are rebuilt. */
  invalidate(): void;
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
  readonly closed: boolean;
}

/**
 * Opens (or creates) an engine. A built database file is reused as it is: nothing is reloaded.
 * @example const engine = openEngine({ path: 'prospects.db' }); await engine.load('fixtures/demo');
 */
export function openEngine(options: EngineOptions = {}): Engine {
  const path = options.path ?? ':memory:';
  const db = openDatabase(path, { readonly: options.readonly });
  const clock = options.clock ?? Date.now;
  const cache = new Map<string, unknown>();
  let cacheVersion = -1;
  let closed = false;
  let deliveries: DeliveryWorker | undefined;

  const dataVersion = () => Number(getMeta(db, 'data_version') ?? '0');
  const ensureOpen = () => {
    if (closed) throw new EngineError('ENGINE_CLOSED');
  };

  const engine: Engine = {
    db,
    path,
    options,
    now: () => clock(),
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
      const count = (table: string) =>
        (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      const formatVersion = getMeta(db, 'format_version');
      return {
        path,
        snapshotId: getMeta(db, 'snapshot_id') ?? null,
        asOf: getMeta(db, 'as_of') ?? null,
        formatVersion: formatVersion ? Number(formatVersion) : null,
        schemaVersion: Number(getMeta(db, 'schema_version') ?? '0'),
        dataVersion: dataVersion(),
        counts: { businesses: count('businesses'), prospects: count('prospects'), events: count('events') },
      };
    },
    cached<T>(name: string, build: (engine: Engine) => T): T {
      ensureOpen();
      const version = dataVersion();
      if (version !== cacheVersion) {
        cache.clear();
        cacheVersion = version;
      }
      if (!cache.has(name)) cache.set(name, build(engine));
      return cache.get(name) as T;
    },
    invalidate() {
      cache.clear();
      cacheVersion = -1;
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
      cache.clear();
      db.close();
    },
    get closed() {
      return closed;
    },
  };
  if (!options.readonly && hasPendingJobs(db)) ensureJobWorker(engine);
  // Deliveries left pending by a previous process resume here; new ones wake the worker on ingest.
  if (!options.readonly && options.webhooks?.worker !== false) deliveries = startDeliveryWorker(engine);
  return engine;
}

/** Jobs left queued or running (e.g. by a crashed process) resume when the engine opens. */
function hasPendingJobs(db: Db): boolean {
  return db.prepare(`SELECT 1 FROM jobs WHERE status IN ('queued', 'running') LIMIT 1`).get() !== undefined;
}
