/**
 * Run by `prospectdb bench` in a fresh process: opens the database read-only and times the first answers
 * (a fetch, which reads the saved search indexes, then a business match, which builds the match index).
 * Prints one JSON line: `{openMs, firstFetchMs, firstMatchMs, baselineMs, rss}`.
 */
import Database from 'better-sqlite3';
import { matchBusinessRows } from '../core/match/index.js';
import { fetchProspects } from '../core/fetch.js';
import { openEngine } from '../engine.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: open-child.js DB');
let t = performance.now();
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
const firstMatchMs = performance.now() - t;
engine.close();
// Baseline: a plain better-sqlite3 connection and the same first page with its count, over the same file.
t = performance.now();
const plain = new Database(path, { readonly: true });
plain.prepare('SELECT wire FROM prospects WHERE has_email = 1 ORDER BY rowid LIMIT 100').all();
plain.prepare('SELECT count(*) FROM prospects WHERE has_email = 1').get();
const baselineMs = performance.now() - t;
plain.close();
process.stdout.write(
  JSON.stringify({ openMs, firstFetchMs, firstMatchMs, baselineMs, rss: process.memoryUsage().rss }) + '\n',
);
