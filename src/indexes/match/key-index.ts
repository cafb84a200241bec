/**
 * Exact key → dense positions, for the match indexes: the open-addressing table in typed arrays of
 * `indexes/hash` (built with {@link KeyIndexBuilder}, immutable afterwards, saved as typed-array sections).
 */
export { KeyIndex, KeyIndexBuilder } from '../hash/key-index.js';
