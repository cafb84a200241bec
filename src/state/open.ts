/**
 * Opening the state store: a `postgres://` (or `postgresql://`) URL opens PostgreSQL, anything else is a
 * SQLite path. The store is migrated before its first statement runs: every call waits for the
 * migration (SQLite migrates at open; PostgreSQL before its first statement), so opening stays
 * synchronous (`openEngine` is) and a PostgreSQL that cannot be reached fails its first request with
 * the driver's error instead of the open (`ready()` on the engine awaits it).
 */
import type { Db } from '../store/db.js';
import type { Param, StateArea, StateDb } from './db.js';
import { openPostgresState } from './postgres.js';
import { migratePostgresState, migrateSqliteState } from './schema.js';
import { openSqliteState, sqliteState } from './sqlite.js';

export { STATE_ENV } from './env.js';

export const isPostgresUrl = (spec: string): boolean => /^postgres(ql)?:\/\//i.test(spec);

/** Opens the store `spec` names and migrates its areas. */
export function openState(spec: string, areas: readonly StateArea[]): StateDb {
  if (isPostgresUrl(spec)) return migrated(openPostgresState(spec), areas);
  return openSqliteState(spec, (db) => migrateSqliteState(db, areas));
}

/**
 * The state on a connection the snapshot also uses: an in-memory engine (one database holds both), or
 * a single-file database made before the split (opened as both stores). `close` leaves the connection
 * to its owner.
 */
export function stateOnConnection(db: Db, location: string, areas: readonly StateArea[]): StateDb {
  migrateSqliteState(db, areas);
  return sqliteState(db, location, () => {});
}

/** A PostgreSQL store whose every call first waits for its migration. */
function migrated(store: StateDb, areas: readonly StateArea[]): StateDb {
  const ready = migratePostgresState(store, areas);
  // Observed here so an unreachable store is not an unhandled rejection; callers see it on use.
  ready.catch(() => {});
  let done = false;
  void ready.then(() => (done = true));
  const gate =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      if (!done) await ready;
      return f(...a);
    };
  return {
    dialect: store.dialect,
    location: store.location,
    all: gate(<T>(sql: string, params?: readonly Param[]) => store.all<T>(sql, params)),
    get: gate(<T>(sql: string, params?: readonly Param[]) => store.get<T>(sql, params)),
    value: gate(<T>(sql: string, params?: readonly Param[]) => store.value<T>(sql, params)),
    run: gate((sql: string, params?: readonly Param[]) => store.run(sql, params)),
    transaction: gate(<T>(fn: () => Promise<T>) => store.transaction(fn)),
    ready: () => ready,
    get inTransaction() {
      return store.inTransaction;
    },
    close: async () => {
      await ready.catch(() => {});
      await store.close();
    },
  } as StateDb;
}
