/**
 * Run by `bench/open.bench.ts` in a fresh process: imports the engine from a build directory (compiled
 * JS, so today's build and a baseline build are timed alike), opens DB read-only and answers one first
 * request of KIND. Prints one JSON line: milliseconds since the process started at the end of the import,
 * the open and the answer, the answer's size (so it is known to be real) and RSS.
 *
 *   node open-first-child.js DIST DB KIND ROWS_JSON
 *   KIND: fetch | stats | autocomplete | business-match | prospect-match
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, db, what, rowsFile] = process.argv.slice(2);
if (dist === undefined || db === undefined || what === undefined || rowsFile === undefined)
  throw new Error('usage: open-first-child.js DIST DB KIND ROWS_JSON');
const rows = JSON.parse(readFileSync(rowsFile, 'utf8')) as {
  businesses: { name: string }[];
  prospects: { full_name: string; company_name: string }[];
};
const load = (path: string) => import(pathToFileURL(join(dist, path)).href) as Promise<Record<string, never>>;

const { openEngine } = (await load('engine.js')) as unknown as {
  openEngine(o: { path: string; readonly: boolean }): { close(): void };
};
const answer: Record<string, () => Promise<unknown>> = {
  fetch: async () => {
    const { fetchProspects } = (await load('core/fetch.js')) as unknown as {
      fetchProspects(e: unknown, r: unknown, v: number): { data: unknown[] };
    };
    const filters = { has_contact_details: { value: 'email' } };
    return fetchProspects(engine, { mode: 'full', page: 1, page_size: 100, filters }, 1).data.length;
  },
  stats: async () => {
    const { prospectStats } = (await load('core/stats.js')) as unknown as {
      prospectStats(e: unknown, r: unknown): unknown;
    };
    return JSON.stringify(prospectStats(engine, { filters: { job_level: { values: ['manager'] } } })).length;
  },
  autocomplete: async () => {
    const { autocomplete } = (await load('core/autocomplete.js')) as unknown as {
      autocomplete(e: unknown, q: unknown): unknown[];
    };
    const word = (rows.businesses[0]?.name ?? 'acme').split(' ')[0]!.slice(0, 4);
    return autocomplete(engine, { field: 'company_name', query: word, semantic_search: false }).length;
  },
  'business-match': async () => {
    const { matchBusinessRows } = (await load('core/match/index.js')) as unknown as {
      matchBusinessRows(e: unknown, r: unknown): { business_id: string | null }[];
    };
    return matchBusinessRows(engine, rows.businesses).filter((r) => r.business_id !== null).length;
  },
  'prospect-match': async () => {
    const { matchProspectRows } = (await load('core/match/index.js')) as unknown as {
      matchProspectRows(e: unknown, r: unknown): { prospect_id: string | null }[];
    };
    return matchProspectRows(engine, rows.prospects).filter((r) => r.prospect_id !== null).length;
  },
};
const run = answer[what];
if (run === undefined) throw new Error(`unknown kind ${what}`);
const importMs = performance.now();
const engine = openEngine({ path: db, readonly: true });
const openMs = performance.now();
const size = await run();
const answerMs = performance.now();
const rss = process.memoryUsage().rss;
engine.close();
process.stdout.write(JSON.stringify({ importMs, openMs, answerMs, size, rss }) + '\n');
