/**
 * Why a company-name answer on the real early-childhood organisations is wrong: label noise (the data
 * holds the written name, or a name no matcher can tell from it, under another id) or a real error (a
 * word more or less, a sibling site, a typo of another name). Shared by `childhood-errors.ts` and the
 * quality test.
 */
import { companyScore, scoredName, STOP_WORDS } from '../../src/core/match/company-score.js';
import { companyMatchKey } from '../../src/normalise/index.js';
import type { RealQuery, RealSet } from './real-data.js';

const words = (name: string) =>
  new Set(
    companyMatchKey(name)
      .split(' ')
      .filter((w) => w && !STOP_WORDS.has(w)),
  );
const score = (a: string, b: string) =>
  companyScore(scoredName(companyMatchKey(a).split(' ')), scoredName(companyMatchKey(b).split(' ')));

/** A name's letters and digits, lower case, one space apart (case, punctuation and accents aside). */
const plain = (name: string) =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The classifier of a set's wrong ids. Label noise: the query's name is the matched record's name (up to
 * case and punctuation); the matched record and the labelled one are the same name (two ids for one
 * written name); or the matched record is the query's site written with its parent (it holds every word
 * of the query) while the labelled record lacks the query's rarest word (no name can lead there). Real
 * errors otherwise: one name has words the other lacks (parent vs site, either way), both do (sibling
 * sites), or the names differ by typos (another organisation with a near name).
 */
export function childhoodErrors(set: RealSet): (q: RealQuery, gotId: string) => string {
  const nameOf = new Map(set.businesses.map((b) => [b.business_id, b.name]));
  // How many snapshot names hold each word (to find a query's rarest word).
  const df = new Map<string, number>();
  for (const b of set.businesses) for (const w of words(b.name)) df.set(w, (df.get(w) ?? 0) + 1);
  const rarest = (ws: Set<string>) => [...ws].sort((x, y) => (df.get(x) ?? 0) - (df.get(y) ?? 0))[0];
  return (q, gotId) => {
    const gotName = nameOf.get(gotId) as string;
    if (plain(q.name) === plain(gotName)) return 'noise: same name, other id';
    const truthName = q.truth === null ? null : (nameOf.get(q.truth) ?? null);
    if (truthName !== null && score(truthName, gotName) >= 0.9) return 'noise: two ids, one name';
    const a = words(q.name);
    const g = words(gotName);
    if (truthName !== null) {
      const r = rarest(a);
      if ([...a].every((w) => g.has(w)) && r !== undefined && !words(truthName).has(r))
        return 'noise: the site with its parent; the label lacks the rarest word';
    }
    const onlyQ = [...a].filter((w) => !g.has(w)).length;
    const onlyG = [...g].filter((w) => !a.has(w)).length;
    if (score(q.name, gotName) >= 0.8 && a.size === g.size) return 'error: typo or near name';
    if (onlyQ > 0 && onlyG === 0) return 'error: query has a word more (site of the matched)';
    if (onlyG > 0 && onlyQ === 0) return 'error: matched has a word more (site or parent)';
    return 'error: sibling (each has words the other lacks)';
  };
}
