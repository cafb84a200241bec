/**
 * String and token similarity for fuzzy matching. Everything here is pure and allocation-light: these
 * functions run once per candidate in the hot loop.
 */
import { distance } from 'fastest-levenshtein';

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), or `max + 1` as soon as
 * the distance is known to exceed `max`. Tokens are short, so a two-row DP is cheaper than anything clever.
 * @example osaDistance('robotics', 'robtoics', 2) // 1
 */
export function osaDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0) return lb;
  if (lb === 0) return la;
  // Three rows of shared scratch (this runs per candidate token pair in the hot loop: no allocation).
  if (lb + 1 > rowSize) grow(lb + 1);
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb] as number;
}

let rowSize = 64;
let rowA = new Int32Array(rowSize);
let rowB = new Int32Array(rowSize);
let rowC = new Int32Array(rowSize);
function grow(n: number): void {
  rowSize = Math.max(n, rowSize * 2);
  rowA = new Int32Array(rowSize);
  rowB = new Int32Array(rowSize);
  rowC = new Int32Array(rowSize);
}

/**
 * Typos the scorer forgives in a token of this length: none under 4 characters (initials such as "DSF"
 * and "VSF" are different names), 1 in 4, 2 from 5. Each typo still costs `1 / length` of the token's
 * similarity.
 */
export function typoBudget(length: number): number {
  return length < 4 ? 0 : length < 5 ? 1 : 2;
}

/**
 * Typos candidate generation reaches in a token of this length: the scorer's {@link typoBudget} (the
 * deletion neighbourhoods of the token index reach two deletions from 5 characters). With the two budgets
 * equal, every word the scorer lines up with a query word is one the index finds, so a name with typos
 * in all its words is found through the pairs of its own words, not through every name sharing one.
 */
export function nearBudget(length: number): number {
  return typoBudget(length);
}

/**
 * Similarity of two tokens in [0, 1]: 1 when equal, `1 - d / maxLength` when the OSA distance `d` is
 * within the typo budget of the shorter one, else 0.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const budget = typoBudget(Math.min(a.length, b.length));
  if (budget === 0) return 0;
  const d = osaDistance(a, b, budget);
  return d > budget ? 0 : 1 - d / Math.max(a.length, b.length);
}

/**
 * Whether two tokens are "near" for candidate generation: equal, or within the {@link nearBudget} of
 * the shorter one (one OSA edit in 4 characters, two from 5). The blocking index finds exactly these pairs
 * (deletion neighbourhoods), which is what lets the indexed search promise the brute-force answer.
 */
export function nearTokens(a: string, b: string): boolean {
  if (a === b) return true;
  const budget = nearBudget(Math.min(a.length, b.length));
  if (budget === 0) return false;
  return osaDistance(a, b, budget) <= budget;
}

/** Normalised edit similarity of whole strings: `1 - levenshtein / maxLength`. */
export function editSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const m = Math.max(a.length, b.length);
  return m === 0 ? 1 : 1 - distance(a, b) / m;
}

/**
 * Jaro–Winkler similarity (prefix scale 0.1, up to 4 characters).
 * @example jaroWinkler('martha', 'marhta') // ≈ 0.961
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, (Math.max(la, lb) >> 1) - 1);
  const matchedB = new Uint8Array(lb);
  const matchA: number[] = [];
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    const c = a.charCodeAt(i);
    for (let j = lo; j <= hi; j++) {
      if (matchedB[j] === 0 && b.charCodeAt(j) === c) {
        matchedB[j] = 1;
        matchA.push(c);
        break;
      }
    }
  }
  const m = matchA.length;
  if (m === 0) return 0;
  let t = 0;
  let k = 0;
  for (let j = 0; j < lb; j++) {
    if (matchedB[j] === 1) {
      if (b.charCodeAt(j) !== matchA[k]) t++;
      k++;
    }
  }
  const jaro = (m / la + m / lb + (m - t / 2) / m) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < la && prefix < lb && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}
