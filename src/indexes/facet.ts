/**
 * A facet: the distinct values of one field, each with its posting list over rowids. Keys are the
 * normalised form a filter looks up (lower-cased code, folded text, company key …); labels keep the
 * first spelling seen, for autocomplete and stats. A phrase facet adds a word → value index so a
 * phrase inside a value ("machine learning" in "Machine Learning Engineer") finds its values without
 * scanning rows.
 */
import { foldText } from '../normalise/index.js';
import { Bitset, PostingBuilder, orInto, type Posting } from './bitset.js';

export interface Facet {
  readonly keys: ReadonlyMap<string, number>;
  readonly labels: readonly string[];
  readonly postings: readonly Posting[];
  /** Rows holding each value. */
  readonly counts: Uint32Array;
  /** Word → ids of the values holding that word, ascending (phrase facets only). */
  readonly words?: ReadonlyMap<string, Uint32Array>;
}

export class FacetBuilder {
  private readonly keys = new Map<string, number>();
  private readonly labels: string[] = [];
  private readonly builders: PostingBuilder[] = [];

  /** Adds `row` under `key` (rows must arrive in ascending order). Returns the value id. */
  add(key: string, label: string, row: number): number {
    const id = this.idOf(key, label);
    this.builders[id]!.push(row);
    return id;
  }

  /** The rows of value `key` so far, to push later rows to (ascending), as {@link add} does. */
  posting(key: string, label: string): PostingBuilder {
    return this.builders[this.idOf(key, label)]!;
  }

  /** The id of value `key`; a new one, labelled `label`, when `key` is not met yet (ids in that order). */
  private idOf(key: string, label: string): number {
    let id = this.keys.get(key);
    if (id === undefined) {
      id = this.labels.length;
      this.keys.set(key, id);
      this.labels.push(label);
      this.builders.push(new PostingBuilder());
    }
    return id;
  }

  finish(size: number, phrase = false): Facet {
    const postings = this.builders.map((b) => b.finish(size));
    const counts = Uint32Array.from(this.builders, (b) => b.length);
    if (!phrase) return { keys: this.keys, labels: this.labels, postings, counts };
    return { keys: this.keys, labels: this.labels, postings, counts, words: phraseWords(this.keys) };
  }
}

/** A phrase facet's word index: each word of its keys → the ids of the values holding it, ascending. */
export function phraseWords(keys: ReadonlyMap<string, number>): Map<string, Uint32Array> {
  const words = new Map<string, number[]>();
  for (const [key, id] of keys) {
    for (const w of new Set(key.split(' '))) {
      if (!w) continue;
      let list = words.get(w);
      if (!list) words.set(w, (list = []));
      list.push(id);
    }
  }
  const frozen = new Map<string, Uint32Array>();
  for (const [w, ids] of words) frozen.set(w, Uint32Array.from(ids).sort());
  return frozen;
}

/** Value ids whose folded key contains the folded phrase as whole words. */
export function phraseValues(facet: Facet, phrase: string): number[] {
  const folded = foldText(phrase);
  if (!folded) return [];
  const exact = facet.keys.get(folded);
  const ws = folded.split(' ');
  if (!facet.words) return exact === undefined ? [] : [exact];
  let shortest: Uint32Array | undefined;
  for (const w of ws) {
    const list = facet.words.get(w);
    if (!list) return [];
    if (!shortest || list.length < shortest.length) shortest = list;
  }
  if (!shortest) return [];
  if (ws.length === 1) return Array.from(shortest);
  const needle = ` ${folded} `;
  const keyOf = keysById(facet);
  const out: number[] = [];
  for (const id of shortest) if (` ${keyOf[id]} `.includes(needle)) out.push(id);
  return out;
}

// Cache: a view derived from a facet, keyed by the facet (dropped with it when its data version goes).
const keyArrays = new WeakMap<Facet, string[]>();
/** Folded key of each value id (built once per facet). */
export function keysById(facet: Facet): string[] {
  let arr = keyArrays.get(facet);
  if (!arr) {
    arr = new Array<string>(facet.labels.length);
    for (const [k, id] of facet.keys) arr[id] = k;
    keyArrays.set(facet, arr);
  }
  return arr;
}

/** OR of the postings of the given value ids. */
export function unionValues(facet: Facet, ids: Iterable<number>, size: number, into?: Bitset): Bitset {
  const out = into ?? new Bitset(size);
  for (const id of ids) {
    const p = facet.postings[id];
    if (p) orInto(out, p);
  }
  return out;
}

/** OR of the postings of exact keys (unknown keys match nothing). */
export function unionKeys(facet: Facet, keys: Iterable<string>, size: number, into?: Bitset): Bitset {
  const out = into ?? new Bitset(size);
  for (const k of keys) {
    const id = facet.keys.get(k);
    if (id !== undefined) orInto(out, facet.postings[id]!);
  }
  return out;
}
