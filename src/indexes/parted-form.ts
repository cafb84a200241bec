/**
 * The saved form of a search index kept in parts read on first access: each facet and each named
 * column is stored apart (`SavedForm.lazy` in `persist.ts`), and the root holds the rest (sizes,
 * flags). A first request reads only the parts its filters touch: a fetch by country reads one facet,
 * not the twenty others and the stats columns (at 1M businesses the business index is ~180 MB, and
 * reading a blob out of SQLite costs milliseconds per MB).
 */
import type { Facet } from './facet.js';
import type { SavedForm } from './persist.js';

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
