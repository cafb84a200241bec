/**
 * The search indexes a delta patches (the base's saved ones, with the rows the delta changed indexed
 * again) and the prospect match index it carries names and keys into, against the oracle: the same
 * index built from every stored row of the same file, by another connection. Compared whole: value ids
 * in order, labels, postings (rows and form), counts, phrase words, ranges, the rows of each business,
 * the stats columns, names, word postings and key tables.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndexes } from '../src/core/warm.js';
import { openEngine } from '../src/engine.js';
import { Bitset, type Posting } from '../src/indexes/bitset.js';
import { businessIndex, patchedBusinessIndex, type BusinessIndex } from '../src/indexes/businesses.js';
import type { Facet } from '../src/indexes/facet.js';
import {
  deletions,
  patchedProspectMatchRows,
  prospectMatchIndex,
  type ProspectMatchIndex,
} from '../src/indexes/match/prospects.js';
import type { MatchRows } from '../src/indexes/match/prospect-match-patch.js';
import { businessMatchIndex, type BusinessMatchIndex } from '../src/indexes/match/businesses.js';
import { patchedProspectIndex, prospectIndex, type ProspectIndex } from '../src/indexes/prospects.js';
import type { RangeIndex } from '../src/indexes/range.js';
import { DELTA_CHANGES } from '../src/store/delta-changes.js';
import { handOffProspectKeys, isKeyCarry, takeProspectKeys } from '../src/store/load-keys.js';
import { getMeta } from '../src/store/open.js';
import { generateDelta } from '../tools/generate/delta.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { tempDir } from './support/temp.js';

const rows = (b: Bitset) => {
  const out: number[] = [];
  for (let r = 0; r < b.size; r++) if (b.has(r)) out.push(r);
  return out;
};
const posting = (p: Posting) =>
  p instanceof Bitset ? { bits: p.size, rows: rows(p) } : { rows: Array.from(p) };
const facet = (f: Facet) => ({
  keys: [...f.keys],
  labels: [...f.labels],
  postings: f.postings.map(posting),
  counts: Array.from(f.counts),
  words: f.words && [...f.words].map(([w, ids]) => [w, Array.from(ids)]),
});
const range = (r: RangeIndex) => ({
  values: Array.from(r.values),
  rows: Array.from(r.rows),
  cuts: Array.from(r.cuts),
  before: r.before.map(rows),
});

/** The whole index as plain values, in the order a reader meets them. */
function plain(index: ProspectIndex) {
  return {
    size: index.size,
    all: rows(index.all),
    facets: Object.fromEntries(
      Object.entries(index.facets).map(([name, f]) => [name, facet(f as Facet)] as const),
    ),
    flags: [index.hasEmail, index.hasPhone, index.hasWebsite, index.isPublic].map(rows),
    totalExperience: range(index.totalExperience),
    currentRole: range(index.currentRole),
    byBusiness: [Array.from(index.byBusiness.start), Array.from(index.byBusiness.ids)],
    columns: [index.countryOf, index.regionOf, index.departmentOf].map((c) => Array.from(c)),
  };
}

/**
 * Real data writes one value several ways ("Dental clinic", "DENTAL CLINIC") and lists people in no
 * particular order: a value's label is the spelling of its first row, so the test spells category
 * names, job titles and skills differently from record to record and shuffles the lines (the
 * generator writes each value one way, and the people of each business together).
 */
