/**
 * Saved match indexes: a later (readonly) process opens them from the file instead of building, they
 * answer exactly like freshly built ones, and a damaged or stale saved index is rebuilt, never used.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildIndexes } from '../src/core/warm.js';
import { matchBusinessRows, matchProspectRows } from '../src/core/match/index.js';
import { openEngine, type Engine } from '../src/engine.js';
import { hashString, KeyShards } from '../src/indexes/hash/index.js';
import type { PagedStrings } from '../src/indexes/format/strings.js';
import { PAGE_BITS } from '../src/indexes/parted-form.js';
import { BUSINESS_MATCH_FORM, type BusinessMatchIndex } from '../src/indexes/match/businesses.js';
import {
  PROSPECT_MATCH_FORM,
  prospectMatchIndex,
  type ProspectMatchIndex,
} from '../src/indexes/match/prospects.js';
import { TOKEN_INDEX_FORM, type TokenIndex } from '../src/indexes/match/token-index.js';
import { savedIndex, type SavedForm } from '../src/indexes/persist.js';
import { DEMO_DIR, DEMO_NOW, demoEngine } from './support/demo.js';
import { tempDir } from './support/temp.js';
import { businessEventIndex } from '../src/indexes/events.js';
import { prospectIndex } from '../src/indexes/prospects.js';
import { getMeta, recordWrite } from '../src/store/open.js';

let path: string;
let fresh: Engine;
const engines: Engine[] = [];
const open = (file = path, readonly = true) => {
  const e = openEngine({ path: file, readonly, clock: () => DEMO_NOW });
  engines.push(e);
  return e;
};
let names: string[];
let people: [string, string][];

beforeAll(async () => {
  // A copy of the run's loaded demo file (`demoEngine`), every index built and saved in it. The build
  // reads the keys from the stored records, not from a load's stream: `load.test.ts` checks both give
  // the same index.
  path = join(tempDir('pdb-format-'), 'demo.db');
  const writer = await demoEngine({ path });
  buildIndexes(writer);
  writer.close();
  fresh = await demoEngine(); // in memory: builds every index, saves none
  engines.push(fresh);
  names = fresh.db.prepare('SELECT name FROM businesses ORDER BY rowid LIMIT 400').pluck().all() as string[];
  people = fresh.db
    .prepare(
      `SELECT p.full_name, b.name FROM prospects p JOIN businesses b ON b.rowid = p.business_rowid
       ORDER BY p.rowid LIMIT 400`,
    )
    .raw()
    .all() as [string, string][];
}, 60_000);
afterAll(() => engines.forEach((e) => e.closed || e.close()));

const notBuilt = (): never => {
  throw new Error('rebuilt instead of read back');
};
const read = <T>(engine: Engine, name: string, form: SavedForm<T>) =>
  engine.indexes.get(savedIndex<T>(name, notBuilt, form));

/**
 * The prospect match index of `w` opened through a build that counts its calls and answers `good`:
 * a damaged saved part is taken from that build.
 */
const openCounting = (w: Engine, good: ProspectMatchIndex) => {
  let built = 0;
  const build = () => {
    built++;
    return good;
  };
  const index = w.indexes.get(savedIndex<ProspectMatchIndex>('match.prospects', build, PROSPECT_MATCH_FORM));
  return { index, builds: () => built };
};

/** A random edit of `s` (substitute, delete, insert, swap) at `at`, or `s` itself. */
const edit = (s: string, kind: number, at: number, ch: string): string => {
  const i = s.length === 0 ? 0 : at % s.length;
  if (kind === 0) return s.slice(0, i) + ch + s.slice(i + 1);
  if (kind === 1) return s.slice(0, i) + s.slice(i + 1);
  if (kind === 2) return s.slice(0, i) + ch + s.slice(i);
  if (kind === 3 && i + 1 < s.length) return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
  return s;
};
const editArb = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.nat(), fc.constantFrom('a', 'e', ' ', 'x', 'ö'));

