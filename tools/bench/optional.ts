/**
 * Baselines from libraries a user may have installed (DuckDB, Fuse.js, MiniSearch): imported
 * dynamically, each skipped with a note when it cannot be imported, so the command needs none of them.
 */
// Types only: erased from the output, so none of these packages is needed to run the command.
import type * as DuckDB from '@duckdb/node-api';
import type Fuse from 'fuse.js';
import type MiniSearch from 'minisearch';
import type { BusinessRowInput } from '../../src/core/match/index.js';
import type { Engine } from '../../src/engine.js';
import { companyMatchKey } from '../../src/normalise/company.js';
import type { Labelled } from './match-rows.js';
import { plainDomain } from './match-rows.js';

export interface OptionalResult {
  name: string;
  workload: string;
  rowsPerSecond: number;
  /** Share of answered rows that were right, and of labelled rows found (name rows only). */
  precision?: number;
  recall?: number;
  rows: number;
}

/** Dynamic import that answers null instead of throwing when the package is not installed. */
async function tryImport<T>(name: string): Promise<T | null> {
  try {
    return (await import(name)) as T;
  } catch {
    return null;
  }
}

interface Names {
  keys: string[];
  ids: string[];
}

function names(engine: Engine): Names {
  const keys: string[] = [];
  const ids: string[] = [];
  for (const r of engine.db.prepare('SELECT business_id, name_key FROM businesses').iterate() as Iterable<{
    business_id: string;
    name_key: string | null;
  }>) {
    if (!r.name_key) continue;
    keys.push(r.name_key);
    ids.push(r.business_id);
  }
  return { keys, ids };
}

function score(answers: (string | null)[], rows: readonly Labelled<BusinessRowInput>[]) {
  let answered = 0;
  let right = 0;
  let positives = 0;
  answers.forEach((a, i) => {
    const truth = rows[i]?.truth ?? null;
    if (truth !== null) positives++;
    if (a !== null) {
      answered++;
      if (a === truth) right++;
    }
  });
  return {
    precision: answered === 0 ? 1 : right / answered,
    recall: positives === 0 ? 1 : right / positives,
  };
}

function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const out = fn();
  return [out, performance.now() - t];
}

/**
 * Fuse.js and MiniSearch over every normalised business name, asked the name-only mixed rows (a unique
 * best hit wins), and DuckDB joining the exact-domain rows against a table of the domains. Libraries
 * that index every name in memory are skipped above `maxIndexed` businesses (minutes to build).
 */
export async function optionalBaselines(
  engine: Engine,
  nameRows: readonly Labelled<BusinessRowInput>[],
  domainRows: readonly BusinessRowInput[],
  domains: ReadonlyMap<string, string>,
  notes: string[],
  log: (message: string) => void,
  maxIndexed = 200_000,
): Promise<OptionalResult[]> {
  const out: OptionalResult[] = [];
  const count = engine.info().counts.businesses;
  const queries = nameRows.map((r) => companyMatchKey(String(r.input.name ?? '')));
  let index: Names | null = null;
  const indexed = () => (index ??= names(engine));

  const fuse = await tryImport<{ default: typeof Fuse }>('fuse.js');
  if (fuse === null) notes.push('Fuse.js not installed: its baseline was skipped (npm i fuse.js to add it)');
  else if (count > maxIndexed)
    notes.push(`Fuse.js skipped: ${count} businesses is beyond its in-memory reach`);
  else {
    log('baseline: Fuse.js over every business name');
    const { keys, ids } = indexed();
    const f = new fuse.default(keys, { includeScore: true, threshold: 0.3 });
    const sample = queries.slice(0, 100);
    const [answers, ms] = timed(() =>
      sample.map((q) => {
        const hits = f.search(q, { limit: 2 });
        const best = hits[0];
        if (best === undefined || (best.score ?? 1) > 0.2) return null;
        if (hits[1] !== undefined && (hits[1].score ?? 1) - (best.score ?? 0) < 0.02) return null;
        return ids[best.refIndex] ?? null;
      }),
    );
    out.push({
      name: 'Fuse.js',
      workload: 'business names (mixed)',
      rowsPerSecond: (sample.length / ms) * 1000,
      rows: sample.length,
      ...score(answers, nameRows.slice(0, sample.length)),
    });
  }

  const mini = await tryImport<{ default: typeof MiniSearch }>('minisearch');
  if (mini === null)
    notes.push('MiniSearch not installed: its baseline was skipped (npm i minisearch to add it)');
  else if (count > maxIndexed)
    notes.push(`MiniSearch skipped: ${count} businesses is beyond its in-memory reach`);
  else {
    log('baseline: MiniSearch over every business name');
    const { keys, ids } = indexed();
    const ms = new mini.default<{ id: number; name: string }>({
      fields: ['name'],
      searchOptions: { fuzzy: 0.2 },
    });
    ms.addAll(keys.map((name, id) => ({ id, name })));
    const sample = queries.slice(0, 300);
    const [answers, took] = timed(() =>
      sample.map((q) => {
        const hits = ms.search(q, { combineWith: 'AND' });
        const best = hits[0];
        if (best === undefined) return null;
        if (hits[1] !== undefined && hits[1].score > best.score * 0.9) return null;
        return ids[best.id as number] ?? null;
      }),
    );
    out.push({
      name: 'MiniSearch',
      workload: 'business names (mixed)',
      rowsPerSecond: (sample.length / took) * 1000,
      rows: sample.length,
      ...score(answers, nameRows.slice(0, sample.length)),
    });
  }

  const duck = await tryImport<typeof DuckDB>('@duckdb/node-api');
  if (duck === null) notes.push('DuckDB (@duckdb/node-api) not installed: its baseline was skipped');
  else {
    log('baseline: DuckDB join of the exact-domain rows');
    const instance = await duck.DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      await conn.run('CREATE TABLE d (domain VARCHAR, id VARCHAR)');
      const app = await conn.createAppender('d');
      for (const [domain, id] of domains) {
        app.appendVarchar(domain);
        app.appendVarchar(id);
        app.endRow();
      }
      app.closeSync();
      const batch = 1000;
      const keys = domainRows.map((r) => plainDomain(String(r.domain ?? '')).replace(/'/g, "''"));
      const t = performance.now();
      for (let i = 0; i < keys.length; i += batch) {
        const values = keys
          .slice(i, i + batch)
          .map((k, j) => `('${k}', ${j})`)
          .join(', ');
        await conn.runAndReadAll(
          `SELECT q.i, d.id FROM (VALUES ${values}) q(k, i) LEFT JOIN d ON d.domain = q.k ORDER BY q.i`,
        );
      }
      out.push({
        name: 'DuckDB',
        workload: 'business exact domains',
        rowsPerSecond: (keys.length / (performance.now() - t)) * 1000,
        rows: keys.length,
      });
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
  return out;
}
