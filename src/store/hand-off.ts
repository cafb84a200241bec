/**
 * What one step of a process leaves on a database for a later step of the same process: a load or a
 * delta leaves what it already knows about the rows it wrote (their match keys, which rows changed) to
 * the index build that follows, instead of that build working it out again from every stored row.
 */
import type { Db } from './db.js';

export interface HandOff<T> {
  /** Leaves `value` for the data whose stored file hashed to `hash` (a `hash_*` meta value). */
  give(db: Db, hash: string, value: T): void;
  /**
   * The value left on `db` (and forgets it), or `undefined` when none was left or the data stored is no
   * longer the data it was left for (`hash`: its current `hash_*` meta value).
   */
  take(db: Db, hash: string | undefined): T | undefined;
}

/** A hand-off slot per database. */
export function handOff<T>(): HandOff<T> {
  const slots = new WeakMap<Db, { hash: string; value: T }>();
  return {
    give: (db, hash, value) => void slots.set(db, { hash, value }),
    take: (db, hash) => {
      const slot = slots.get(db);
      if (!slot || slot.hash !== hash) return undefined;
      slots.delete(db);
      return slot.value;
    },
  };
}
