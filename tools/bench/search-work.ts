/**
 * Search latency: fetch (page 1 of 100 with the total), stats, autocomplete and a cursor walk, each
 * beside plain SQLite queries over the same file (the WHERE clause a developer would write on the
 * stored columns, the employer's joined from its business; `LIKE` prefixes, `OFFSET` pages), measured
 * in the same run, interleaved.
 */
import type { Statement } from 'better-sqlite3';
import { autocomplete } from '../../src/core/autocomplete.js';
import { fetchProspects } from '../../src/core/fetch.js';
import { prospectStats } from '../../src/core/stats.js';
import type { Engine } from '../../src/engine.js';
import type { ProspectFilters } from '../../src/schemas/filters.js';
import type { AutocompleteQuery } from '../../src/schemas/search.js';
import { PROSPECTS_WITH_EMPLOYER } from '../../src/store/sql/scans.js';
import { timeEach } from './measure.js';
import { Prng } from '../rng.js';

type Filters = NonNullable<ProspectFilters>;

interface Request {
  filters: Filters;
  sql: string;
  params: (string | number)[];
}

export interface Pair {
  ours: number[];
  baseline: number[];
}

export interface SearchTimings {
  fetch: Pair;
  stats: Pair;
  autocomplete: Pair;
  cursorFirst: number[];
  cursorLast: Pair;
  /** The page number the cursor walk reached. */
  cursorPage: number;
}

/** Random requests of 1–3 filters over columns the engine stores as they are, and the same WHERE. */
function requests(engine: Engine, n: number, rng: Prng): Request[] {
  const distinct = (col: string) =>
    engine.db
      .prepare(
        `SELECT ${col} FROM ${PROSPECTS_WITH_EMPLOYER} WHERE ${col} IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 20`,
      )
      .pluck()
      .all() as string[];
  const columns: [keyof Filters, string][] = [
    ['country_code', 'country_code'],
    ['company_country_code', 'company_country_code'],
    ['company_size', 'company_size'],
    ['company_revenue', 'company_revenue'],
  ];
  const values = columns.map(([, col]) => distinct(col));
  const out: Request[] = [];
  for (let i = 0; i < n; i++) {
    const filters: Record<string, object> = {};
    const sql: string[] = [];
    const params: string[] = [];
    const k = 1 + rng.int(3);
    for (const c of new Set(Array.from({ length: k }, () => rng.int(columns.length + 1)))) {
      if (c === columns.length) {
        filters.has_contact_details = { value: 'email' };
        sql.push('has_email = 1');
        continue;
      }
      const [name, col] = columns[c] as [string, string];
      const pool = values[c] as string[];
      if (pool.length === 0) continue;
      const chosen = [...new Set(Array.from({ length: 1 + rng.int(2) }, () => rng.pick(pool)))];
      filters[name] = { values: chosen };
      sql.push(`${col} IN (${chosen.map(() => '?').join(', ')})`);
      params.push(...chosen);
    }
    if (sql.length === 0) {
      filters.has_contact_details = { value: 'email' };
      sql.push('has_email = 1');
    }
    out.push({ filters: filters as Filters, sql: sql.join(' AND '), params });
  }
  return out;
}

/**
 * Two measurements interleaved call by call, so both see the same machine. The baseline stops taking
 * samples once it has spent `budgetMs` (a plain scan can take a second per query on a large file; its
 * percentiles then come from fewer samples, at least 20).
 */
function interleaved(
  n: number,
  ours: (i: number) => unknown,
  baseline: (i: number) => unknown,
  budgetMs: number,
): Pair {
  const a: number[] = [];
  const b: number[] = [];
  ours(0);
  baseline(0);
  let spent = 0;
  for (let i = 0; i < n; i++) {
    a.push(...timeEach(1, () => ours(i), 0));
    if (spent < budgetMs || b.length < 20) {
      const [t] = timeEach(1, () => baseline(i), 0);
      b.push(t as number);
      spent += t as number;
    }
  }
  return { ours: a, baseline: b };
}

