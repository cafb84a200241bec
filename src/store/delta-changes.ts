/**
 * The rows a delta wrote or deleted, left for the search index builds that follow in the same process
 * (`indexes/prospects.ts`, `indexes/businesses.ts`): each patches the base's saved index for those rows
 * instead of indexing every row again. A build elsewhere (another process, or after the hand-off was
 * taken) indexes every row.
 */
import { handOff, type HandOff } from './hand-off.js';

export interface DeltaChanges {
  /** The stamp the base's indexes are saved under (`savedIndexStamp` before the delta). */
  baseStamp: string;
  /**
   * Rowids of the records the delta replaced, added or deleted; for prospects, also of those whose
   * company columns it derived again (their business changed, or arrived).
   */
  rows: ReadonlySet<number>;
}

/**
 * The hand-off of each stream's changes, keyed by its new `hash_<stream>`: for the search index builds,
 * and (`businessMatch`) for the business match index build, which carries the name keys of the
 * businesses the delta left alone (`indexes/match/businesses.ts`).
 */
export const DELTA_CHANGES: Readonly<
  Record<'businesses' | 'prospects' | 'businessMatch', HandOff<DeltaChanges>>
> = {
  businesses: handOff<DeltaChanges>(),
  prospects: handOff<DeltaChanges>(),
  businessMatch: handOff<DeltaChanges>(),
};
