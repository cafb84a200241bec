/**
 * Bitsets lent for the span of one request and given back, so a request allocates no fresh buffers.
 * At 1M rows a fetch or stats request took ~1 MB of new 125 KB buffers, and that external memory made
 * V8 run a full mark-compact of the ~135 MB of index objects every ~0.4 s (15–40 ms each): the tail of
 * the latency was those pauses. Only lent bitsets can be given back (a WeakSet tells them apart), so an
 * index's own bitset handed to `release` by mistake is left alone, and a lent one never given back is
 * ordinary garbage. The free buffers are the engine's (held by its context), not the module's.
 */
import { kind, type Context } from '../runtime/context.js';
import { Bitset } from './bitset.js';

/** A few free buffers per size is all one synchronous request needs. */
const FREE_PER_SIZE = 8;

/** Free buffers by word count, and the bitsets lent from them. */
class ScratchPool {
  readonly free = new Map<number, Uint32Array[]>();
  readonly lent = new WeakSet<Bitset>();
}

const SCRATCH = kind('indexes.scratch', () => new ScratchPool());

/** An empty bitset of `size` bits, to `release` when done. */
export function borrow(engine: Context, size: number): Bitset {
  const pool = engine.services.get(SCRATCH);
  const words = pool.free.get((size + 31) >>> 5)?.pop();
  if (words) words.fill(0);
  const b = new Bitset(size, words);
  pool.lent.add(b);
  return b;
}

/** A copy of `source`, to `release` when done. */
export function borrowCopy(engine: Context, source: Bitset): Bitset {
  const pool = engine.services.get(SCRATCH);
  const words = pool.free.get(source.words.length)?.pop();
  const b = words ? (words.set(source.words), new Bitset(source.size, words)) : source.clone();
  pool.lent.add(b);
  return b;
}

/** Gives lent bitsets back (anything else is ignored). The caller must not use them afterwards. */
export function release(engine: Context, ...bitsets: (Bitset | undefined)[]): void {
  const pool = engine.services.get(SCRATCH);
  for (const b of bitsets) {
    if (!b || !pool.lent.delete(b)) continue;
    let list = pool.free.get(b.words.length);
    if (!list) pool.free.set(b.words.length, (list = []));
    if (list.length < FREE_PER_SIZE) list.push(b.words);
  }
}
