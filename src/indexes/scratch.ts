/**
 * Bitsets lent for the span of one request and given back, so a request allocates no fresh buffers.
 * At 1M rows a fetch or stats request took ~1 MB of new 125 KB buffers, and that external memory made
 * V8 run a full mark-compact of the ~135 MB of index objects every ~0.4 s (15–40 ms each): the tail of
 * the latency was those pauses. Only lent bitsets can be given back (a WeakSet tells them apart), so an
 * index's own bitset handed to `release` by mistake is left alone, and a lent one never given back is
 * ordinary garbage.
 */
import { Bitset } from './bitset.js';

/** Free buffers by word count; a few per size is all one synchronous request needs. */
const free = new Map<number, Uint32Array[]>();
const FREE_PER_SIZE = 8;
const lent = new WeakSet<Bitset>();

/** An empty bitset of `size` bits, to `release` when done. */
export function borrow(size: number): Bitset {
  const words = free.get((size + 31) >>> 5)?.pop();
  if (words) words.fill(0);
  const b = new Bitset(size, words);
  lent.add(b);
  return b;
}

/** A copy of `source`, to `release` when done. */
export function borrowCopy(source: Bitset): Bitset {
  const words = free.get(source.words.length)?.pop();
  const b = words ? (words.set(source.words), new Bitset(source.size, words)) : source.clone();
  lent.add(b);
  return b;
}

/** Gives lent bitsets back (anything else is ignored). The caller must not use them afterwards. */
export function release(...bitsets: (Bitset | undefined)[]): void {
  for (const b of bitsets) {
    if (!b || !lent.delete(b)) continue;
    let list = free.get(b.words.length);
    if (!list) free.set(b.words.length, (list = []));
    if (list.length < FREE_PER_SIZE) list.push(b.words);
  }
}
