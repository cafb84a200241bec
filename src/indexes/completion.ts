/**
 * A completion index over one field's values: candidates ranked by weight (how many records hold the
 * value), every word of a candidate searchable by prefix, one-edit typo tolerance, and a similarity scan
 * for semantic search.
 *
 * Candidate ids are ranks (0 = most common), so "the best k of a set" is "the k smallest ids". Prefixes
 * of up to 5 characters keep their best `k` ids precomputed; longer prefixes binary-search a sorted word
 * list. A typo is one deletion, insertion, substitution or transposition in the last query word, tried
 * as a prefix, so "softw" → "software", "cloude" → "cloud", "enginer" → "engineer".
 */
import { distance } from 'fastest-levenshtein';
import { foldText } from '../normalise/index.js';

export interface CompletionCandidate {
  label: string;
  value: string;
  weight: number;
  /** Extra searchable text (codes, aliases) besides the label. */
  aliases?: readonly string[];
}

export interface CompletionItem {
  label: string;
  value: string;
}

const PREFIX_TABLE_MAX = 5;
const RANGE_SCAN_CAP = 20_000;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export class CompletionIndex {
  readonly size: number;
  private readonly items: CompletionItem[];
  /** Folded searchable words of each candidate. */
  private readonly wordsOf: string[][];
  private readonly sortedWords: string[];
  private readonly sortedIds: Uint32Array;
  private readonly prefixTop = new Map<string, number[]>();

  constructor(
    candidates: readonly CompletionCandidate[],
    private readonly k = 20,
  ) {
    const sorted = [...candidates].sort(
      (a, b) => b.weight - a.weight || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
    );
    this.size = sorted.length;
    this.items = sorted.map((c) => ({ label: c.label, value: c.value }));
    this.wordsOf = sorted.map((c) => {
      const ws = new Set<string>();
      for (const t of [c.label, ...(c.aliases ?? [])])
        for (const w of foldText(t).split(' ')) if (w) ws.add(w);
      return [...ws];
    });
    const pairs: [string, number][] = [];
    this.wordsOf.forEach((ws, id) => {
      for (const w of ws) {
        pairs.push([w, id]);
        for (let n = 1; n <= Math.min(PREFIX_TABLE_MAX, w.length); n++) {
          const p = w.slice(0, n);
          let list = this.prefixTop.get(p);
          if (!list) this.prefixTop.set(p, (list = []));
          if (list.length < k && list[list.length - 1] !== id) list.push(id);
        }
      }
    });
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    this.sortedWords = pairs.map((p) => p[0]);
    this.sortedIds = Uint32Array.from(pairs, (p) => p[1]);
  }

  /** Best `limit` ids (ascending) having a word that starts with `prefix`. */
  private byPrefix(prefix: string, limit: number): number[] {
    if (prefix.length <= PREFIX_TABLE_MAX) return (this.prefixTop.get(prefix) ?? []).slice(0, limit);
    const ids = this.rangeIds(prefix);
    ids.sort((a, b) => a - b);
    return dedupeSorted(ids).slice(0, limit);
  }

  /** Every id (unsorted, capped) having a word that starts with `prefix`. */
  private rangeIds(prefix: string): number[] {
    let lo = 0;
    let hi = this.sortedWords.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sortedWords[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < this.sortedWords.length && out.length < RANGE_SCAN_CAP; i++) {
      if (!this.sortedWords[i]!.startsWith(prefix)) break;
      out.push(this.sortedIds[i]!);
    }
    return out;
  }

  /** Does candidate `id` have, for every query word, a word starting with it? */
  private matchesAll(id: number, qs: readonly string[]): boolean {
    const ws = this.wordsOf[id]!;
    return qs.every((q) => ws.some((w) => w.startsWith(q)));
  }

  /** Candidates for a query: prefix matches by rank, then one-edit typo matches by rank. */
  search(query: string, limit = this.k): CompletionItem[] {
    const qs = foldText(query).split(' ').filter(Boolean);
    if (qs.length === 0) return this.items.slice(0, limit);
    const found = new Set<number>();
    const last = qs[qs.length - 1]!;
    const rest = qs.slice(0, -1);
    const collect = (prefix: string, into: number[]) => {
      if (rest.length === 0) {
        for (const id of this.byPrefix(prefix, limit)) into.push(id);
        return;
      }
      const ids = this.rangeIds(prefix).sort((a, b) => a - b);
      let n = 0;
      for (const id of dedupeSorted(ids)) {
        if (this.matchesAll(id, rest)) {
          into.push(id);
          if (++n >= limit) break;
        }
      }
    };
    const exact: number[] = [];
    collect(last, exact);
    for (const id of exact) found.add(id);
    const out = exact.slice(0, limit);
    if (out.length < limit && last.length >= 3) {
      const fuzzy: number[] = [];
      for (const variant of edits1(last)) collect(variant, fuzzy);
      fuzzy.sort((a, b) => a - b);
      for (const id of fuzzy) {
        if (out.length >= limit) break;
        if (found.has(id)) continue;
        found.add(id);
        out.push(id);
      }
    }
    return out.map((id) => this.items[id]!);
  }

  /**
   * Related values, not only prefixes: every candidate scored by how well its words cover the query
   * words (prefix or substring 1.0, else 1 − edit distance / length), kept at ≥ 0.6 on average,
   * ranked by score then weight. A full scan: meant for small value sets (intent topics, categories).
   */
  similar(query: string, limit = this.k, extra: readonly string[] = []): CompletionItem[] {
    const qs = foldText(query).split(' ').filter(Boolean);
    if (qs.length === 0) return this.items.slice(0, limit);
    const extraWords = extra.map((e) => foldText(e).split(' ').filter(Boolean));
    const scored: { id: number; score: number }[] = [];
    for (let id = 0; id < this.size; id++) {
      const ws = this.wordsOf[id]!;
      let score = wordScore(qs, ws);
      for (const e of extraWords) score = Math.max(score, wordScore(e, ws));
      if (score >= 0.6) scored.push({ id, score });
    }
    scored.sort((a, b) => b.score - a.score || a.id - b.id);
    return scored.slice(0, limit).map((s) => this.items[s.id]!);
  }
}

function wordScore(qs: readonly string[], ws: readonly string[]): number {
  let total = 0;
  for (const q of qs) {
    let best = 0;
    for (const w of ws) {
      if (w.startsWith(q) || (q.length >= 4 && w.includes(q))) {
        best = 1;
        break;
      }
      if (q.length < 3) continue;
      const head = w.slice(0, q.length + 1);
      const d = Math.min(distance(q, w), distance(q, head));
      best = Math.max(best, 1 - d / Math.max(q.length, 1));
    }
    total += best;
  }
  return total / qs.length;
}

function dedupeSorted(ids: number[]): number[] {
  const out: number[] = [];
  for (const id of ids) if (out[out.length - 1] !== id) out.push(id);
  return out;
}

/** Every string one edit away from `w` (deletion, transposition, substitution, insertion). */
export function edits1(w: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= w.length; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    if (b) out.add(a + b.slice(1));
    if (b.length > 1) out.add(a + b[1] + b[0] + b.slice(2));
    for (const c of ALPHABET) {
      if (b) out.add(a + c + b.slice(1));
      out.add(a + c + b);
    }
  }
  out.delete(w);
  return [...out].filter((s) => s.length > 0);
}
