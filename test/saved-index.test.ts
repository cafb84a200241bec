/** Indexes saved in the database file: a later process reads them instead of scanning every row. */
import { copyFileSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as runLoad } from '../src/cli/commands/load.js';
import { autocomplete, completionIndex } from '../src/core/autocomplete.js';
import { fetchProspects } from '../src/core/fetch.js';
import { COMPLETION_FORM, CompletionIndex } from '../src/indexes/completion.js';
import { AUTOCOMPLETE_FIELDS } from '../src/schemas/enums.js';
import { businessStats, prospectStats } from '../src/core/stats.js';
import { openEngine, type Engine } from '../src/engine.js';
import { Bitset } from '../src/indexes/bitset.js';
import { BUSINESS_INDEX_FORM, businessIndex, type BusinessIndex } from '../src/indexes/businesses.js';
import { savedIndex } from '../src/indexes/persist.js';
import { PROSPECT_INDEX_FORM, prospectIndex, type ProspectIndex } from '../src/indexes/prospects.js';
import type { ProspectFilters } from '../src/schemas/filters.js';
import { SCAN_SQL } from '../src/store/sql/scans.js';
import type { ProspectsFetchRequestV1 } from '../src/schemas/search.js';
import { DEMO_DIR, DEMO_LOAD, DEMO_NOW, demoEngine } from './support/demo.js';
import { tempDir } from './support/temp.js';

let path: string;
/**
 * An in-memory engine over the same snapshot, whose indexes are built from the rows (read only): the
 * rows of the run's one demo load (`demoEngine`), as `load(DEMO_DIR, DEMO_LOAD)` stores them. The two
 * tests below that load the demo themselves are about what a load does.
 */
let memory: Engine | undefined;
const inMemory = async (): Promise<Engine> => {
  if (memory) return memory;
  memory = await demoEngine();
  engines.push(memory);
  return memory;
};
beforeAll(async () => {
  // A copy of the loaded demo file, no index saved in it (as `engine.load` leaves it).
  path = join(tempDir('pdb-saved-'), 'demo.db');
  (await demoEngine({ path })).close();
});

/** The file `prospectdb load` wrote (by the test of that name). */
let cliFile: string;
const open = (readonly = false) => openEngine({ path, readonly, clock: () => DEMO_NOW });
const engines: Engine[] = [];
afterAll(() => engines.forEach((e) => e.closed || e.close()));

