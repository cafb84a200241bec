/**
 * The saved form of a search index kept in parts read on first access: each facet and each named
 * column is stored apart (`SavedForm.lazy` in `persist.ts`), and the root holds the rest (sizes,
 * flags). A first request reads only the parts its filters touch: a fetch by country reads one facet,
 * not the twenty others and the stats columns (at 1M businesses the business index is ~180 MB, and
 * reading a blob out of SQLite costs milliseconds per MB).
 */
import type { Facet } from './facet.js';
import { KeyIndex, KeyShards, splitKeys, type KeyLookup } from './hash/index.js';
import { intPages, PagedInts, type IntColumn } from './format/ints.js';
import { PagedStrings, StringList, stringPages, type NullableStringColumn } from './format/strings.js';
import type { PartList, SavedForm } from './persist.js';

const isObject = (v: unknown) => typeof v === 'object' && v !== null;

/**
 * The parted form of an index `{ facets: { [name]: Facet }, ...root, ...parts }`: `facets` names the
 * facets, `parts` the other fields stored apart; `check` tells a root of the right shape (a saved
 * root of another shape is rebuilt).
 */
export function partedForm<T extends { facets: object }>(
  label: string,
  facets: readonly string[],
  parts: readonly string[],
  check: (root: Record<string, unknown>) => boolean,
): SavedForm<T> {
  const lazy = [...facets.map((f) => `facet_${f}`), ...parts];
  return {
    save: (index) => {
      const { facets: byName, ...rest } = index as { facets: Record<string, Facet> };
      const out: Record<string, unknown> = { ...rest };
      for (const name of facets) out[`facet_${name}`] = byName[name];
      return out;
    },
    open: (tree) => {
      const t = tree as Record<string, unknown>;
      if (!check(t)) throw new Error(`${label}: saved form of another shape`);
      const byName = {};
      for (const name of facets)
        Object.defineProperty(byName, name, { get: () => t[`facet_${name}`], enumerable: true });
      const index: Record<string, unknown> = { facets: byName };
      // The root's own fields as they are; the parts through getters, so nothing is read until asked.
      for (const key of Object.keys(t)) if (!lazy.includes(key)) index[key] = t[key];
      for (const part of parts) Object.defineProperty(index, part, { get: () => t[part], enumerable: true });
      return index as T;
    },
    lazy: Object.fromEntries(lazy.map((k) => [k, isObject])),
  };
}

/** What {@link splitForm} saves in parts. */
export interface SplitFields {
  /** Key tables, saved in shards by key hash (`hash/key-shards.ts`). */
  keys?: readonly string[];
  /** Bytes a key shard aims at (the default of `splitKeys` when not given). */
  shardBytes?: number;
  /** String columns, saved in pages of 2^{@link PAGE_BITS} entries ({@link PagedStrings}). */
  columns?: readonly string[];
  /** Integer columns ({@link IntColumn}), saved in pages of 2^`intBits` entries. */
  ints?: readonly string[];
  /** Entries per page of the integer columns, as a power of two: {@link INT_PAGE_BITS} by default. */
  intBits?: number;
}

/** Entries per page of a paged column: 4,096 (a page of names is ~100 KB). */
export const PAGE_BITS = 12;
/** Entries per page of a paged integer column: 16,384 (64 KB). */
export const INT_PAGE_BITS = 14;

/**
 * `form` with its large fields saved in parts, each read on first access: key tables in shards by key
 * hash (a 50-row match by e-mail reads fifty small shards, not the whole table) and string columns in
 * pages by position (a match reads the pages of its candidates). The index built in this process keeps
 * its whole fields; the reopened one answers through {@link KeyShards}, {@link PagedStrings} and {@link PagedInts}.
 */
export function splitForm<T>(
  form: SavedForm<T>,
  { keys = [], shardBytes, columns = [], ints = [], intBits = INT_PAGE_BITS }: SplitFields,
): SavedForm<T> {
  const split = [...keys, ...columns, ...ints];
  const lazy = Object.fromEntries(Object.entries(form.lazy ?? {}).filter(([k]) => !split.includes(k)));
  return {
    save: (index) => {
      // A copy: `form.save` may hand back the index itself, whose whole fields stay in use.
      const tree = { ...(form.save(index) as Record<string, unknown>) };
      for (const f of keys) tree[f] = splitKeys(tree[f] as KeyLookup, shardBytes);
      const lengths: Record<string, number> = {};
      for (const f of columns) {
        const list = tree[f] as NullableStringColumn;
        lengths[f] = list.length;
        tree[f] = stringPages(list, PAGE_BITS);
      }
      for (const f of ints) {
        const column = tree[f] as IntColumn;
        lengths[f] = column.length;
        tree[f] = intPages(column, intBits);
      }
      if (columns.length + ints.length > 0) tree.pagedLengths = lengths;
      return tree;
    },
    open: (tree) => {
      const t = tree as Record<string, unknown>;
      for (const f of keys) t[f] = new KeyShards(t[f] as PartList<KeyIndex>);
      const lengths = t.pagedLengths as Record<string, number> | undefined;
      for (const f of columns) {
        const length = lengths?.[f];
        if (typeof length !== 'number') throw new Error(`${f}: saved without its length`);
        t[f] = new PagedStrings(length, t[f] as PartList<StringList>, PAGE_BITS);
      }
      for (const f of ints) {
        const length = lengths?.[f];
        if (typeof length !== 'number') throw new Error(`${f}: saved without its length`);
        t[f] = new PagedInts(length, t[f] as PartList<Int32Array>, intBits);
      }
      delete t.pagedLengths;
      return form.open(t);
    },
    lazy,
    listed: {
      ...form.listed,
      ...Object.fromEntries(keys.map((f) => [f, isKeyIndex])),
      ...Object.fromEntries(columns.map((f) => [f, isStringList])),
      ...Object.fromEntries(ints.map((f) => [f, (v: unknown) => v instanceof Int32Array])),
    },
  };
}

const isKeyIndex = (v: unknown) => v instanceof KeyIndex;
const isStringList = (v: unknown) => v instanceof StringList;
