/**
 * The saved indexes a build makes, cut into lanes that can be built at the same time on different
 * threads (`buildIndexesThreaded` in `warm.ts`, `index-worker.ts`). A lane builds what its indexes are
 * built from itself when it is not in the lane (the prospect match lane builds the business match index
 * again, ~1 s at 200k prospects): repeated work bought for lanes that never wait on each other.
 */
import { businessIndex } from '../indexes/businesses.js';
import { businessInitialsIndex, businessMatchIndex, businessNameIndex } from '../indexes/match/businesses.js';
import { otherNameIndex, otherNameTokens } from '../indexes/match/other-names.js';
import { prospectMatchIndex } from '../indexes/match/prospects.js';
import { prospectIndex } from '../indexes/prospects.js';
import type { Context } from '../runtime/context.js';
import { AUTOCOMPLETE_FIELDS } from '../schemas/enums.js';
import { completionIndex } from './autocomplete.js';

/** Every saved index by step name, each built (or read back) by its function. */
export const INDEX_STEPS: Readonly<Record<string, (engine: Context) => unknown>> = {
  'search.businessIndex': businessIndex,
  'search.prospectIndex': prospectIndex,
  'match.businesses': businessMatchIndex,
  'match.businesses.tokens': businessNameIndex,
  'match.businesses.initials': businessInitialsIndex,
  'match.businesses.otherNames': otherNameIndex,
  'match.businesses.otherNames.tokens': otherNameTokens,
  'match.prospects': prospectMatchIndex,
  ...Object.fromEntries(
    AUTOCOMPLETE_FIELDS.map((f) => [`search.autocomplete.${f}`, (e: Context) => completionIndex(e, f)]),
  ),
};

const COMPLETIONS = AUTOCOMPLETE_FIELDS.map((f) => `search.autocomplete.${f}`);

/**
 * The lanes, costliest first (CPU measured at 200k prospects: ~8 s, ~4.5 s, ~1.5 s): the search indexes
 * and the completions (read from them); the prospect match index; the business match indexes. Run in
 * this order on one thread they are the whole build.
 */
export const INDEX_LANES: readonly (readonly string[])[] = [
  ['search.businessIndex', 'search.prospectIndex', ...COMPLETIONS],
  ['match.prospects'],
  [
    'match.businesses',
    'match.businesses.tokens',
    'match.businesses.initials',
    'match.businesses.otherNames',
    'match.businesses.otherNames.tokens',
  ],
];

/**
 * The lanes for `threads` threads: at most one per thread, the last ones merged into one when there are
 * fewer threads than lanes (the first lane, the costliest, stays alone).
 */
export function lanesFor(threads: number): string[][] {
  const n = Math.max(1, Math.min(threads, INDEX_LANES.length));
  const out = INDEX_LANES.slice(0, n).map((l) => [...l]);
  for (const lane of INDEX_LANES.slice(n)) out[n - 1]!.push(...lane);
  return n === 1 ? [INDEX_LANES.flat()] : out;
}

/** Marks the index workers this package starts (importing their module elsewhere is inert). */
export const INDEX_WORKER_TAG = 'prospectdb-index-worker';
