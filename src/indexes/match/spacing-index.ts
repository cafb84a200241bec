/**
 * Names by the ends of their joined form (words written without spaces), for finding a name written
 * with other spacing ("Acme Robotics" / "AcmeRobotics") without reading every name that shares a word.
 * Two joined forms at most one edit apart (substitution, insertion, deletion or adjacent transposition)
 * and at least 8 characters long share their first three or their last three characters: an edit in the
 * first three leaves the last three in place, and a transposition cannot reach both ends. So the names
 * of joined length L - 1 .. L + 1 whose head or tail matches the query's are the only ones that can be a
 * spacing variant of a query of joined length L (the scorer's joined similarity needs 8 characters).
 */
import { Ints, type IntColumn } from '../format/ints.js';

/** Joined forms shorter than this are never spacing variants (`joinedSimilarity` in company-score). */
const MIN_JOINED = 8;

/** A 32-bit hash of `s.slice(from, from + 3)` (collisions only add candidates). */
export function endHash(s: string, from: number): number {
  let h = 0;
  for (let i = from; i < from + 3 && i < s.length; i++) h = (Math.imul(h, 65599) + s.charCodeAt(i)) | 0;
  return h;
}

/** Head and tail hashes of a name's joined form, written into `head[i]` and `tail[i]`. */
export function joinedEnds(tokens: readonly string[], i: number, head: Int32Array, tail: Int32Array): void {
  const joined = tokens.join('');
  head[i] = endHash(joined, 0);
  tail[i] = endHash(joined, Math.max(0, joined.length - 3));
}

export interface SpacingIndex {
  /**
   * (joined length, head hash) keys, ascending, each once; the documents of key `k` are
   * `headDocs.range(headStart[k], headStart[k + 1])`, ascending. Typed arrays, so the index is saved
   * with the token index and reopened without building; the documents in pages once saved.
   */
  readonly headKeys: Float64Array;
  readonly headStart: Int32Array;
  readonly headDocs: IntColumn;
  /** The same by the tail hash. */
  readonly tailKeys: Float64Array;
  readonly tailStart: Int32Array;
  readonly tailDocs: IntColumn;
}

const key = (length: number, hash: number) => length * 0x100000000 + (hash >>> 0);

export function buildSpacingIndex(joined: Uint16Array, head: Int32Array, tail: Int32Array): SpacingIndex {
  const h = grouped(joined, head);
  const t = grouped(joined, tail);
  return {
    headKeys: h.keys,
    headStart: h.start,
    headDocs: new Ints(h.docs),
    tailKeys: t.keys,
    tailStart: t.start,
    tailDocs: new Ints(t.docs),
  };
}

/** The documents of joined length ≥ MIN_JOINED - 1 grouped by (length, hash): CSR over sorted keys. */
function grouped(
  joined: Uint16Array,
  hash: Int32Array,
): { keys: Float64Array; start: Int32Array; docs: Int32Array } {
  const byKey = new Map<number, number>();
  let n = 0;
  for (let doc = 0; doc < joined.length; doc++) {
    const length = joined[doc] as number;
    if (length < MIN_JOINED - 1) continue;
    const k = key(length, hash[doc] as number);
    byKey.set(k, (byKey.get(k) ?? 0) + 1);
    n++;
  }
  const keys = Float64Array.from(byKey.keys()).sort();
  const start = new Int32Array(keys.length + 1);
  for (let i = 0; i < keys.length; i++)
    start[i + 1] = (start[i] as number) + (byKey.get(keys[i] as number) as number);
  // Slot of each key, then each document in ascending order fills its key's run.
  for (let i = 0; i < keys.length; i++) byKey.set(keys[i] as number, start[i] as number);
  const docs = new Int32Array(n);
  for (let doc = 0; doc < joined.length; doc++) {
    const length = joined[doc] as number;
    if (length < MIN_JOINED - 1) continue;
    const k = key(length, hash[doc] as number);
    const at = byKey.get(k) as number;
    docs[at] = doc;
    byKey.set(k, at + 1);
  }
  return { keys, start, docs };
}

/** Visits the documents of key `k` (binary search over the sorted keys). */
function visitKey(
  keys: Float64Array,
  start: Int32Array,
  docs: IntColumn,
  k: number,
  visit: (doc: number) => void,
): void {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as number) < k) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= keys.length || keys[lo] !== k) return;
  const list = docs.range(start[lo] as number, start[lo + 1] as number);
  for (let i = 0; i < list.length; i++) visit(list[i] as number);
}

/**
 * Every document that can be `text` written with other spacing (joined length within one, same head or
 * tail), passed to `visit` (a document may come twice: once by its head, once by its tail).
 */
export function spacingCandidates(index: SpacingIndex, text: string, visit: (doc: number) => void): void {
  const n = text.length;
  if (n + 1 < MIN_JOINED) return;
  const head = endHash(text, 0);
  const tail = endHash(text, Math.max(0, n - 3));
  for (let length = n - 1; length <= n + 1; length++) {
    if (Math.max(length, n) < MIN_JOINED) continue;
    visitKey(index.headKeys, index.headStart, index.headDocs, key(length, head), visit);
    visitKey(index.tailKeys, index.tailStart, index.tailDocs, key(length, tail), visit);
  }
}