describe('saved indexes', () => {
  it('are read back equal to a fresh build by a later (readonly) process', () => {
    const writer = open();
    engines.push(writer);
    const built = { b: businessIndex(writer), p: prospectIndex(writer) };
    writer.close();

    const reader = open(true);
    engines.push(reader);
    // The saved form answers: the build function is not called.
    const notBuilt = (): never => {
      throw new Error('rebuilt instead of read back');
    };
    const b = reader.indexes.get(savedIndex('search.businessIndex', notBuilt, BUSINESS_INDEX_FORM));
    const p = reader.indexes.get(savedIndex('search.prospectIndex', notBuilt, PROSPECT_INDEX_FORM));
    expect(b).toEqual(built.b);
    expect(p).toEqual(built.p);
    expect(p.all).toBeInstanceOf(Bitset);
    expect(p.facets.country.keys).toBeInstanceOf(Map);
    expect(b.facets.tech.keys.size).toBe(built.b.facets.tech.keys.size);
  });

  it('read the business index in parts: a facet nobody asked for stays in the file', () => {
    const builder = open();
    engines.push(builder);
    const good = businessIndex(builder); // built and saved in the file, or read back from it
    const file = join(tempDir('pdb-saved-parts-'), 'parts.db');
    copyFileSync(path, file);
    const writer = openEngine({ path: file, clock: () => DEMO_NOW });
    engines.push(writer);
    // A damaged name facet: it is rebuilt when (and only when) it is read.
    writer.db
      .prepare(`UPDATE index_cache SET data = zeroblob(64) WHERE name = 'search.businessIndex/facet_name'`)
      .run();
    let built = 0;
    const index = writer.indexes.get(
      savedIndex<BusinessIndex>(
        'search.businessIndex',
        () => {
          built++;
          return good;
        },
        BUSINESS_INDEX_FORM,
      ),
    );
    expect(Object.keys(index.facets)).toEqual(Object.keys(good.facets));
    expect(index.facets.country.keys).toEqual(good.facets.country.keys);
    expect(index.countryOf).toEqual(good.countryOf);
    expect(index.naicsDescription).toEqual(good.naicsDescription);
    expect(built).toBe(0);
    expect(index.facets.name.keys.size).toBe(good.facets.name.keys.size);
    expect(built).toBe(1);
  });

  it('leave the region columns in the file for stats broken down by country', async () => {
    const memory = await inMemory();
    // Damaged region columns: reading one rebuilds its index from the rows, which a spy sees.
    const file = join(tempDir('pdb-saved-regions-'), 'regions.db');
    copyFileSync(path, file);
    const damage = new Database(file);
    damage
      .prepare(`UPDATE index_cache SET data = zeroblob(64) WHERE name IN (?, ?)`)
      .run('search.prospectIndex/regionOf', 'search.businessIndex/regionOf');
    damage.close();
    const reader = openEngine({ path: file, readonly: true, clock: () => DEMO_NOW });
    engines.push(reader);
    const prepared = vi.spyOn(reader.db, 'prepare');
    const rebuilds = () =>
      prepared.mock.calls.filter(
        ([sql]) => sql === SCAN_SQL.maxProspectRowid || sql === SCAN_SQL.maxBusinessRowid,
      ).length;
    const byCountry: ProspectFilters = { job_level: { values: ['manager'] } };
    expect(prospectStats(reader, { filters: byCountry })).toEqual(
      prospectStats(memory, { filters: byCountry }),
    );
    expect(businessStats(reader, { filters: {} })).toEqual(businessStats(memory, { filters: {} }));
    expect(rebuilds()).toBe(0);
    // A location filter asks for regions: then they are read (here rebuilt), and counted as in memory.
    const byRegion: ProspectFilters = { ...byCountry, company_country_code: { values: ['us'] } };
    expect(prospectStats(reader, { filters: byRegion })).toEqual(
      prospectStats(memory, { filters: byRegion }),
    );
    expect(rebuilds()).toBeGreaterThan(0);
  });

  it('are read from the file the engine opened when another one is renamed over its path', async () => {
    const memory = await inMemory();
    const folder = tempDir('pdb-saved-renamed-');
    const file = join(folder, 'served.db');
    const other = join(folder, 'other.db');
    copyFileSync(path, file);
    copyFileSync(path, other);
    // The other file: another snapshot, whose saved parts are all stale for the served one's data.
    const next = new Database(other);
    next.prepare("UPDATE meta SET value = 'another' WHERE key = 'snapshot_id'").run();
    next.prepare("UPDATE index_cache SET stamp = 'another'").run();
    next.close();
    const reader = openEngine({ path: file, readonly: true, clock: () => DEMO_NOW });
    engines.push(reader);
    renameSync(other, file);
    const prepared = vi.spyOn(reader.db, 'prepare');
    const filters: ProspectFilters = { job_level: { values: ['manager'] } };
    expect(prospectStats(reader, { filters })).toEqual(prospectStats(memory, { filters }));
    // Read from the opened file's saved parts, none rebuilt from its rows.
    expect(prepared.mock.calls.filter(([sql]) => sql === SCAN_SQL.maxProspectRowid)).toEqual([]);
  });

  it('give the same pages and stats as indexes built in memory', async () => {
    const memory = await inMemory();
    const reader = open(true);
    engines.push(reader);
    const filters: ProspectFilters = {
      company_country_code: { values: ['us', 'gb'] },
      job_level: { values: ['manager', 'director'] },
    };
    const request: ProspectsFetchRequestV1 = { mode: 'full', page_size: 50, page: 2, filters };
    expect(fetchProspects(reader, request, 1)).toEqual(fetchProspects(memory, request, 1));
    expect(prospectStats(reader, { filters })).toEqual(prospectStats(memory, { filters }));
  });

  it('are saved by `prospectdb load`, so the next process reads them', async () => {
    const file = (cliFile = join(tempDir('pdb-saved-cli-'), 'cli.db'));
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // On this thread: workers would each load tsx and the sources first (~10 s of CPU here), and
      // `load.threads.test.ts` checks that a threaded load and build save the same index bytes.
      expect(await runLoad(['--db', file, '--threads', '1', DEMO_DIR])).toBe(0);
      expect(stderr.mock.calls.flat().join('\n')).toMatch(/search and match indexes built and saved in/);
    } finally {
      stderr.mockRestore();
    }
    const reader = openEngine({ path: file, readonly: true });
    engines.push(reader);
    const notBuilt = (): never => {
      throw new Error('rebuilt instead of read back');
    };
    expect(reader.indexes.get(savedIndex<ProspectIndex>('search.prospectIndex', notBuilt)).size).toBe(10_001);
  });

  it('answer autocomplete from the file as a fresh build does, building nothing', async () => {
    const memory = await inMemory();
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const reader = openEngine({ path: cliFile, readonly: true });
      engines.push(reader);
      const notBuilt = (): never => {
        throw new Error('rebuilt instead of read back');
      };
      const queries = ['', 'a', 'unit', 'soft eng', 'sofware', 'cal', 'gmbh', 'brightwell nv', 'zzzz'];
      for (const field of AUTOCOMPLETE_FIELDS) {
        const saved = reader.indexes.get(
          savedIndex<CompletionIndex>(`search.autocomplete.${field}`, notBuilt, COMPLETION_FORM),
        );
        expect(saved).toBeInstanceOf(CompletionIndex);
        expect(saved.size).toBe(completionIndex(memory, field).size);
        for (const query of queries) {
          for (const semantic_search of [false, true]) {
            const request = { field, query, semantic_search };
            expect(autocomplete(reader, request)).toEqual(autocomplete(memory, request));
          }
        }
      }
      // Nothing was built from the rows (a build on a readonly file says so on stderr).
      expect(stderr.mock.calls.flat().join('\n')).not.toMatch(/building it now/);
    } finally {
      stderr.mockRestore();
    }
  });

  it('are rebuilt, not reused, after a new load', async () => {
    const writer = open();
    engines.push(writer);
    const before = prospectIndex(writer);
    await writer.load(DEMO_DIR, DEMO_LOAD);
    let rebuilt = 0;
    writer.indexes.get(
      savedIndex('search.prospectIndex', () => {
        rebuilt++;
        return before;
      }),
    );
    expect(rebuilt).toBe(1);
  });
});