describe('saved match indexes', () => {
  it('are read from the file by a later readonly process, as typed views', () => {
    const reader = open();
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const b = read<BusinessMatchIndex>(reader, 'match.businesses', BUSINESS_MATCH_FORM);
      const t = read<TokenIndex>(reader, 'match.businesses.tokens', TOKEN_INDEX_FORM);
      const p = read<ProspectMatchIndex>(reader, 'match.prospects', PROSPECT_MATCH_FORM);
      expect(b.size).toBe(2000);
      expect(p.size).toBe(10_000);
      // Key tables come back in shards by key hash, each read when a key hashes to it.
      expect(b.byFullName).toBeInstanceOf(KeyShards);
      expect(p.byEmail).toBeInstanceOf(KeyShards);
      expect(t.vocab.length).toBeGreaterThan(100);
      // The saved arrays are views over one buffer holding the whole index.
      expect(p.memberStart.buffer).toBe(p.wordStart.buffer);
      // Matching on the reader uses these (no notice: nothing had to be built).
      matchBusinessRows(reader, [{ name: names[0] as string }]);
      matchProspectRows(reader, [{ full_name: people[0]![0], company_name: people[0]![1] }]);
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
  });

  it('answer exactly like freshly built ones on random queries', () => {
    const reader = open();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), editArb, fc.boolean()), { minLength: 1, maxLength: 8 }),
        (picks) => {
          const rows = picks.map(([n, [kind, at, ch], withCountry]) => ({
            name: edit(names[n % names.length] as string, kind, at, ch),
            ...(withCountry ? { country: 'us' } : {}),
          }));
          const options = { explain: true, alternatives: 3 };
          expect(matchBusinessRows(reader, rows, options)).toEqual(matchBusinessRows(fresh, rows, options));
        },
      ),
      { numRuns: 40 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), editArb, editArb), { minLength: 1, maxLength: 8 }), (picks) => {
        const rows = picks.map(([n, [k1, a1, c1], [k2, a2, c2]]) => {
          const [person, company] = people[n % people.length] as [string, string];
          return { full_name: edit(person, k1, a1, c1), company_name: edit(company, k2, a2, c2) };
        });
        const options = { explain: true, alternatives: 3 };
        expect(matchProspectRows(reader, rows, options)).toEqual(matchProspectRows(fresh, rows, options));
      }),
      { numRuns: 40 },
    );
  });

  it('are rebuilt, never used, when the saved bytes are damaged or truncated', () => {
    const damages: ((b: Buffer) => Buffer)[] = [
      (b) => b.subarray(0, b.length - 9), // truncated
      (b) => Buffer.alloc(b.length), // zeroed
      (b) => Buffer.from(b.toString('latin1').replace('"i32"', '"f64"'), 'latin1'), // a section retyped
      (b) => Buffer.from(b.toString('latin1').replace('"Ids"', '"Idz"'), 'latin1'), // an unknown class
    ];
    // Each rebuild is announced on stderr (captured here): once per damaged file.
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const damage of damages) {
      const file = join(tempDir('pdb-format-bad-'), 'bad.db');
      copyFileSync(path, file);
      const w = open(file, false);
      const blob = w.db
        .prepare(`SELECT data FROM index_cache WHERE name = 'match.prospects' AND part = 0`)
        .pluck()
        .get() as Buffer;
      w.db
        .prepare(`UPDATE index_cache SET data = ? WHERE name = 'match.prospects' AND part = 0`)
        .run(damage(blob));
      let built = 0;
      const index = w.indexes.get(
        savedIndex<ProspectMatchIndex>(
          'match.prospects',
          () => {
            built++;
            return read<ProspectMatchIndex>(open(), 'match.prospects', PROSPECT_MATCH_FORM);
          },
          PROSPECT_MATCH_FORM,
        ),
      );
      expect(built).toBe(1);
      expect(index.size).toBe(10_000);
    }
    expect(stderr.mock.calls.map((c) => String(c[0]).replace(/\/[^ `]*bad\.db/g, 'bad.db'))).toEqual(
      damages.map(
        () =>
          'prospectdb: bad.db has no saved match.prospects index for its data: building it now (once per process). ' +
          'Run `prospectdb index --db bad.db` (or load it again) to save every index in the file.',
      ),
    );
    stderr.mockRestore();
  });

  it('take a field read on first use from a rebuild when its saved bytes are damaged', () => {
    const file = join(tempDir('pdb-format-lazy-'), 'lazy.db');
    copyFileSync(path, file);
    const w = open(file, false);
    w.db.prepare(`UPDATE index_cache SET data = zeroblob(64) WHERE name = 'match.prospects/wordNear'`).run();
    const good = read<ProspectMatchIndex>(open(), 'match.prospects', PROSPECT_MATCH_FORM);
    const { index, builds } = openCounting(w, good);
    // Opened from the saved form; the typo table is read (and found damaged) only when first used.
    expect(builds()).toBe(0);
    expect(index.byEmail.get('x@example.com')).toEqual(good.byEmail.get('x@example.com'));
    expect(index.byEmail.size).toBe(good.byEmail.size);
    expect(builds()).toBe(0);
    const word = (good.names.at(3) as string).split(' ').find((w) => w.length >= 4) as string;
    expect(good.wordNear.get(word)).toBeDefined();
    expect(index.wordNear.get(word)).toEqual(good.wordNear.get(word));
    expect(builds()).toBe(1);
  });

  it('read a key table shard by shard, and take a damaged shard from a rebuild', () => {
    const file = join(tempDir('pdb-format-shard-'), 'shard.db');
    copyFileSync(path, file);
    const w = open(file, false);
    const shards = w.db
      .prepare(`SELECT count(*) FROM index_cache WHERE name GLOB 'match.prospects/byEmail#*'`)
      .pluck()
      .get() as number;
    w.db.prepare(`UPDATE index_cache SET data = zeroblob(64) WHERE name = 'match.prospects/byEmail#0'`).run();
    const good = read<ProspectMatchIndex>(open(), 'match.prospects', PROSPECT_MATCH_FORM);
    const { index, builds } = openCounting(w, good);
    const entries = [...good.byEmail.entries()];
    const shardOf = (key: string) => hashString(key) >>> (32 - Math.log2(shards));
    const elsewhere = entries.filter(([key]) => shardOf(key) !== 0);
    const inDamaged = entries.filter(([key]) => shardOf(key) === 0);
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(inDamaged.length).toBeGreaterThan(0);
    for (const [key, positions] of elsewhere) expect(index.byEmail.get(key)).toEqual(positions);
    expect(builds()).toBe(0); // the other shards are whole: nothing rebuilt
    for (const [key, positions] of inDamaged) expect(index.byEmail.get(key)).toEqual(positions);
    expect(builds()).toBe(1);
    expect(index.byEmail.get('nobody@example.invalid')).toEqual([]);
  });

  it('take a dictionary found damaged on its first read from a rebuild, and read the others', () => {
    const file = join(tempDir('pdb-format-dict-'), 'dict.db');
    copyFileSync(path, file);
    const tree = () => ({
      size: 1,
      facets: { a: { keys: new Map([['x', 1]]) }, b: { keys: new Map([['y', 2]]) } },
    });
    let built = 0;
    const kind = () =>
      savedIndex('test.dictionaries', () => {
        built++;
        return tree();
      });
    open(file, false).indexes.get(kind()); // built and saved
    expect(built).toBe(1);
    const w = open(file, false);
    const blob = w.db
      .prepare(`SELECT data FROM index_cache WHERE name = 'test.dictionaries'`)
      .pluck()
      .get() as Buffer;
    const headerBytes = blob.readUInt32LE(8);
    const header = JSON.parse(blob.subarray(16, 16 + headerBytes).toString()) as {
      root: ['o', { facets: ['o', Record<'a' | 'b', ['o', { keys: ['v', number, number] }]>] }];
    };
    const [, at, length] = header.root[1].facets[1].a[1].keys;
    const base = 16 + Math.ceil(headerBytes / 8) * 8;
    const damaged = Buffer.from(blob);
    damaged.fill(0xff, base + at, base + at + length);
    w.db.prepare(`UPDATE index_cache SET data = ? WHERE name = 'test.dictionaries'`).run(damaged);

    const index = open(file).indexes.get(kind()) as ReturnType<typeof tree>;
    expect(built).toBe(1); // opened from the file
    expect(index.facets.b.keys).toEqual(new Map([['y', 2]]));
    expect(built).toBe(1);
    expect(index.facets.a.keys).toEqual(new Map([['x', 1]])); // damaged: from a rebuild
    expect(built).toBe(2);
  });

  it('are read in part by a first name match: the exact-key tables stay in the file', () => {
    const reader = open();
    const [row] = matchProspectRows(reader, [{ full_name: people[5]![0], company_name: people[5]![1] }]);
    expect(row?.prospect_id).toMatch(/^[0-9a-f]+$/);
    const index = prospectMatchIndex(reader);
    // The names of the company's people: their page, not the column.
    expect((index.names as PagedStrings).pagesRead).toBe(1);
    expect(index.size).toBeGreaterThan(2 ** PAGE_BITS);
    // The key tables: saved in shards, none read.
    const read = () =>
      [index.byEmail, index.byPhone, index.byLinkedin].map((t) => (t as KeyShards).shardsRead);
    expect(read()).toEqual([0, 0, 0]);
    matchProspectRows(reader, [{ email: 'nobody@example.com' }]);
    expect(read()).toEqual([1, 0, 0]); // one shard of the e-mail table
  });

  it('hold no prospect ids: an answer reads its ids from the table, also where rowids have gaps', () => {
    const reader = open();
    const blobs = reader.db
      .prepare(`SELECT name, data FROM index_cache WHERE name GLOB 'match.prospects*' ORDER BY name`)
      .raw()
      .all() as [string, Buffer][];
    // The key tables are saved in shards: `byEmail#0`, `byEmail#1`, …
    expect([...new Set(blobs.map(([name]) => name.replace(/#\d+$/, '#')))]).toEqual([
      'match.prospects',
      'match.prospects/business#',
      'match.prospects/byEmail#',
      'match.prospects/byLinkedin#',
      'match.prospects/byPhone#',
      'match.prospects/members#',
      'match.prospects/names#',
      'match.prospects/rowids',
      'match.prospects/wordNear',
      'match.prospects/wordPost#',
    ]);
    expect(blobs.filter(([name]) => name.startsWith('match.prospects/byEmail#')).length).toBeGreaterThan(1);
    const someIds = reader.db
      .prepare('SELECT prospect_id FROM prospects WHERE rowid % 997 = 0')
      .pluck()
      .all();
    expect(someIds.length).toBeGreaterThan(5);
    for (const id of someIds) for (const [, data] of blobs) expect(data.includes(String(id))).toBe(false);

    const file = join(tempDir('pdb-format-gaps-'), 'gaps.db');
    copyFileSync(path, file);
    const w = open(file, false);
    const person = (rowid: number) =>
      w.db
        .prepare(
          `SELECT p.prospect_id, p.full_name, b.name FROM prospects p JOIN businesses b ON b.rowid = p.business_rowid
           WHERE p.rowid = ?`,
        )
        .raw()
        .get(rowid) as [string, string, string];
    const rows = [30, 31, 9000].map(person);
    w.db.prepare('DELETE FROM prospects WHERE rowid IN (1, 29)').run();
    recordWrite(w.db, { entities: true }); // rows written outside a load
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const ask = (e: Engine) =>
      matchProspectRows(
        e,
        rows.map(([, full_name, company_name]) => ({ full_name, company_name })),
      ).map((r) => r.prospect_id);
    try {
      expect(ask(w)).toEqual(rows.map(([id]) => id)); // built (and saved) with the gaps
    } finally {
      stderr.mockRestore();
    }
    const later = open(file);
    const index = read<ProspectMatchIndex>(later, 'match.prospects', PROSPECT_MATCH_FORM);
    expect(index.size).toBe(9_998);
    expect(index.rowids.slice(0, 30)).toEqual(
      Int32Array.from({ length: 30 }, (_, i) => i + 2 + (i >= 27 ? 1 : 0)),
    );
    expect(ask(later)).toEqual(rows.map(([id]) => id));
  });

  it('hold no business ids: an answer reads its ids from the table, also where rowids have gaps', () => {
    const reader = open();
    const blobs = reader.db
      .prepare(`SELECT data FROM index_cache WHERE name GLOB 'match.businesses*'`)
      .pluck()
      .all() as Buffer[];
    const someIds = reader.db
      .prepare('SELECT business_id FROM businesses WHERE rowid % 97 = 0')
      .pluck()
      .all() as string[];
    expect(someIds.length).toBeGreaterThan(5);
    for (const id of someIds) for (const data of blobs) expect(data.includes(id)).toBe(false);

    const file = join(tempDir('pdb-format-business-gaps-'), 'gaps.db');
    copyFileSync(path, file);
    const w = open(file, false);
    const business = (rowid: number) =>
      w.db.prepare('SELECT business_id, name, domain FROM businesses WHERE rowid = ?').raw().get(rowid) as [
        string,
        string,
        string | null,
      ];
    const picked = [40, 41, 1900].map(business);
    w.db.prepare('DELETE FROM businesses WHERE rowid IN (1, 39)').run();
    recordWrite(w.db, { entities: true }); // rows written outside a load
    const rows = picked.map(([, name, domain]) => ({ name, ...(domain ? { domain } : {}) }));
    // By id too: a prospect row naming its employer's id is looked up through the table.
    const [person] = w.db
      .prepare(
        `SELECT p.full_name, b.business_id FROM prospects p JOIN businesses b ON b.rowid = p.business_rowid
         WHERE b.rowid = 1900 LIMIT 1`,
      )
      .raw()
      .all() as [string, string][];
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const ask = (e: Engine) => [
      ...matchBusinessRows(e, rows).map((r) => r.business_id),
      matchProspectRows(e, [{ full_name: person![0], business_id: person![1].toUpperCase() }])[0]!
        .prospect_id !== null,
    ];
    const want = [...picked.map(([id]) => id), true];
    try {
      expect(ask(w)).toEqual(want); // built (and saved) with the gaps
    } finally {
      stderr.mockRestore();
    }
    const later = open(file);
    const index = read<BusinessMatchIndex>(later, 'match.businesses', BUSINESS_MATCH_FORM);
    expect(index.rowids.slice(0, 40)).toEqual(
      Int32Array.from({ length: 40 }, (_, i) => i + 2 + (i >= 37 ? 1 : 0)),
    );
    expect(ask(later)).toEqual(want);
  });

  it('are rebuilt when their stamp is stale (another data version)', () => {
    const file = join(tempDir('pdb-format-stale-'), 'stale.db');
    copyFileSync(path, file);
    const w = open(file, false);
    recordWrite(w.db, { entities: true }); // rows written outside a load
    let built = 0;
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      w.indexes.get(
        savedIndex<BusinessMatchIndex>(
          'match.businesses',
          () => {
            built++;
            return read<BusinessMatchIndex>(open(), 'match.businesses', BUSINESS_MATCH_FORM);
          },
          BUSINESS_MATCH_FORM,
        ),
      );
      // One line on stderr says the file lacks it and how to save every index.
      expect(stderr).toHaveBeenCalledTimes(1);
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/prospectdb index --db/);
    } finally {
      stderr.mockRestore();
    }
    expect(built).toBe(1);
  });

  it.each([
    ['loaded by this version', false],
    ['without an entities version (loaded before it was kept)', true],
  ])(
    'stay current across an event ingest into a file %s: kept in memory and in the file, events answered anew',
    async (_, old) => {
      const file = join(tempDir('pdb-format-ingest-'), 'ingest.db');
      copyFileSync(path, file);
      const w = open(file, false);
      if (old) w.db.prepare("DELETE FROM meta WHERE key = 'entities_version'").run();
      // An event of the demo snapshot again, under a new id.
      const first = gunzipSync(readFileSync(join(DEMO_DIR, 'events.jsonl.gz')))
        .toString()
        .split('\n')[0]!;
      const event: Record<string, unknown> = { ...(JSON.parse(first) as object), event_id: 'ingested-1' };
      const type = event.event_name as string;
      const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const prospects = prospectIndex(w);
        const events = businessEventIndex(w).byType.get(type)!.rows.length;
        const data = Number(getMeta(w.db, 'data_version'));
        const report = await w.ingestEvents([event]);
        expect(report.ingested).toBe(1);
        expect(Number(getMeta(w.db, 'data_version'))).toBe(data + 1);
        expect(prospectIndex(w)).toBe(prospects); // not dropped, not rebuilt
        expect(businessEventIndex(w).byType.get(type)!.rows.length).toBe(events + 1);
        // Another process opening the file reads every index saved before the ingest.
        const reader = open(file);
        expect(
          matchProspectRows(reader, [{ full_name: people[0]![0], company_name: people[0]![1] }]),
        ).toHaveLength(1);
        expect(read(reader, 'match.businesses', BUSINESS_MATCH_FORM).size).toBeGreaterThan(0);
        expect(stderr).not.toHaveBeenCalled();
      } finally {
        stderr.mockRestore();
      }
    },
  );

  it('leave no part a build cannot read once every index is saved again', () => {
    const file = join(tempDir('pdb-format-orphans-'), 'orphans.db');
    copyFileSync(path, file);
    const w = open(file, false);
    // A part an older format saved under a name this one never writes (an unsharded key table).
    w.db
      .prepare(
        `INSERT INTO index_cache (name, part, stamp, data) VALUES ('match.prospects/byEmail', 0, '9:x', x'00')`,
      )
      .run();
    const names = () => w.db.prepare('SELECT name FROM index_cache ORDER BY name, part').pluck().all();
    const before = names();
    buildIndexes(w);
    expect(names()).toEqual(before.filter((n) => n !== 'match.prospects/byEmail'));
  });
});
