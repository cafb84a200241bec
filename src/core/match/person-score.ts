/**
 * Person-name similarity and lookup within companies. A query name is read several ways (as written,
 * with two adjacent words joined: "isabe lla" → "isabella", "garcia lopez" → "garcialopez"); each
 * reading is compared with a stored name in both orders (given-family and family-given), the family name
 * against any later word of the other name (double surnames, middle names present or absent), given
 * names up to a nickname, an initial, a truncation or a typo, family names up to a typo.
 *
 * Over 400 lines on purpose: the readings of a name and their comparison share the scratch buffers of
 * the hot loop (one company of 100,000 people is scored here).
 */
import type { ProspectMatchIndex } from '../../indexes/match/prospects.js';
import { deletions, MIN_FUZZY_WORD } from '../../indexes/match/prospects.js';
import { foldText, nameSkeleton, personTokens } from '../../normalise/index.js';
import { GIVEN_VARIANTS } from '../../normalise/nicknames.js';
import { jaroWinkler, osaDistance } from '../../normalise/similarity.js';
import type { Scored } from './types.js';

// Documented module state: built on the first person name compared, not when the module loads (every
// process that imports prospectdb loads it; only a prospect match reads it).
let variantGroups: Map<string, Set<string>> | undefined;
/**
 * Nickname groups keyed by skeleton spelling (the words the matcher compares are skeletons). Names that
 * share a skeleton ("joe" and "jo" are both "jo") and names in several groups ("harry": Harold and Henry)
 * carry the union of their groups.
 */
function nicknameGroups(): Map<string, Set<string>> {
  if (variantGroups !== undefined) return variantGroups;
  const groups = new Map<string, Set<string>>();
  for (const [name, variants] of GIVEN_VARIANTS) {
    const key = nameSkeleton(name);
    let set = groups.get(key);
    if (set === undefined) groups.set(key, (set = new Set()));
    for (const v of variants) set.add(nameSkeleton(v));
  }
  return (variantGroups = groups);
}

/** Whether two given names (skeletons) are forms of one another (Bob, Robert; Harry, Harold). */
function nicknames(a: string, b: string): boolean {
  const groups = nicknameGroups();
  return groups.get(a)?.has(b) === true || groups.get(b)?.has(a) === true;
}

export interface PersonQuery {
  /** Ways to read the name: the words as written, then with one pair of adjacent words joined. */
  readings: string[][];
  /** Words to look up, each with the index of the query word it stands for (bit in the hit mask). */
  lookups: [string, number][];
  /** Word similarities already computed for this query (candidates share most of their words). */
  memo: Map<string, number>;
  /** How much a stored word says (rarer says more; see {@link wordRarity}); null: all alike. */
  rarity: ((word: string) => number) | null;
  /** Whether a word is a name word of someone in the data (null: unknown). */
  known: ((word: string) => boolean) | null;
}

/**
 * How much agreeing on a stored name word says: its inverse document frequency among the people in
 * the data, memoised per query. A rare family name agreeing tells more than a common given name, the
 * way record linkage weighs agreement on frequent values less (Fellegi-Sunter with frequencies).
 */
export function wordRarity(index: ProspectMatchIndex): (word: string) => number {
  const memo = new Map<string, number>();
  const n = index.size + 1;
  return (word) => {
    let r = memo.get(word);
    if (r === undefined) {
      const id = index.wordId.get(word);
      const df = id === undefined ? 0 : (index.wordStart[id + 1] as number) - (index.wordStart[id] as number);
      r = Math.log(n / (df + 1)) + 1;
      memo.set(word, r);
    }
    return r;
  };
}

