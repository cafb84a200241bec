/**
 * Prepared statements, the better-sqlite3 way: each area's set (`sql/<area>.ts`) is prepared once per
 * database, on first use. This is the one memoisation of statements in the engine.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

/** A set of named statements (spelled out so declaration emit can name the type). */
export type Statements<K extends string> = { readonly [P in K]: Statement };

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
