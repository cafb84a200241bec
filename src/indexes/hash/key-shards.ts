/**
 * A key table cut into shards by key hash, for its saved form: a lookup reads only the shard its key
 * hashes to. At 5M prospects the e-mail table is ~360 MB, and a process that answers a 50-row match by
 * e-mail would otherwise copy all of it out of the file first (milliseconds per MB); in 4,096 shards
 * it reads fifty of ~90 KB. A table built in this process stays whole ({@link KeyIndex}); both answer
 * through {@link KeyLookup}, with the same positions in the same order.
 */
import { KeyIndex, KeyIndexBuilder } from './key-index.js';
import { hashFolded, hashString } from './string-hash.js';

/** Shards read as they are asked for (a saved field's parts, see `SavedForm.listed` in `persist.ts`). */
export interface Shards {
  readonly length: number;
  at(i: number): KeyIndex;
  isRead(i: number): boolean;
}

/** What the matchers read of a key table: a whole {@link KeyIndex} or its {@link KeyShards}. */
export interface KeyLookup {
  /** Number of distinct keys. */
  readonly size: number;
  /** Bytes held by the arrays. */
  readonly byteLength: number;
  get(key: string): number[];
  only(key: string): number;
  onlyFolded(s: string, start: number, end: number): number;
  has(key: string): boolean;
  entries(): IterableIterator<[string, number[]]>;
}

/** Bytes a shard aims at: small enough that a lookup's read is cheap, few enough rows in the file. */
const SHARD_BYTES = 96 << 10;
const MAX_SHARD_BITS = 12;

/** Shard of hash `h` among 2^`bits` shards: its high bits (the table inside probes by its low bits). */
function shardOf(h: number, bits: number): number {
  return bits === 0 ? 0 : h >>> (32 - bits);
}

/** How many bits of a key's hash pick its shard in a table of `bytes`: shards of about `shardBytes`. */
function shardBits(bytes: number, shardBytes: number): number {
  let bits = 0;
  while (bits < MAX_SHARD_BITS && bytes / 2 ** bits > shardBytes) bits++;
  return bits;
}

/**
 * `index` cut into 2^k shards of about `shardBytes` each (at most 4,096): shard `s` holds the keys
 * whose hash's high bits are `s`, each with its positions in their order. Shards already cut that way
 * (a delta's carried table, {@link carryShards}) are kept as they are.
 */
export function splitKeys(index: KeyLookup, shardBytes = SHARD_BYTES): KeyIndex[] {
  const bits = shardBits(index.byteLength, shardBytes);
  if (index instanceof KeyIndex) return index.splitByHash(bits);
  if (index instanceof KeyShards && index.shardCount === 2 ** bits) return index.parts();
  const builders = Array.from({ length: 2 ** bits }, () => new KeyIndexBuilder());
  for (const [key, positions] of index.entries()) {
    const b = builders[shardOf(hashString(key), bits)] as KeyIndexBuilder;
    for (const p of positions) b.add(key, p);
  }
  return builders.map((b) => b.finish());
}

/**
 * A table cut into `parts` (as {@link splitKeys} cuts it) after a delta: each position moved by `moved`
 * (-1: dropped; kept positions keep their order), then the pairs of `addedKeys` and `addedPositions`
 * added. Each shard is carried on its own (a key's hash, and so its shard, does not change) and each
 * added key joins its shard, so no whole table is built and cut again: at 1M prospects that cutting
 * was ~0.6 s of a delta's build. A key's positions ascend, as a build from every row gives them.
 * `undefined` when the result is of a size {@link splitKeys} would cut into another number of shards
 * (the caller builds the whole table instead).
 */
export function carryShards(
  parts: readonly KeyIndex[],
  moved: (position: number) => number,
  addedKeys: readonly string[],
  addedPositions: readonly number[],
  shardBytes = SHARD_BYTES,
): KeyShards | undefined {
  const n = parts.length;
  if (!(n >= 1 && (n & (n - 1)) === 0)) return undefined;
  const bits = Math.log2(n);
  const added: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < addedKeys.length; i++)
    added[shardOf(hashString(addedKeys[i] as string), bits)]!.push(i);
  const shards = parts.map((part, s) => {
    const mine = added[s]!;
    const builder = new KeyIndexBuilder(part.size + mine.length, part.unitCount);
    part.carryInto(builder, moved);
    for (const i of mine) builder.add(addedKeys[i] as string, addedPositions[i] as number);
    return builder.finish(true);
  });
  let bytes = 0;
  for (const shard of shards) bytes += shard.byteLength;
  if (shardBits(bytes, shardBytes) !== bits) return undefined;
  return new KeyShards({ length: n, at: (i) => shards[i]!, isRead: () => true });
}

export class KeyShards implements KeyLookup {
  private readonly bits: number;

  /** Over the shards {@link splitKeys} made (their count a power of two), read as they are asked for. */
  constructor(private readonly shards: Shards) {
    const n = shards.length;
    if (!(n >= 1 && (n & (n - 1)) === 0)) throw new Error(`KeyShards: ${n} shards is not a power of two`);
    this.bits = Math.log2(n);
  }

  /** How many shards the table is cut into. */
  get shardCount(): number {
    return this.shards.length;
  }

  /** How many shards are in memory (read so far). */
  get shardsRead(): number {
    let n = 0;
    for (let s = 0; s < this.shards.length; s++) if (this.shards.isRead(s)) n++;
    return n;
  }

  /** Number of distinct keys (reads every shard). */
  get size(): number {
    let n = 0;
    for (let s = 0; s < this.shards.length; s++) n += this.shards.at(s).size;
    return n;
  }

  /** Bytes held by the arrays (reads every shard). */
  get byteLength(): number {
    let n = 0;
    for (let s = 0; s < this.shards.length; s++) n += this.shards.at(s).byteLength;
    return n;
  }

  get(key: string): number[] {
    return this.shard(hashString(key)).get(key);
  }

  only(key: string): number {
    return this.shard(hashString(key)).only(key);
  }

  onlyFolded(s: string, start: number, end: number): number {
    return this.shard(hashFolded(s, start, end)).onlyFolded(s, start, end);
  }

  has(key: string): boolean {
    return this.shard(hashString(key)).has(key);
  }

  /** Every key with its positions, shard by shard (reads every shard). */
  *entries(): IterableIterator<[string, number[]]> {
    for (let s = 0; s < this.shards.length; s++) yield* this.shards.at(s).entries();
  }

  /** @internal Every shard (reads them all). */
  parts(): KeyIndex[] {
    return Array.from({ length: this.shards.length }, (_, s) => this.shards.at(s));
  }

  private shard(h: number): KeyIndex {
    return this.shards.at(shardOf(h, this.bits));
  }
}
