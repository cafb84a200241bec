/**
 * The prospect rows a delta wrote or deleted, left for the prospect search index build that follows in
 * the same process (`indexes/prospects.ts`): it patches the base's saved index for those rows instead
 * of indexing every row again. A build elsewhere (another process, or after the hand-off was taken)
 * indexes every row.
 */
import type { Db } from './db.js';
import { handOff } from './hand-off.js';

export interface ProspectChanges {
  /** The stamp the base's indexes are saved under (`savedIndexStamp` before the delta). */
  baseStamp: string;
  /**
   * Rowids of the prospects the delta replaced, added or deleted, and of those whose company columns it
   * derived again (their business changed, or arrived).
   */
  rows: ReadonlySet<number>;
}

const changesHandOff = handOff<ProspectChanges>();

/** Called by the delta once its rows are committed (`hash`: the prospects' new `hash_prospects`). */
export const handOffProspectChanges: (db: Db, hash: string, changes: ProspectChanges) => void =
  changesHandOff.give;

/** The changes a delta of this process left for the prospects now in `db` (taken: once). */
export const takeProspectChanges: (db: Db, hash: string | undefined) => ProspectChanges | undefined =
  changesHandOff.take;