/** A query name, or null when it has no word; `rarity` weighs the name's parts (see {@link wordRarity}). */
export function personQuery(
  full: string,
  rarity: PersonQuery['rarity'] = null,
  known: PersonQuery['known'] = null,
): PersonQuery | null {
  const words = personTokens(full).filter((w) => w.length > 0);
  if (words.length === 0) return null;
  const readings = [words];
  // Joined pairs: a space typed inside a word, or a double surname written as one word (two words
  // joined into one would only compare as a one-word name, which never beats the words apart).
  for (let i = 0; i + 1 < words.length && i < 4 && words.length > 2; i++) {
    readings.push([
      ...words.slice(0, i),
      (words[i] as string) + (words[i + 1] as string),
      ...words.slice(i + 2),
    ]);
  }
  const lookups: [string, number][] = [];
  const add = (w: string, slot: number) => {
    if (w.length >= 2 && !lookups.some(([x]) => x === w)) lookups.push([w, Math.min(slot, 6)]);
  };
  words.forEach((w, i) => add(w, i));
  for (let i = 0; i + 1 < words.length && i < 4; i++) add((words[i] as string) + (words[i + 1] as string), i);
  // Nickname forms of the first and last words (the last: a "Smith John" order).
  for (const i of new Set([0, words.length - 1])) {
    for (const v of nicknameGroups().get(words[i] as string) ?? []) add(v, i);
  }
  return { readings, lookups, memo: new Map(), rarity, known };
}

/**
 * Similarity of two name words in [0, 1]: 1 equal, nickname forms 0.93 (when `given`), one typo
 * (a letter wrong, missing, added or two swapped) 0.94 (0.9 in words under five letters), two typos
 * 0.85 (0.8 in words under six letters), a truncation 0.85, an initial 0.8; otherwise Jaro-Winkler held
 * under 0.8: names alike only in their first letters ("Blake", "Blackwell") are two names, not a typo.
 */
export function wordSimilarity(a: string, b: string, given: boolean, known = false): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 1 || lb === 1) return given && a.charCodeAt(0) === b.charCodeAt(0) ? 0.8 : 0;
  if (given && nicknames(a, b)) return 0.93;
  const short = Math.min(la, lb);
  // A two-letter word one letter from a longer one ("Ha" for "Hao", "Em" for "Emma", doubles folded).
  if (short === 2 && la + lb >= 5 && osaDistance(a, b, 1) === 1) return 0.85 - (known ? KNOWN_WORD_DOUBT : 0);
  if (short >= 3) {
    // A query word that is itself a name in the data is less likely a typo of another name.
    const doubt = known ? KNOWN_WORD_DOUBT : 0;
    const d = osaDistance(a, b, 2);
    if (d === 1) return (short >= 5 ? 0.94 : 0.9) - doubt;
    if (d === 2 && short >= 4) return (short >= 6 ? 0.85 : 0.8) - doubt;
    if (la < lb ? b.startsWith(a) : a.startsWith(b)) return 0.85 - doubt;
  }
  return Math.min(jaroWinkler(a, b), 0.79);
}

/** How much less a typo-like likeness counts when the query word is itself a name in the data. */
const KNOWN_WORD_DOUBT = 0.06;

/** {@link wordSimilarity} of query word `a` and stored word `b`, remembered per query. */
function similar(query: PersonQuery, a: string, b: string, given: boolean): number {
  if (a === b) return 1;
  const key = given ? `${a} ${b}` : `${a}|${b}`;
  let s = query.memo.get(key);
  if (s === undefined) {
    s = wordSimilarity(a, b, given, query.known?.(a) ?? false);
    if (query.memo.size < 4096) query.memo.set(key, s);
  }
  return s;
}

/** Family-name particles: "de" agreeing says nothing about "de Vries" versus "de Jong". */
const PARTICLES: ReadonlySet<string> = new Set(
  'al,ap,bin,ben,da,dal,de,del,della,der,des,di,do,dos,du,el,la,le,mac,st,ten,ter,van,von,zu'.split(','),
);

/** Best similarity of the family part: any later word of one name against any later word of the other. */
function familySimilarity(
  query: PersonQuery,
  q: readonly string[],
  qFrom: number,
  qTo: number,
  c: readonly string[],
  cFrom: number,
): number {
  let best = 0;
  const ql = qTo - 1;
  const cl = c.length - 1;
  for (let i = qFrom; i < qTo; i++) {
    if (i < ql && PARTICLES.has(q[i] as string)) continue;
    for (let j = cFrom; j < c.length; j++) {
      if (j < cl && PARTICLES.has(c[j] as string)) continue;
      let s = similar(query, q[i] as string, c[j] as string, false);
      if (i !== ql || j !== cl) s *= 0.97; // a middle word standing for the family name
      if (s > best) best = s;
      if (best === 1) return 1;
    }
  }
  return best;
}

