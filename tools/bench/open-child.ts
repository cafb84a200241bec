/**
 * Run by `prospectdb bench` in a fresh process over the database (read-only). First the baseline: a plain
 * better-sqlite3 connection answers the same first page with its count (time, then RSS); then the engine
 * opens and times its first answers: a fetch (reads the saved search indexes), a business match and a
 * prospect match (build the match indexes); RSS last, with every index warm.
 * Prints one JSON line: `{openMs, firstFetchMs, firstMatchMs, baselineMs, rss, baselineRss, startRss}`.
 */
import Database from 'better-sqlite3';
import { matchBusinessRows, matchProspectRows } from '../../src/core/match/index.js';
import { fetchProspects } from '../../src/core/fetch.js';
import { openEngine } from '../../src/engine.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: open-child.js DB');
const startRss = process.memoryUsage().rss;
// Baseline: a plain better-sqlite3 connection and the same first page with its count, over the same file.
let t = performance.now();
const plain = new Database(path, { readonly: true });
plain.prepare('SELECT wire FROM prospects WHERE has_email = 1 ORDER BY rowid LIMIT 100').all();
plain.prepare('SELECT count(*) FROM prospects WHERE has_email = 1').get();
const baselineMs = performance.now() - t;
plain.close();
const baselineRss = process.memoryUsage().rss;
t = performance.now();
const engine = openEngine({ path, readonly: true });
const openMs = performance.now() - t;
t = performance.now();
fetchProspects(
  engine,
  { mode: 'full', page: 1, page_size: 100, filters: { has_contact_details: { value: 'email' } } },
  1,
);
const firstFetchMs = performance.now() - t;
const name = engine.db.prepare('SELECT name FROM businesses LIMIT 1').pluck().get() as string | undefined;
t = performance.now();
matchBusinessRows(engine, [{ name: name ?? 'Acme' }]);
matchProspectRows(engine, [{ full_name: 'Jane Doe', company_name: name ?? 'Acme' }]);
const firstMatchMs = performance.now() - t;
const rss = process.memoryUsage().rss;
engine.close();
process.stdout.write(
  JSON.stringify({ openMs, firstFetchMs, firstMatchMs, baselineMs, rss, baselineRss, startRss }) + '\n',
);
