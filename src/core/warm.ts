/**
 * Builds (or reads back) the in-memory indexes ahead of the first query. In core, not in indexes/: it
 * warms what the operations build on first use too (stats tabs, completion indexes, the schema compiler).
 */
import { businessIndex } from '../indexes/businesses.js';
import { businessEventIndex } from '../indexes/events.js';
import { businessInitialsIndex, businessMatchIndex, businessNameIndex } from '../indexes/match/businesses.js';
import { otherNameIndex, otherNameTokens } from '../indexes/match/other-names.js';
import { prospectMatchIndex } from '../indexes/match/prospects.js';
import { buildingIndexes } from '../indexes/persist.js';
import { prospectIndex } from '../indexes/prospects.js';
import type { Context } from '../runtime/context.js';
import { AUTOCOMPLETE_FIELDS } from '../schemas/enums.js';
import { completionIndex } from './autocomplete.js';
import { cursorScope, encodeCursor } from './cursor.js';
import { compileOutputSchema } from './research/schema.js';
import { businessStats, prospectStats } from './stats.js';

/**
 * Builds every saved index of the engine's current data (search, match and autocomplete, businesses and
 * prospects)
 * and, on a writable file, saves them in it (see `indexes/persist.ts`), so that every later process
 * starts answering at once. Returns the milliseconds it took. `prospectdb load` and `prospectdb index`
 * run it.
 * @example await engine.load('snapshot/'); buildIndexes(engine);
 */
export function buildIndexes(engine: Context): number {
  const started = performance.now();
  buildingIndexes(engine, () => {
    businessIndex(engine);
    prospectIndex(engine);
    businessMatchIndex(engine);
    businessNameIndex(engine);
    businessInitialsIndex(engine);
    otherNameIndex(engine);
    otherNameTokens(engine);
    prospectMatchIndex(engine);
    for (const field of AUTOCOMPLETE_FIELDS) completionIndex(engine, field);
  });
  cursorSecret(engine);
  return performance.now() - started;
}

/**
 * Makes the file's cursor secret now (kept in the file when it is writable) rather than at the first
 * cursor: every copy of a loaded file, and every worker of `serve --workers` (the first one warms
 * alone), then signs with the same secret and accepts the others' cursors.
 */
const cursorSecret = (engine: Context) => encodeCursor(engine, cursorScope('business', 2, 'full', {}), 0);

/** One step of {@link warmEngine}: a name (for timings) and the index it builds. */
const WARM_STEPS: readonly (readonly [string, (engine: Context) => unknown])[] = [
  ['search.businessIndex', businessIndex],
  ['search.prospectIndex', prospectIndex],
  ['search.businessEvents', businessEventIndex],
  ['search.cursorSecret', cursorSecret],
  ['match.businesses', businessMatchIndex],
  ['match.businesses.tokens', businessNameIndex],
  ['match.businesses.initials', businessInitialsIndex],
  ['match.businesses.otherNames', otherNameIndex],
  ['match.businesses.otherNames.tokens', otherNameTokens],
  ['match.prospects', prospectMatchIndex],
  // The stats of every row build the cross-tabs and code lists every later stats request reads.
  ['stats.businesses', (e) => businessStats(e, { filters: null })],
  ['stats.prospects', (e) => prospectStats(e, { filters: null })],
  // The schema compiler's first compile costs ~100 ms more than the next ones (first research request).
  [
    'research.schemaCompiler',
    () =>
      compileOutputSchema({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
  ],
  ...AUTOCOMPLETE_FIELDS.map(
    (field) => [`autocomplete.${field}`, (e: Context) => completionIndex(e, field)] as const,
  ),
];

/**
 * Builds every index a request would otherwise build on first use (search, match, stats, events,
 * autocomplete, the research schema compiler), so that no request pays for one: `serve` runs it before
 * it listens. Resolves with the milliseconds each step took; between steps it yields to the event loop,
 * so a server already answering (a re-warm after a data change) keeps answering between them.
 */
export async function warmEngine(engine: Context): Promise<Record<string, number>> {
  const took: Record<string, number> = {};
  for (const [name, step] of WARM_STEPS) {
    if (engine.closed) break;
    const started = performance.now();
    step(engine);
    took[name] = Math.round((performance.now() - started) * 10) / 10;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return took;
}
