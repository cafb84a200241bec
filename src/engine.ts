/**
 * The engine: an open SQLite store plus the in-memory indexes built over it. Operations are functions
 * that take the engine first (`fetchPage(engine, …)`); the methods here are the lifecycle and shortcuts.
 */
import { EngineError } from './errors.js';
import { getMeta, openDatabase, type Db } from './store/open.js';
import { loadSnapshot, type LoadOptions, type LoadReport } from './store/load.js';
import type { SnapshotSource } from './snapshot/files.js';

export interface EngineOptions {
  /** SQLite file; `:memory:` (the default) keeps everything in memory. */
  path?: string;
  readonly?: boolean;
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
      const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
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
    close() {
      if (closed) return;
      closed = true;
      cache.clear();
      db.close();
    },
    get closed() {
      return closed;
    },
  };
  return engine;
}