function respell(path: string, seed: number): void {
  const spell = (v: unknown, i: number) =>
    typeof v !== 'string' ? v : [v, v.toUpperCase(), v.toLowerCase()][(seed + i * 7 + v.length) % 3];
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  for (let i = lines.length - 1; i > 0; i--) {
    const j = (seed * 7919 + i * 104_729) % (i + 1);
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  const out = lines.map((line, i) => {
    const r = JSON.parse(line) as Record<string, unknown>;
    for (const k of ['google_category', 'linkedin_category', 'skills', 'interests'])
      if (Array.isArray(r[k])) r[k] = (r[k] as unknown[]).map((v, j) => spell(v, i + j));
    if ('job_title' in r) r.job_title = spell(r.job_title, i);
    // A NAICS code's description is its first row's that has one.
    if ('naics_description' in r) r.naics_description = i % 5 === 2 ? null : spell(r.naics_description, i);
    return JSON.stringify(r);
  });
  writeFileSync(path, out.join('\n') + '\n');
}

const column = (c: { length: number; at(i: number): unknown }) =>
  Array.from({ length: c.length }, (_, i) => c.at(i));
const sortedEntries = (t: { entries(): Iterable<[string, number[]]> }) =>
  [...t.entries()]
    .map(([k, v]) => [k, [...v]] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/** The prospect match index as plain values: names, words in id order, postings, employers, keys. */
function plainMatch(index: ProspectMatchIndex) {
  const words = column(index.wordId as unknown as { length: number; at(i: number): string }) as string[];
  return {
    size: index.size,
    rowids: Array.from(index.rowids),
    names: column(index.names),
    words,
    near: words.flatMap((w) => deletions(w).map((d) => [d, index.wordNear.get(d)])),
    wordStart: Array.from(index.wordStart),
    wordPost: column(index.wordPost),
    business: column(index.business),
    memberStart: Array.from(index.memberStart),
    members: column(index.members),
    keys: [index.byEmail, index.byPhone, index.byLinkedin].map(sortedEntries),
  };
}

/** The rows of a prospect match index (or of a patch of one) as plain values. */
function plainRows(index: ProspectMatchIndex | MatchRows) {
  const size = 'size' in index ? index.size : index.rowids.length;
  const rowids = index.rowids.length === 0 ? Array.from({ length: size }, (_, i) => i + 1) : index.rowids;
  const words =
    'wordId' in index ? (index.wordId as unknown as { length: number; at(i: number): string }) : index.words;
  return {
    rowids: Array.from(rowids),
    names: Array.isArray(index.names) ? index.names : column(index.names),
    business: column(index.business as { length: number; at(i: number): number }),
    words: column(words),
    wordStart: Array.from(index.wordStart),
    wordPost: column(index.wordPost as { length: number; at(i: number): number }),
  };
}

/** The business match index as plain values: its columns and key tables. */
function plainCompanies(index: BusinessMatchIndex) {
  return {
    size: index.size,
    rowids: Array.from(index.rowids),
    columns: [index.names, index.nameKeys, index.forms, index.domains, index.linkedin, index.countries].map(
      column,
    ),
    keys: [index.byDomain, index.byHost, index.byLinkedin, index.byFullName, index.byNameKey].map(
      sortedEntries,
    ),
  };
}

/** The business search index as plain values. */
function plainBusiness(index: BusinessIndex) {
  return {
    size: index.size,
    facets: Object.fromEntries(
      Object.entries(index.facets).map(([name, f]) => [name, facet(f as Facet)] as const),
    ),
    flags: [index.all, index.hasWebsite, index.isPublic].map(rows),
    columns: [index.countryOf, index.regionOf, index.sizeOf, index.revenueOf, index.naicsOf].map((c) =>
      Array.from(c),
    ),
    categories: [index.googleOf, index.linkedinOf].map((c) => [Array.from(c.start), Array.from(c.ids)]),
    naics: [...index.naicsDescription].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  };
}

const CASE = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  businesses: fc.integer({ min: 3, max: 40 }),
  prospects: fc.integer({ min: 0, max: 300 }),
  fraction: fc.double({ min: 0.01, max: 0.6, noNaN: true }),
});

