/** Prepared statements, the better-sqlite3 way: each module prepares its set once per database. */
import type { Db } from './open.js';

/**
 * Memoises `prepare` per database: the statements are prepared on first use and reused after.
 * @example const statementsOf = preparedOnce((db) => ({ byId: db.prepare('SELECT …') }));
 */
export function preparedOnce<T>(prepare: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let statements = cache.get(db);
    if (statements === undefined) {
      statements = prepare(db);
      cache.set(db, statements);
    }
    return statements;
  };
}
