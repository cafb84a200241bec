/** Exact-key hash tables in typed arrays (see each module). */
export { StringKeyTable, StringKeyTableBuilder, MAX_LOAD } from './string-key-table.js';
export { KeyIndex, KeyIndexBuilder } from './key-index.js';
export { carryShards, KeyShards, splitKeys, type KeyLookup } from './key-shards.js';
export { hashString } from './string-hash.js';
export type { Sections, TypedArray } from './sections.js';