describe('saved search indexes with more than 256 values in a facet', () => {
  it('read back every posting as rows or a bitset, and answer NAICS filters as a fresh build', async () => {
    const { generateSnapshot } = await import('../tools/generate/index.js');
    const { buildIndexes } = await import('../src/core/warm.js');
    const dir = tempDir('pdb-saved-wide-');
    // Enough businesses for every NAICS code of the generator: their 2- to 6-digit prefixes are more
    // than 256 values, and the 2-digit ones hold more than one row in 32 (bitsets).
    await generateSnapshot({
      dir: join(dir, 'snap'),
      businesses: 3000,
      prospects: 3000,
      events: 0,
      seed: 11,
    });
    const file = join(dir, 'wide.db');
    const writer = openEngine({ path: file, state: ':memory:', clock: () => DEMO_NOW });
    engines.push(writer);
    await writer.load(join(dir, 'snap'), { threads: 0 });
    buildIndexes(writer);
    const reader = openEngine({ path: file, readonly: true, state: ':memory:', clock: () => DEMO_NOW });
    engines.push(reader);
    const fresh = openEngine({ state: ':memory:', clock: () => DEMO_NOW });
    engines.push(fresh);
    await fresh.load(join(dir, 'snap'), { threads: 0 });

    const naics = prospectIndex(reader).facets.naics;
    expect(naics.labels.length).toBeGreaterThan(256);
    for (const index of [prospectIndex(reader), businessIndex(reader)]) {
      for (const facet of Object.values(index.facets)) {
        for (const p of facet.postings) expect(p instanceof Bitset || p instanceof Uint32Array).toBe(true);
      }
    }
    expect(naics.postings.some((p) => p instanceof Bitset)).toBe(true);
    const sectors = [...naics.keys.keys()].filter((k) => k.length === 2);
    for (const code of sectors) {
      const filters = { naics_category: { values: [code] } } as ProspectFilters;
      const request: ProspectsFetchRequestV1 = { mode: 'full', page_size: 5, page: 1, filters };
      const answer = prospectStats(reader, { filters });
      expect(answer).toEqual(prospectStats(fresh, { filters }));
      expect(fetchProspects(reader, request, 1)).toEqual(fetchProspects(fresh, request, 1));
    }
  }, 60_000);
});