/**
 * A part that disagrees counts for less than its raw similarity: "Liam Adams" and "Michael Adams" are
 * two people, not a 0.75-similar one (Jaro-Winkler gives unrelated names 0.4–0.6).
 */
const agree = (x: number) => (x >= 0.8 ? x : Math.max(0, x - 0.3));

/** The given name's share of a two-part score: by the rarity of the stored words, within 0.3–0.7. */
function givenShare(query: PersonQuery, c: readonly string[]): number {
  if (query.rarity === null) return 0.5;
  const g = query.rarity(c[0] as string);
  const f = query.rarity(c[c.length - 1] as string);
  return Math.min(0.7, Math.max(0.3, g / (g + f)));
}

/**
 * Given-family similarity of one reading against stored words, either order, the given name counting
 * `wg` of it; 0.5 stands for a missing part.
 */
function readingScore(query: PersonQuery, q: readonly string[], c: readonly string[], wg: number): number {
  const qn = q.length;
  const cn = c.length;
  if (qn === 1 || cn === 1) {
    // One part missing on one side: the present word against either part of the other name.
    let s = 0;
    if (qn === 1) for (let i = 0; i < cn; i++) s = Math.max(s, similar(query, q[0]!, c[i]!, i === 0));
    else for (let i = 0; i < qn; i++) s = Math.max(s, similar(query, q[i]!, c[0]!, i === 0));
    return qn === 1 && cn === 1 ? s : 0.5 * agree(s) + 0.25;
  }
  const straight =
    wg * agree(similar(query, q[0] as string, c[0] as string, true)) +
    (1 - wg) * agree(familySimilarity(query, q, 1, qn, c, 1));
  if (straight >= 0.97) return straight;
  // Family name first ("Smith John", "Smith J"): the last query word is the given name.
  const swapped =
    0.97 *
    (wg * agree(similar(query, q[qn - 1] as string, c[0] as string, true)) +
      (1 - wg) * agree(familySimilarity(query, q, 0, qn - 1, c, 1)));
  return Math.max(straight, swapped);
}

/** Similarity in [0, 1] of a query and a stored name (its words joined by spaces). */
export function personNameScore(query: PersonQuery, stored: string): number {
  if (stored.length === 0) return 0;
  const c = stored.split(' ');
  const wg = c.length > 1 ? givenShare(query, c) : 0.5;
  let best = readingScore(query, query.readings[0] as string[], c, wg);
  for (let r = 1; r < query.readings.length && best < 1; r++) {
    best = Math.max(best, 0.98 * readingScore(query, query.readings[r] as string[], c, wg));
  }
  return best;
}

/** Companies with at most this many people are read whole. */
const SCAN_COMPANY = 32;
/** A word's postings at most this long are read whole; longer runs only confirm hits of other words. */
const OPEN_RUN = 256;

/** Scratch marks per index (one per data version; the matcher runs on one thread). */
const scratch = new WeakMap<ProspectMatchIndex, { stamp: Int32Array; mask: Uint8Array; gen: number }>();

/** The range of `index.wordPost` holding word `wid`'s prospects of business `b`. */
function companyRun(index: ProspectMatchIndex, wid: number, b: number): [number, number] {
  const { wordPost, business } = index;
  const start = index.wordStart[wid] as number;
  const end = index.wordStart[wid + 1] as number;
  // Runs are ordered by employer, prospects without one (-1) last.
  const key = (i: number) => {
    const e = business.at(wordPost.at(i));
    return e < 0 ? Infinity : e;
  };
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(mid) < b) lo = mid + 1;
    else hi = mid;
  }
  let top = lo;
  hi = end;
  while (top < hi) {
    const mid = (top + hi) >> 1;
    if (key(mid) <= b) top = mid + 1;
    else hi = mid;
  }
  return [lo, top];
}

