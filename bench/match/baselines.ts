/**
 * Baselines the match engine is measured against, on the same rows and the same normalised keys:
 * a plain Map of exact keys (the throughput upper bound), a DuckDB batch SQL match (blocked candidates
 * re-ranked with jaro_winkler_similarity), and Fuse.js / MiniSearch fuzzy name search.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import Fuse from 'fuse.js';
import MiniSearch from 'minisearch';
import type { BusinessRowInput } from '../../src/core/match/index.js';
import type { BusinessMatchIndex } from '../../src/indexes/match/businesses.js';
import type { StringColumn } from '../../src/indexes/format/strings.js';
import { companyMatchKey, linkedinCompanySlug, normaliseDomain } from '../../src/normalise/index.js';

/** Exact keys of a row: domain (or URL) → host/registrable, profile slug, name key. */
interface RowKeys {
  domain: string | null;
  host: string | null;
  slug: string | null;
  key: string | null;
}

export function rowKeys(r: BusinessRowInput): RowKeys {
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  const d = normaliseDomain(str(r.domain)) ?? normaliseDomain(str(r.url));
  const name = str(r.name);
  return {
    domain: d?.registrable ?? null,
    host: d?.host ?? null,
    slug: linkedinCompanySlug(str(r.linkedin_url)),
    key: name === null ? null : companyMatchKey(name) || null,
  };
}

/** The Map baseline: the first exact key that names exactly one business. */
export function mapMatcher(
  index: BusinessMatchIndex,
  ids: StringColumn,
): (rows: readonly BusinessRowInput[]) => (string | null)[] {
  const domain = new Map<string, number>();
  const linkedin = new Map<string, number>();
  const name = new Map<string, number>();
  const put = (m: Map<string, number>, k: string | null, pos: number) => {
    if (k) m.set(k, m.has(k) ? -1 : pos);
  };
  for (let i = 0; i < index.size; i++) {
    put(domain, index.domains.at(i) ?? null, i);
    put(linkedin, index.linkedin.at(i) ?? null, i);
    put(name, index.nameKeys.at(i) ?? null, i);
  }
  return (rows) =>
    rows.map((r) => {
      const k = rowKeys(r);
      for (const [m, key] of [
        [linkedin, k.slug],
        [domain, k.domain],
        [name, k.key],
      ] as const) {
        const pos = key ? m.get(key) : undefined;
        if (pos !== undefined && pos >= 0) return ids.at(pos) as string;
      }
      return null;
    });
}

/**
 * DuckDB batch SQL: exact domain / profile / name-key joins, then candidates blocked on pairs of token
 * prefixes (the first 3 characters of two of the name's words; one prefix for one-word names), re-ranked
 * with jaro_winkler_similarity; a unique best ≥ 0.93 wins. Blocking on single prefixes joined each query
 * with hundreds of thousands of names at 1M businesses (45 rows/s at 100k); prefix pairs keep blocks
 * small and still find a name with a typo in one word when another two words are intact or the typo is
 * past the third letter.
 */
