/**
 * Business match on other names (a snapshot's `other_names`: former legal names, trading, short and
 * transliterated names). The rules, in the order `businesses.ts` applies them to a name:
 * 1. a current name with the row's name key (legal form allowing) wins: a former name that another
 *    business now holds as its current name goes to that business;
 * 2. else an other name with the row's name key: its business, decided as for current names among
 *    several businesses (the legal form written; not the country, which a former name need not share);
 * 3. else a current name that the row's name fuzzily matches;
 * 4. else an other name that it fuzzily matches, by the same scorer and decision as current names.
 * An other-name answer (2, 4) stands only when no current name of another business scored within
 * {@link NAME_MARGIN} of it. `matched_on` says `other_name` beside `name` or `name_fuzzy`.
 *
 * The search runs in the space of other-name entries: a {@link CompanyContext} whose positions are
 * entries (their keys, legal forms, owners' countries, token index), so the current-name search and
 * decision code runs unchanged; answers are mapped back to their businesses.
 */
import type { NullableStringColumn } from '../../indexes/format/strings.js';
import type { BusinessMatchIndex } from '../../indexes/match/businesses.js';
import {
  decide,
  decideFuzzy,
  formConflict,
  NAME_MARGIN,
  NAME_THRESHOLD,
  searchCompanyName,
  type CompanyContext,
  type QueryName,
} from './company-search.js';
import type { Scored } from './types.js';

/** An other-name decision: the business, its score, and every business an other name scored. */
export interface OtherNameAnswer {
  /** Business position, -1 when the other names decide nothing. */
  pos: number;
  score: number;
  /** Whether the row's name key is an other name's key (else a fuzzy match). */
  exact: boolean;
  /** Businesses holding an exact other-name key hit (namesakes when more than one). */
  holders: number;
  /** Businesses by their best other name's score, best first (score ties: position). */
  hits: Scored[];
}

// Per company context: its view over the other-name entries (built on first use).
const views = new WeakMap<CompanyContext, CompanyContext>();

/** `ctx` with other-name entries for positions: what the current-name search reads, entry by entry. */
function entryContext(ctx: CompanyContext): CompanyContext {
  let view = views.get(ctx);
  if (view === undefined) {
    const others = ctx.otherNames();
    const o = others.index;
    // The name columns in entry space; anything else read through it would be the businesses'. No
    // country: an other name's legal form is not checked against the headquarters' country.
    const noCountry: NullableStringColumn = { length: o.size, at: () => null };
    const index = Object.create(ctx.index, {
      size: { value: o.size },
      // Getters: the entries' columns are read when first used, not when the view is made.
      names: { get: () => o.names },
      nameKeys: { get: () => o.nameKeys },
      forms: { get: () => o.forms },
      countries: { value: noCountry },
      byNameKey: { value: o.byNameKey },
    }) as BusinessMatchIndex;
    // Answers map entries back to their businesses: ids and id lookups in entry space are never read.
    const notHere = (): never => {
      throw new Error('other-name entries have no business ids');
    };
    view = {
      index,
      ids: { length: o.size, at: notHere },
      position: notHere,
      detail: ctx.detail,
      minConfidence: ctx.minConfidence,
      tokens: others.tokens,
      initials: () => {
        throw new Error('other names have no initials index');
      },
      scored: others.scored,
      form: (entry) => o.forms.at(entry) as string,
      otherNames: () => others,
    };
    views.set(ctx, view);
  }
  return view;
}

/** Entry hits → the best entry of each business (hits come best first). */
function bestPerOwner(owner: Int32Array, hits: readonly Scored[]): Scored[] {
  const seen = new Set<number>();
  const out: Scored[] = [];
  for (const h of hits) {
    const pos = owner[h.pos] as number;
    if (seen.has(pos)) continue;
    seen.add(pos);
    out.push(h);
  }
  return out;
}

/**
 * The businesses whose other names match `q`: exact key hits when there are any, else (with `fuzzy`)
 * the fuzzy ones, with the decision among them. Null when no business has other names, or none hits.
 */
export function searchOtherNames(
  ctx: CompanyContext,
  q: QueryName,
  accept: ((pos: number) => boolean) | undefined,
  options: { fuzzy: boolean; country: string | null },
): OtherNameAnswer | null {
  const others = ctx.otherNames();
  if (others.index.size === 0 || q.key.length === 0) return null;
  const owner = others.index.owner;
  const e = entryContext(ctx);
  const ok = (entry: number) => accept === undefined || accept(owner[entry] as number);
  let entries: Scored[];
  let exact: boolean;
  let scored = q.scored;
  const keyHits = others.index.byNameKey
    .get(q.key)
    .filter((entry) => ok(entry) && !formConflict(e, q, entry))
    .sort((a, b) => a - b);
  if (keyHits.length > 0) {
    entries = keyHits.map((pos) => ({ pos, score: 1 }));
    exact = true;
  } else {
    if (!options.fuzzy) return null;
    const search = searchCompanyName(e, q, ok, !ctx.detail);
    if (search.hits.length === 0) return null;
    entries = search.hits;
    exact = false;
    scored = search.scored ?? q.scored;
  }
  const best = bestPerOwner(owner, entries);
  const pick = exact
    ? decide(e, best, q, { threshold: NAME_THRESHOLD, margin: NAME_MARGIN, country: options.country })
    : decideFuzzy(e, best, q, scored, { country: options.country });
  const hits = best.map((h) => ({ pos: owner[h.pos] as number, score: h.score }));
  return {
    pos: pick === null ? -1 : (owner[pick.pos] as number),
    score: pick?.score ?? 0,
    exact,
    holders: exact ? best.length : 0,
    hits,
  };
}

/**
 * Whether an other-name answer stands beside the current names' hits: no current name of another
 * business scored within {@link NAME_MARGIN} of it (current names win a close call).
 */
export function beatsCurrentNames(answer: OtherNameAnswer, current: readonly Scored[]): boolean {
  for (const h of current) {
    if (h.score < answer.score - NAME_MARGIN) break;
    if (h.pos !== answer.pos) return false;
  }
  return true;
}