describe('the prospect indexes after a delta', () => {
  it('made from the base’s saved ones equal a build from every row of the same file, delta after delta', async () => {
    await fc.assert(
      fc.asyncProperty(CASE, async (p) => {
        const dir = tempDir('pdb-prospect-patch-');
        const base = join(dir, 'base');
        const { businesses, prospects, seed } = p;
        await generateSnapshot({ dir: base, businesses, prospects, events: 0, seed });
        // The base respelled before the delta is made: the delta names the base's snapshot id.
        for (const stream of ['businesses', 'prospects']) respell(join(base, `${stream}.jsonl`), seed);
        const path = join(dir, 'snapshot.db');
        const clock = () => Date.parse('2026-11-03T00:00:00Z');
        const engine = openEngine({ path, state: ':memory:', clock });
        try {
          await engine.load(base, { strict: true, threads: 0 });
          buildIndexes(engine); // saves the base's indexes
          // The second delta applies to the first's result, whose rowids have holes and a tail.
          let from = base;
          for (const step of [1, 2]) {
            const delta = join(dir, `delta-${step}`);
            const merged = join(dir, `merged-${step}`);
            await generateDelta({
              base: from,
              dir: delta,
              merged,
              fraction: p.fraction,
              seed: seed + step,
              asOf: '2026-11-02T00:00:00Z',
            });
            const manifest = JSON.parse(readFileSync(join(delta, 'manifest.json'), 'utf8')) as object;
            const baseId = { base_snapshot_id: engine.info().snapshotId };
            writeFileSync(join(delta, 'manifest.json'), JSON.stringify({ ...manifest, ...baseId }));
            for (const stream of ['businesses', 'prospects'])
              respell(join(delta, `${stream}.jsonl`), seed + step);
            await engine.applyDelta(delta, { strict: true });
            const businessChanges = DELTA_CHANGES.businesses.take(
              engine.db,
              getMeta(engine.db, 'hash_businesses'),
            );
            expect(businessChanges).toBeDefined();
            const patchedBusinesses = patchedBusinessIndex(engine, businessChanges!);
            expect(patchedBusinesses).toBeDefined();
            const changes = DELTA_CHANGES.prospects.take(engine.db, getMeta(engine.db, 'hash_prospects'));
            expect(changes).toBeDefined();
            const patched = patchedProspectIndex(engine, changes!);
            expect(patched).toBeDefined();
            // Another connection has no changes left to it: it indexes every row. Its match indexes
            // first: the writable engine saves what it builds, and the oracle would read that.
            const oracle = openEngine({ path, readonly: true, state: ':memory:', clock });
            try {
              const companiesOracle = plainCompanies(businessMatchIndex(oracle));
              const matchOracle = prospectMatchIndex(oracle);
              expect(plainBusiness(patchedBusinesses!)).toEqual(plainBusiness(businessIndex(oracle)));
              expect(plain(patched!)).toEqual(plain(prospectIndex(oracle)));
              // The match index's rows are patched too (the carry handed back for the build below),
              // on a business match index that carries the name keys of the businesses left alone.
              const hash = getMeta(engine.db, 'hash_prospects')!;
              const carry = takeProspectKeys(engine.db, hash)!;
              const matchRows = isKeyCarry(carry) ? patchedProspectMatchRows(engine, carry) : undefined;
              expect(matchRows).toBeDefined();
              handOffProspectKeys(engine.db, hash, carry);
              expect(plainRows(matchRows!)).toEqual(plainRows(matchOracle));
              expect(plainCompanies(businessMatchIndex(engine))).toEqual(companiesOracle);
              // The whole match index takes the names and keys of the rows the delta left alone from
              // the base's.
              expect(plainMatch(prospectMatchIndex(engine))).toEqual(plainMatch(matchOracle));
            } finally {
              await oracle.state.close();
              oracle.close();
            }
            buildIndexes(engine); // saves this step's indexes: the next delta's base
            from = merged;
          }
        } finally {
          await engine.state.close();
          engine.close();
        }
      }),
      { numRuns: Number(process.env.DELTA_RUNS ?? 10) },
    );
  }, 120_000);
});