/** Word ids a query word may stand for: itself and its one-deletion neighbours (typos, swapped letters). */
function wordsNear(index: ProspectMatchIndex, w: string): number[] {
  const out: number[] = [];
  const exact = index.wordId.get(w);
  if (exact !== undefined) out.push(exact);
  if (w.length < MIN_FUZZY_WORD) return out;
  for (const d of deletions(w)) {
    const near = index.wordNear.get(d);
    if (near === undefined) continue;
    if (typeof near === 'number') {
      if (!out.includes(near)) out.push(near);
    } else for (const id of near) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * Prospects of the given companies whose names are near the query, scored in [0, 1] (name similarity
 * weighted 0.85, the company's score 0.15), best first. Reads only the postings of the query's words
 * and their typo neighbours within each company, never every employee.
 */
export function searchPersonName(
  index: ProspectMatchIndex,
  query: PersonQuery,
  companies: readonly Scored[],
): Scored[] {
  const out: Scored[] = [];
  let near: (readonly [number[], number])[] | null = null;
  for (const company of companies) {
    const first = index.memberStart[company.pos] as number;
    const last = index.memberStart[company.pos + 1] as number;
    if (last - first <= SCAN_COMPANY) {
      // A small company: reading its few people is cheaper than looking up the words.
      const people = index.members.range(first, last);
      for (let m = 0; m < people.length; m++) {
        const pos = people[m] as number;
        const score = personNameScore(query, index.names.at(pos) as string);
        if (score > 0) out.push({ pos, score: 0.85 * score + 0.15 * company.score });
      }
      continue;
    }
    near ??= query.lookups.map(([w, slot]) => [wordsNear(index, w), slot] as const);
    // Made on the first large company: 5 bytes per prospect (25 MB at 5M), which a batch of small
    // companies never needs.
    let s = scratch.get(index);
    if (s === undefined) {
      s = { stamp: new Int32Array(index.size), mask: new Uint8Array(index.size), gen: 0 };
      scratch.set(index, s);
    }
    s.gen = (s.gen + 1) | 0;
    if (s.gen === 0) {
      s.stamp.fill(0);
      s.gen = 1;
    }
    const { stamp, mask, gen } = s;
    const touched: number[] = [];
    for (const open of [true, false]) {
      for (const [wids, slot] of near) {
        for (const wid of wids) {
          const [lo, hi] = companyRun(index, wid, company.pos);
          if (hi - lo > OPEN_RUN === open) continue;
          const run = index.wordPost.range(lo, hi);
          for (let i = 0; i < run.length; i++) {
            const pos = run[i] as number;
            if (stamp[pos] !== gen) {
              if (!open) continue; // long runs only confirm what the short ones found
              stamp[pos] = gen;
              mask[pos] = 0;
              touched.push(pos);
            }
            mask[pos] = (mask[pos] as number) | (1 << slot);
          }
        }
      }
    }
    // Candidates found through long runs alone: those two different query words both point at.
    for (const [wids, slot] of near) {
      if (slot !== 0) continue;
      for (const wid of wids) {
        const [lo, hi] = companyRun(index, wid, company.pos);
        if (hi - lo <= OPEN_RUN) continue;
        for (const [wids2, slot2] of near) {
          if (slot2 === 0) continue;
          for (const wid2 of wids2) {
            const [lo2, hi2] = companyRun(index, wid2, company.pos);
            if (hi2 - lo2 <= OPEN_RUN) continue;
            intersect(index.wordPost.range(lo, hi), index.wordPost.range(lo2, hi2), (pos) => {
              if (stamp[pos] !== gen) {
                stamp[pos] = gen;
                mask[pos] = 3;
                touched.push(pos);
              }
            });
          }
        }
      }
    }
    for (const pos of touched) {
      const score = personNameScore(query, index.names.at(pos) as string);
      if (score > 0) out.push({ pos, score: 0.85 * score + 0.15 * company.score });
    }
  }
  out.sort((a, b) => b.score - a.score || a.pos - b.pos);
  return out;
}

/** Calls `hit` for every position in both sorted runs (within one company, positions ascend). */
function intersect(one: Int32Array, two: Int32Array, hit: (pos: number) => void): void {
  let a = 0;
  let b = 0;
  while (a < one.length && b < two.length) {
    const x = one[a] as number;
    const y = two[b] as number;
    if (x === y) {
      hit(x);
      a++;
      b++;
    } else if (x < y) a++;
    else b++;
  }
}

/**
 * What an e-mail's local part says about a candidate, a dimension of the calibrated confidence:
 * `none` nothing usable; `agrees` written from the candidate's name ("j.smith", "jsmith", "smithj",
 * "john_smith" for John Smith); `partial` it holds one of the name's words ("john", "smith.j2");
 * `differs` it is written from another name (a colleague's address at the same domain is evidence
 * against).
 */
export const EMAIL_EVIDENCE = ['none', 'agrees', 'partial', 'differs'] as const;
export type EmailEvidence = 0 | 1 | 2 | 3;

/**
 * The name words of an e-mail's local part, spelled as the matcher compares them: the `+tag` and
 * digits dropped, split at dots, underscores and hyphens; null when nothing name-like is left.
 * @example localPartWords('J.Smith+news@example.com') // ['j', 'smith']
 */
export function localPartWords(email: string): string[] | null {
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  let local = email.slice(0, at);
  const plus = local.indexOf('+');
  if (plus >= 0) local = local.slice(0, plus);
  const folded = foldText(local.replace(/[._\-\d]+/g, ' '));
  if (folded.length === 0) return null;
  const words = folded.split(' ').map(nameSkeleton);
  return words.every((w) => w.length < 2) && words.length < 2 ? null : words;
}

/** A local-part word standing for a name word: equal, or its initial. */
const standsFor = (part: string, word: string) =>
  part === word || (part.length === 1 && word.charCodeAt(0) === part.charCodeAt(0));

/** The {@link EmailEvidence} of local-part words (see {@link localPartWords}) about a stored name. */
export function emailEvidence(parts: readonly string[] | null, stored: string): EmailEvidence {
  if (parts === null || stored.length === 0) return 0;
  const c = stored.split(' ');
  if (parts.length >= 2) {
    // Two parts standing for two different words of the name, one of them written out.
    for (let i = 0; i < parts.length; i++) {
      for (let j = 0; j < parts.length; j++) {
        if (i === j) continue;
        const a = parts[i] as string;
        const b = parts[j] as string;
        if (a.length < 2 && b.length < 2) continue;
        for (let x = 0; x < c.length; x++) {
          if (!standsFor(a, c[x] as string)) continue;
          for (let y = 0; y < c.length; y++) if (y !== x && standsFor(b, c[y] as string)) return 1;
        }
      }
    }
  } else {
    // One word: the name's words joined, whole or with an initial, in either order.
    const x = parts[0] as string;
    const g = c[0] as string;
    for (let k = 1; k < c.length; k++) {
      const f = c[k] as string;
      for (const joined of [g + f, f + g, g.charAt(0) + f, g + f.charAt(0), f + g.charAt(0)]) {
        if (joined === x || nameSkeleton(joined) === x) return 1;
      }
    }
  }
  // A word of the name written in full somewhere in the local part.
  for (const w of c) {
    if (w.length < 3) continue;
    for (const p of parts) if (p.length >= 3 && (p === w || p.includes(w) || w.includes(p))) return 2;
  }
  return 3;
}

/**
 * Names an e-mail's local part may be written from, as query strings: the parts themselves ("john
 * smith"), or one joined word cut where its end is a known name word ("jsmith" → "j smith"). Used to
 * find the person when the name given beside the address is too far off to find them.
 */
export function localPartNames(index: ProspectMatchIndex, parts: readonly string[] | null): string[] {
  if (parts === null) return [];
  if (parts.length >= 2) return parts.some((p) => p.length >= 3) ? [parts.join(' ')] : [];
  const x = parts[0] as string;
  const out: string[] = [];
  const word = (w: string) => w.length === 1 || index.wordId.has(w);
  for (let i = 1; i < x.length && out.length < 3; i++) {
    const a = x.slice(0, i);
    const b = x.slice(i);
    if ((a.length >= 3 || b.length >= 3) && word(a) && word(b)) out.push(`${a} ${b}`);
  }
  return out;
}