export async function duckdbMatcher(
  index: BusinessMatchIndex,
  ids: StringColumn,
): Promise<{ match: (rows: readonly BusinessRowInput[]) => Promise<(string | null)[]>; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(`CREATE TABLE biz (pos INTEGER, name_key VARCHAR, domain VARCHAR, slug VARCHAR)`);
  const app = await conn.createAppender('biz');
  for (let i = 0; i < index.size; i++) {
    app.appendInteger(i);
    app.appendVarchar(index.nameKeys.at(i) as string);
    const d = index.domains.at(i);
    if (d) app.appendVarchar(d);
    else app.appendNull();
    const s = index.linkedin.at(i);
    if (s) app.appendVarchar(s);
    else app.appendNull();
    app.endRow();
  }
  app.closeSync();
  await conn.run(
    `CREATE TABLE toks AS SELECT DISTINCT pos, left(unnest(string_split(name_key, ' ')), 3) AS p FROM biz`,
  );
  await conn.run(`
    CREATE TABLE blocks AS
      SELECT a.pos, a.p || '|' || b.p AS blk FROM toks a JOIN toks b ON a.pos = b.pos AND a.p < b.p
      UNION ALL
      SELECT pos, any_value(p) AS blk FROM toks GROUP BY pos HAVING count(*) = 1`);
  return {
    async match(rows) {
      await conn.run('DROP TABLE IF EXISTS q');
      await conn.run('CREATE TABLE q (i INTEGER, key VARCHAR, domain VARCHAR, slug VARCHAR)');
      const qa = await conn.createAppender('q');
      rows.forEach((r, i) => {
        const k = rowKeys(r);
        qa.appendInteger(i);
        for (const v of [k.key, k.domain, k.slug]) {
          if (v) qa.appendVarchar(v);
          else qa.appendNull();
        }
        qa.endRow();
      });
      qa.closeSync();
      const sql = `
        WITH exact AS (
          SELECT q.i, min(b.pos) AS pos, count(*) AS n FROM q JOIN biz b
            ON (q.slug = b.slug) OR (q.slug IS NULL AND q.domain = b.domain)
          GROUP BY q.i
        ),
        named AS (
          SELECT q.i, min(b.pos) AS pos, count(*) AS n FROM q JOIN biz b ON q.key = b.name_key
          WHERE q.i NOT IN (SELECT i FROM exact) AND q.domain IS NULL AND q.slug IS NULL
          GROUP BY q.i
        ),
        qt AS (
          SELECT DISTINCT i, key, left(unnest(string_split(key, ' ')), 3) AS p FROM q
          WHERE key IS NOT NULL AND domain IS NULL AND slug IS NULL
            AND i NOT IN (SELECT i FROM exact) AND i NOT IN (SELECT i FROM named)
        ),
        qb AS (
          SELECT a.i, a.key, a.p || '|' || b.p AS blk FROM qt a JOIN qt b ON a.i = b.i AND a.p < b.p
          UNION ALL
          SELECT i, any_value(key), any_value(p) FROM qt GROUP BY i HAVING count(*) = 1
        ),
        cand AS (
          SELECT DISTINCT qb.i, qb.key, bl.pos FROM qb JOIN blocks bl ON qb.blk = bl.blk
        ),
        scored AS (
          SELECT c.i, c.pos, jaro_winkler_similarity(c.key, b.name_key) AS s FROM cand c JOIN biz b ON b.pos = c.pos
        ),
        ranked AS (
          SELECT i, pos, s, row_number() OVER (PARTITION BY i ORDER BY s DESC, pos) AS r,
                 count(*) FILTER (WHERE s >= 0.93) OVER (PARTITION BY i) AS good FROM scored
        )
        SELECT i, pos FROM exact WHERE n = 1
        UNION ALL SELECT i, pos FROM named WHERE n = 1
        UNION ALL SELECT i, pos FROM ranked WHERE r = 1 AND s >= 0.93 AND good = 1`;
      const reader = await conn.runAndReadAll(sql);
      const out: (string | null)[] = rows.map(() => null);
      for (const [i, pos] of reader.getRows() as [number, number][]) out[i] = ids.at(pos) as string;
      return out;
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

/** Fuse.js over every name key (exact keys through the Map first); a unique best with score ≤ 0.2 wins. */
export function fuseMatcher(
  index: BusinessMatchIndex,
  ids: StringColumn,
): (rows: readonly BusinessRowInput[]) => (string | null)[] {
  const map = mapMatcher(index, ids);
  const fuse = new Fuse(index.nameKeys as string[], { includeScore: true, threshold: 0.3 });
  return (rows) =>
    rows.map((r, i) => {
      const exact = map([r])[0] ?? null;
      if (exact !== null) return exact;
      const k = rowKeys(r);
      if (k.key === null || k.domain !== null || k.slug !== null) return null;
      const hits = fuse.search(k.key, { limit: 2 });
      const best = hits[0];
      if (best === undefined || (best.score ?? 1) > 0.2) return null;
      if (hits[1] !== undefined && (hits[1].score ?? 1) - (best.score ?? 0) < 0.02) return null;
      void i;
      return ids.at(best.refIndex) as string;
    });
}

/** MiniSearch (fuzzy 0.2, prefix) over every name key, re-ranked by nothing else; unique best wins. */
export function miniSearchMatcher(
  index: BusinessMatchIndex,
  ids: StringColumn,
): (rows: readonly BusinessRowInput[]) => (string | null)[] {
  const map = mapMatcher(index, ids);
  const ms = new MiniSearch<{ id: number; name: string }>({
    fields: ['name'],
    searchOptions: { fuzzy: 0.2 },
  });
  ms.addAll(Array.from({ length: index.size }, (_, id) => ({ id, name: index.nameKeys.at(id) as string })));
  return (rows) =>
    rows.map((r) => {
      const exact = map([r])[0] ?? null;
      if (exact !== null) return exact;
      const k = rowKeys(r);
      if (k.key === null || k.domain !== null || k.slug !== null) return null;
      const hits = ms.search(k.key, { combineWith: 'AND' });
      const best = hits[0];
      if (best === undefined) return null;
      if (hits[1] !== undefined && hits[1].score > best.score * 0.9) return null;
      return ids.at(best.id as number) as string;
    });
}
