/**
 * Exact key → dense positions: the open-addressing table of `indexes/hash` (typed arrays, saved with
 * the match indexes and reopened without copying).
 */
export { KeyIndex, KeyIndexBuilder } from '../hash/index.js';
