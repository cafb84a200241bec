/**
 * Names by the ends of their joined form (words written without spaces), for finding a name written
 * with other spacing ("Acme Robotics" / "AcmeRobotics") without reading every name that shares a word.
 * Two joined forms at most one edit apart (substitution, insertion, deletion or adjacent transposition)
 * and at least 8 characters long share their first three or their last three characters: an edit in the
 * first three leaves the last three in place, and a transposition cannot reach both ends. So the names
 * of joined length L - 1 .. L + 1 whose head or tail matches the query's are the only ones that can be a
 * spacing variant of a query of joined length L (the scorer's joined similarity needs 8 characters).
 */

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
  /** (joined length, head or tail hash) → documents, ascending. */
  readonly byHead: ReadonlyMap<number, number[]>;
  readonly byTail: ReadonlyMap<number, number[]>;
}

const key = (length: number, hash: number) => length * 0x100000000 + (hash >>> 0);

export function buildSpacingIndex(joined: Uint16Array, head: Int32Array, tail: Int32Array): SpacingIndex {
  const byHead = new Map<number, number[]>();
  const byTail = new Map<number, number[]>();
  const add = (map: Map<number, number[]>, k: number, doc: number) => {
    const list = map.get(k);
    if (list === undefined) map.set(k, [doc]);
    else list.push(doc);
  };
  for (let doc = 0; doc < joined.length; doc++) {
    const length = joined[doc] as number;
    if (length < MIN_JOINED - 1) continue;
    add(byHead, key(length, head[doc] as number), doc);
    add(byTail, key(length, tail[doc] as number), doc);
  }
  return { byHead, byTail };
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
    for (const doc of index.byHead.get(key(length, head)) ?? []) visit(doc);
    for (const doc of index.byTail.get(key(length, tail)) ?? []) visit(doc);
  }
}