export function searchTimings(
  engine: Engine,
  n: number,
  seed: number,
  log: (message: string) => void,
  budgetMs = 5000,
): SearchTimings {
  const rng = new Prng(seed);
  const work = requests(engine, n, rng);
  const stmts = new Map<string, Statement>();
  const prep = (sql: string) => {
    let s = stmts.get(sql);
    if (s === undefined) stmts.set(sql, (s = engine.db.prepare(sql)));
    return s;
  };
  const args = (i: number) => (work[i] as Request).params;
  const where = (i: number) => (work[i] as Request).sql;

  log(`fetch: ${n} requests, page 1 of 100 records with the total`);
  const fetch = interleaved(
    n,
    (i) =>
      fetchProspects(
        engine,
        { mode: 'full', page: 1, page_size: 100, filters: (work[i] as Request).filters },
        1,
      ),
    (i) => {
      prep(`SELECT wire FROM ${PROSPECTS_WITH_EMPLOYER} WHERE ${where(i)} ORDER BY rowid LIMIT 100`).all(
        ...args(i),
      );
      prep(`SELECT count(*) FROM ${PROSPECTS_WITH_EMPLOYER} WHERE ${where(i)}`).get(...args(i));
    },
    budgetMs,
  );

  log(`stats: ${n} requests`);
  const stats = interleaved(
    n,
    (i) => prospectStats(engine, { filters: (work[i] as Request).filters }),
    (i) => {
      prep(
        `SELECT job_department, count(*) FROM ${PROSPECTS_WITH_EMPLOYER} WHERE ${where(i)} GROUP BY 1`,
      ).all(...args(i));
      prep(`SELECT country_code, count(*) FROM ${PROSPECTS_WITH_EMPLOYER} WHERE ${where(i)} GROUP BY 1`).all(
        ...args(i),
      );
      prep(`SELECT count(*) FROM ${PROSPECTS_WITH_EMPLOYER} WHERE ${where(i)}`).get(...args(i));
    },
    budgetMs,
  );

  // Autocomplete: 1–4 letter prefixes of stored values, every third with a transposition typo.
  const fields = [
    ['job_title', 'job_title'],
    ['company_name', 'company_name'],
    ['city_region_country', 'company_city_region_country'],
  ] as const;
  const max = (engine.db.prepare('SELECT max(rowid) FROM prospects').pluck().get() as number | null) ?? 1;
  const ac: { field: AutocompleteQuery['field']; col: string; query: string }[] = [];
  for (let i = 0; i < n; i++) {
    const [field, col] = fields[i % fields.length] as (typeof fields)[number];
    const value = prep(`SELECT ${col} FROM ${PROSPECTS_WITH_EMPLOYER} WHERE rowid = ?`)
      .pluck()
      .get(1 + rng.int(max)) as string | null | undefined;
    const word =
      (value ?? 'a')
        .toLowerCase()
        .replace(/[^a-z ]/g, '')
        .trim() || 'a';
    let query = word.slice(0, 1 + (i % 4));
    if (i % 3 === 0 && query.length >= 3) query = query.slice(0, -2) + query.at(-1) + query.at(-2);
    ac.push({ field, col, query });
  }
  log(`autocomplete: ${n} queries`);
  for (const [field] of fields) autocomplete(engine, { field, query: '', semantic_search: false }); // builds
  const autocompleteTimes = interleaved(
    n,
    (i) => autocomplete(engine, { field: ac[i]!.field, query: ac[i]!.query, semantic_search: false }),
    (i) =>
      prep(
        `SELECT ${ac[i]!.col} AS v, count(*) AS n FROM ${PROSPECTS_WITH_EMPLOYER} WHERE ${ac[i]!.col} LIKE ? GROUP BY 1 ORDER BY 2 DESC LIMIT 20`,
      ).all(`${ac[i]!.query}%`),
    budgetMs,
  );

  // Cursor walk: as far as 100 pages of 100, then page 1 against the last page reached.
  const walk = { mode: 'preview' as const, page_size: 100, next_cursor: null as string | null };
  type Page = { page: { next_cursor: string | null } };
  let last: string | null = null;
  let pages = 1;
  let page = fetchProspects(engine, walk, 1) as unknown as Page;
  while (pages < 100 && page.page.next_cursor) {
    last = page.page.next_cursor;
    page = fetchProspects(engine, { ...walk, next_cursor: last }, 1) as unknown as Page;
    pages++;
  }
  log(`cursor: page 1 vs page ${pages}`);
  const lastBody = { ...walk, next_cursor: last };
  const cursorLast = interleaved(
    n,
    () => fetchProspects(engine, lastBody, 1),
    () => prep('SELECT wire FROM prospects ORDER BY rowid LIMIT 100 OFFSET ?').all((pages - 1) * 100),
    budgetMs,
  );
  const cursorFirst = timeEach(n, () => fetchProspects(engine, walk, 1));
  return { fetch, stats, autocomplete: autocompleteTimes, cursorFirst, cursorLast, cursorPage: pages };
}
