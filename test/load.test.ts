import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'msgpackr';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/engine.js';
import { EngineError } from '../src/errors.js';
import { decodeDoc } from '../src/store/codec.js';
import { KEY_KINDS, prospectKeysOfRecords, takeProspectKeys } from '../src/store/load-keys.js';
import { getMeta } from '../src/store/open.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { prospectMatchIndex } from '../src/indexes/match/prospects.js';
import { comparableRows } from './support/rows.js';
import { tempDir } from './support/temp.js';

const B1 = 'a'.repeat(32);
const B2 = 'b'.repeat(32);
const P1 = '1'.repeat(40);
const P2 = '2'.repeat(40);

const business = (id: string, extra: Record<string, unknown> = {}) => ({
  business_id: id,
  name: 'Acme Robotics, Inc.',
  domain: 'acmerobotics.com',
  website: 'https://www.acmerobotics.com',
  linkedin_profile: 'https://www.linkedin.com/company/acme-robotics',
  country_code: 'US',
  region_country_code: 'us-ca',
  city_name: 'San Francisco',
  number_of_employees_range: '51-200',
  yearly_revenue_range: '10M-25M',
  founded_year: 2019,
  number_of_locations: 3,
  naics: 541512,
  google_category: ['Software company'],
  is_public_company: false,
  ...extra,
});

const prospect = (id: string, businessId: string | null, extra: Record<string, unknown> = {}) => ({
  prospect_id: id,
  business_id: businessId,
  first_name: 'Ada',
  last_name: 'Lovelace',
  full_name: 'Ada Lovelace',
  job_title: 'VP of Engineering',
  job_level_main: 'vice president',
  job_department_main: 'engineering',
  emails: [
    { address: 'Ada.Lovelace@acmerobotics.com', type: 'professional', status: 'valid', source: 'explorium' },
  ],
  phone_numbers: [{ phone_number: '+14155550123', type: 'mobile', source: 'explorium' }],
  ...extra,
});

const jsonl = (rows: unknown[]) =>
  rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

function snapshot(files: Record<string, string | Buffer>): string {
  const dir = tempDir('pdb-snap-');
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
}

/** A stored prospect with its employer's columns, as the index scans and record reads join them. */
const WITH_COMPANY = `SELECT p.*, b.name AS company_name, b.website_url AS company_website,
  b.linkedin_profile AS company_linkedin, b.size AS company_size, b.revenue AS company_revenue,
  b.age AS company_age, b.locations AS company_locations, b.country_code AS company_country_code,
  b.region_country_code AS company_region_country_code, b.city_region_country AS company_city_region_country,
  b.naics AS company_naics, b.is_public AS company_is_public, b.has_website AS company_has_website
  FROM prospects p LEFT JOIN businesses b ON b.rowid = p.business_rowid`;
const MANIFEST = JSON.stringify({ format_version: 1, as_of: '2026-11-01T00:00:00Z' });

let engines: Engine[] = [];
const open = (path = ':memory:') => {
  const e = openEngine({ path });
  engines.push(e);
  return e;
};
afterEach(() => {
  for (const e of engines) e.close();
  engines = [];
});

describe('snapshot loader', () => {
  it('loads every stream, derives company fields onto prospects and reports counts', async () => {
    const engine = open();
    const dir = snapshot({
      'manifest.json': MANIFEST,
      'businesses.jsonl': jsonl([business(B1), business(B2, { name: 'Globex GmbH', country_code: 'de' })]),
      'prospects.jsonl': jsonl([prospect(P1, B1), prospect(P2, null)]),
      'events.jsonl': jsonl([
        {
          event_id: 'e1',
          event_name: 'new_product',
          event_time: '2026-10-01T10:00:00Z',
          business_id: B1,
          data: {},
        },
        {
          event_id: 'e2',
          event_name: 'prospect_changed_role',
          event_time: '2026-10-02T10:00:00Z',
          prospect_id: P1,
        },
      ]),
    });
    const report = await engine.load(dir);
    expect(report.issueCount).toBe(0);
    expect(report.streams.map((s) => [s.stream, s.loaded])).toEqual([
      ['businesses', 2],
      ['prospects', 2],
      ['events', 2],
    ]);
    expect(engine.info()).toMatchObject({
      asOf: '2026-11-01T00:00:00Z',
      formatVersion: 1,
      counts: { businesses: 2, prospects: 2, events: 2 },
    });
    const row = engine.db.prepare(`${WITH_COMPANY} WHERE p.prospect_id = ?`).get(P1) as Record<
      string,
      unknown
    >;
    expect(row).toMatchObject({
      business_rowid: 1,
      company_name: 'Acme Robotics, Inc.',
      company_website: 'https://www.acmerobotics.com',
      company_linkedin: 'https://www.linkedin.com/company/acme-robotics',
      company_size: '51-200',
      company_revenue: '10M-25M',
      company_age: '6-10',
      company_locations: '2-5',
      company_country_code: 'us',
      company_region_country_code: 'us-ca',
      company_city_region_country: 'San Francisco, CA, US',
      company_naics: '541512',
      company_is_public: 0,
      company_has_website: 1,
      has_email: 1,
      has_phone: 1,
      job_level: 'vice president',
    });
    const orphan = engine.db.prepare(`${WITH_COMPANY} WHERE p.prospect_id = ?`).get(P2);
    expect(orphan).toMatchObject({ business_rowid: null, company_name: null, company_size: null });
    // The employer's columns are the business's, joined: not kept with the prospect.
    expect(
      engine.db
        .prepare('SELECT * FROM prospects')
        .columns()
        .map((c) => c.name),
    ).not.toContain('company_name');
    const stored = engine.db.prepare('SELECT wire, rest FROM businesses WHERE business_id = ?').get(B1) as {
      wire: Buffer;
      rest: Buffer;
    };
    const doc = decodeDoc('businesses', stored.wire, stored.rest);
    expect(doc).toMatchObject({ business_id: B1, country_code: 'us', naics: 541512 });
    // The exact match keys are not stored: the load hands them to the match index build, and a build
    // elsewhere derives the same keys from the stored records.
    expect(engine.db.prepare(`SELECT name FROM sqlite_master WHERE name = 'match_keys'`).get()).toBe(
      undefined,
    );
    const derived = prospectKeysOfRecords(engine.db);
    expect(takeProspectKeys(engine.db, getMeta(engine.db, 'hash_prospects'))).toEqual(derived);
    expect(takeProspectKeys(engine.db, getMeta(engine.db, 'hash_prospects'))).toBe(undefined);
    const first = derived.rows.flatMap((row, i) =>
      row === 1 ? [{ kind: KEY_KINDS[derived.kinds[i]!], key: derived.keys[i] }] : [],
    );
    expect(first).toEqual([
      { kind: 'email', key: 'ada.lovelace@acmerobotics.com' },
      { kind: 'phone', key: '+14155550123' },
    ]);
  });

  it('builds the same exact-key match index from the keys the load streamed as from the stored records', async () => {
    const dir = tempDir('pdb-gen-');
    await generateSnapshot({ dir, businesses: 60, prospects: 400, events: 0, seed: 3 });
    const streamed = open();
    await streamed.load(dir);
    const derived = open();
    await derived.load(dir);
    // Taken away: this build derives every key from the stored records, as another process would.
    expect(takeProspectKeys(derived.db, getMeta(derived.db, 'hash_prospects'))).toBeDefined();
    const a = prospectMatchIndex(streamed);
    const b = prospectMatchIndex(derived);
    expect(a.byEmail.size).toBeGreaterThan(300);
    for (const k of ['byEmail', 'byPhone', 'byLinkedin'] as const) expect(a[k]).toEqual(b[k]);
  });

  it('reports malformed lines, wrong enums, bad ids and duplicates with line numbers and loads the rest', async () => {
    const engine = open();
    const dir = snapshot({
      'businesses.jsonl': jsonl([
        business(B1),
        '{not json',
        business('XYZ'),
        business(B2, { number_of_employees_range: '10-50' }),
        '',
        business(B1, { name: 'Acme again' }),
        business(B2),
      ]),
    });
    const report = await engine.load(dir);
    expect(report.streams[0]).toMatchObject({ read: 6, loaded: 2, invalid: 3, duplicates: 1 });
    expect(report.issues.map((i) => [i.line, i.reason.split(':')[0]])).toEqual([
      [2, 'invalid JSON'],
      [3, 'business_id'],
      [4, 'number_of_employees_range'],
      [6, 'duplicate id aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa (first at line 1)'],
    ]);
    expect(report.issues.every((i) => i.file.endsWith('businesses.jsonl'))).toBe(true);
    expect(engine.info().counts.businesses).toBe(2);
  });

  it('checks each event payload against its event type', async () => {
    const engine = open();
    const event = (id: string, data: Record<string, unknown>) => ({
      event_id: id,
      event_name: 'new_funding_round',
      event_time: '2026-10-01T10:00:00Z',
      business_id: B1,
      data,
    });
    const report = await engine.load(
      snapshot({
        'events.jsonl': jsonl([event('ok', { amount_raised: 5e6 }), event('bad', { amount_raised: 'lots' })]),
      }),
    );
    expect(report.streams[0]).toMatchObject({ loaded: 1, invalid: 1 });
    expect(report.issues[0]).toMatchObject({
      line: 2,
      reason: expect.stringMatching(/^data\.amount_raised: /),
    });
  });

  it('in strict mode refuses the whole snapshot and leaves the database unchanged', async () => {
    const engine = open();
    await engine.load(snapshot({ 'businesses.jsonl': jsonl([business(B1)]) }));
    const before = engine.info();
    const bad = snapshot({
      'businesses.jsonl': jsonl([business(B2)]),
      'prospects.jsonl': jsonl([prospect(P1, B2, { job_level_main: 'overlord' })]),
    });
    const error = await engine.load(bad, { strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('SNAPSHOT_INVALID');
    expect((error as EngineError).detail).toMatchObject({ issueCount: 1 });
    expect(engine.info()).toEqual(before);
    expect(engine.db.prepare('SELECT business_id FROM businesses').all()).toEqual([{ business_id: B1 }]);
  });

  it('reads gzip and MessagePack streams the same as JSON Lines', async () => {
    const rows = [business(B1), business(B2, { name: 'Globex GmbH' })];
    const plain = open();
    await plain.load(snapshot({ 'businesses.jsonl': jsonl(rows) }));
    const gz = open();
    await gz.load(snapshot({ 'businesses.jsonl.gz': gzipSync(jsonl(rows)) }));
    const mp = open();
    await mp.load(snapshot({ 'businesses.msgpack': Buffer.concat(rows.map((r) => pack(r))) }));
    const dump = (e: Engine) => e.db.prepare('SELECT business_id, name_key, domain FROM businesses').all();
    expect(dump(gz)).toEqual(dump(plain));
    expect(dump(mp)).toEqual(dump(plain));
  });

  it('gives the same snapshot id when the same snapshot is loaded twice, and reuses a database file', async () => {
    const dir = snapshot({ 'manifest.json': MANIFEST, 'businesses.jsonl': jsonl([business(B1)]) });
    const path = join(tempDir('pdb-db-'), 'x.db');
    const engine = open(path);
    const first = await engine.load(dir);
    const second = await engine.load(dir);
    expect(second.snapshotId).toBe(first.snapshotId);
    engine.close();
    const reopened = open(path);
    expect(reopened.info()).toMatchObject({ snapshotId: first.snapshotId, counts: { businesses: 1 } });
  });

  it('keeps ids unique through named indexes, and reloads a table that had the UNIQUE constraint into them', async () => {
    const indexes = (e: Engine) =>
      e.db
        .prepare(
          `SELECT tbl_name AS t, name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('businesses', 'prospects') ORDER BY name`,
        )
        .all();
    const named = [
      { t: 'businesses', name: 'businesses_id' },
      { t: 'prospects', name: 'prospects_business' },
      { t: 'prospects', name: 'prospects_id' },
    ];
    const dir = snapshot({
      'manifest.json': MANIFEST,
      'businesses.jsonl': jsonl([business(B1), business(B2)]),
      'prospects.jsonl': jsonl([prospect(P1, B1), prospect(P2, B2)]),
    });
    const fresh = open(join(tempDir('pdb-db-'), 'fresh.db'));
    await fresh.load(dir);
    expect(indexes(fresh)).toEqual(named);
    expect(() => fresh.db.prepare('UPDATE prospects SET prospect_id = ? WHERE rowid = 2').run(P1)).toThrow(
      /UNIQUE constraint failed: prospects.prospect_id/,
    );

    // A file written before: the ids UNIQUE as column constraints (SQLite's autoindexes).
    const path = join(tempDir('pdb-db-'), 'older.db');
    const older = open(path);
    await older.load(dir);
    const rows = (e: Engine) =>
      e.db.prepare('SELECT rowid, prospect_id, business_rowid FROM prospects').all();
    const before = rows(older);
    for (const table of ['businesses', 'prospects'] as const) {
      const id = table === 'businesses' ? 'business_id' : 'prospect_id';
      const ddl = (
        older.db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(table) as { sql: string }
      ).sql;
      older.db.exec(`DROP INDEX ${table}_id; ALTER TABLE ${table} RENAME TO old_${table};
        ${ddl.replace(`${id} TEXT NOT NULL,`, `${id} TEXT NOT NULL UNIQUE,`)};
        INSERT INTO ${table} SELECT * FROM old_${table}; DROP TABLE old_${table};`);
    }
    older.db.exec('CREATE INDEX prospects_business ON prospects (business_rowid)');
    older.close();
    // Opened for writing, it gets no second index on an id; loaded again, its tables are recreated.
    const reopened = open(path);
    expect(indexes(reopened)).toEqual([
      { t: 'prospects', name: 'prospects_business' },
      { t: 'businesses', name: 'sqlite_autoindex_businesses_1' },
      { t: 'prospects', name: 'sqlite_autoindex_prospects_1' },
    ]);
    await reopened.load(dir);
    expect(indexes(reopened)).toEqual(named);
    expect(rows(reopened)).toEqual(before);
    for (const [table, id] of [
      ['businesses', 'business_id'],
      ['prospects', 'prospect_id'],
    ]) {
      const plan = reopened.db
        .prepare(`EXPLAIN QUERY PLAN SELECT rowid FROM ${table} WHERE ${id} = ?`)
        .all('x');
      expect(plan).toMatchObject([{ detail: `SEARCH ${table} USING COVERING INDEX ${table}_id (${id}=?)` }]);
    }
  });

  it('re-derives prospect company fields when only businesses are reloaded', async () => {
    const engine = open();
    await engine.load(
      snapshot({ 'businesses.jsonl': jsonl([business(B1)]), 'prospects.jsonl': jsonl([prospect(P1, B1)]) }),
    );
    await engine.load(snapshot({ 'businesses.jsonl': jsonl([business(B1, { name: 'Acme Renamed Ltd' })]) }));
    expect(engine.db.prepare(`${WITH_COMPANY}`).get()).toMatchObject({
      company_name: 'Acme Renamed Ltd',
    });
  });

  it('refuses a corrupt compressed stream and keeps the previous rows', async () => {
    const engine = open();
    await engine.load(snapshot({ 'businesses.jsonl': jsonl([business(B1)]) }));
    const corrupt = snapshot({ 'businesses.jsonl.gz': Buffer.from('not gzip at all') });
    await expect(engine.load(corrupt)).rejects.toMatchObject({
      code: 'SNAPSHOT_INVALID',
      message: expect.stringContaining('businesses.jsonl.gz: cannot be read'),
    });
    expect(engine.info().counts.businesses).toBe(1);
  });

  it('names a missing snapshot clearly', async () => {
    const engine = open();
    await expect(engine.load('/nonexistent/snapshot')).rejects.toMatchObject({ code: 'SNAPSHOT_NOT_FOUND' });
    const empty = snapshot({ 'readme.txt': 'nothing here' });
    await expect(engine.load(empty)).rejects.toMatchObject({ code: 'SNAPSHOT_NOT_FOUND' });
    expect(readFileSync(join(empty, 'readme.txt'), 'utf8')).toBe('nothing here');
  });

  it('stores a JSON line as the validated record, as MessagePack streams do', async () => {
    const row = business(B1, {
      country_code: 'US',
      region_country_code: 'US-CA',
      founded_year: null,
      note: 'kept',
    });
    const json = open();
    await json.load(snapshot({ 'businesses.jsonl': `  ${JSON.stringify(row)}\r\n` }));
    const mp = open();
    await mp.load(snapshot({ 'businesses.msgpack': pack(row) }));
    const docOf = (e: Engine) => {
      const r = e.db.prepare('SELECT wire, rest FROM businesses').get() as { wire: Buffer; rest: Buffer };
      return decodeDoc('businesses', r.wire, r.rest);
    };
    const record = docOf(json);
    expect(record).toEqual(docOf(mp));
    expect(record).toMatchObject({
      country_code: 'us',
      region_country_code: 'us-ca',
      founded_year: null,
      note: 'kept',
    });
    expect(Object.keys(record).slice(-3)).toEqual(['enrichments', 'other_names', 'note']);
  });

  it('gives the same rows and the same reports for large files, on this thread and on a worker', async () => {
    // ~3 MB: lines straddle the reader's chunks (1 MiB raw, 256 KiB decompressed) and the worker batches.
    const rows: unknown[] = [];
    for (let i = 0; i < 1500; i++) {
      const id = i.toString(16).padStart(32, '0');
      if (i === 700) rows.push('{"business_id": "broken"');
      else if (i === 900) rows.push('');
      else if (i === 1200) rows.push(business(id, { naics: 7 }));
      else if (i === 1300) rows.push(business('0'.repeat(32)));
      else rows.push(business(id, { enrichments: { notes: { text: 'é€😀 '.repeat(200 + (i % 50)) } } }));
    }
    const text = jsonl(rows);
    const gz = snapshot({
      'businesses.jsonl.gz': gzipSync(text),
      'prospects.jsonl': jsonl([prospect(P1, B1)]),
    });
    const plain = snapshot({ 'businesses.jsonl': text, 'prospects.jsonl': jsonl([prospect(P1, B1)]) });
    expect(text.length).toBeGreaterThan(2 << 20); // large enough for the worker path
    const dump = (e: Engine) => ({
      businesses: comparableRows(e.db.prepare('SELECT * FROM businesses ORDER BY rowid').all()),
      prospects: comparableRows(e.db.prepare('SELECT * FROM prospects ORDER BY rowid').all()),
      keys: takeProspectKeys(e.db, getMeta(e.db, 'hash_prospects')),
    });
    const single = open();
    const one = await single.load(gz, { threads: 1 });
    const threaded = open();
    const two = await threaded.load(plain, { threads: 2 });
    const gzThreaded = open();
    const three = await gzThreaded.load(gz, { threads: 3 });
    expect(one.issues.map((i) => [i.line, i.reason.split(':')[0]])).toEqual([
      [701, 'invalid JSON'],
      [1201, 'naics'],
      [1301, 'duplicate id 00000000000000000000000000000000 (first at line 1)'],
    ]);
    expect(two.issues.map(({ line, reason }) => ({ line, reason }))).toEqual(
      one.issues.map(({ line, reason }) => ({ line, reason })),
    );
    expect(one.streams[0]).toMatchObject({ read: 1499, loaded: 1496, invalid: 2, duplicates: 1 });
    expect(three.issues).toEqual(one.issues);
    // The file hashed on a thread of its own gives the snapshot id hashing on this thread gives.
    expect(three.snapshotId).toBe(one.snapshotId);
    const expected = dump(single);
    expect(dump(threaded)).toEqual(expected);
    expect(dump(gzThreaded)).toEqual(expected);
  });

  it('loads a file database under a rollback journal and returns it to WAL, also after a refused load', async () => {
    const path = join(tempDir('pdb-db-'), 'x.db');
    const engine = open(path);
    await engine.load(snapshot({ 'businesses.jsonl': jsonl([business(B1)]) }));
    expect(engine.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(engine.db.pragma('page_size', { simple: true })).toBe(16384);
    const corrupt = snapshot({ 'businesses.jsonl.gz': Buffer.from('not gzip at all') });
    await expect(engine.load(corrupt)).rejects.toMatchObject({ code: 'SNAPSHOT_INVALID' });
    expect(engine.db.pragma('journal_mode', { simple: true })).toBe('wal');
    // Another connection keeps the file in WAL mode; the load still works. The switch to a rollback
    // journal waits for the other connection to go until the busy timeout (better-sqlite3's 5 s by
    // default), then loads in WAL mode: a short timeout takes the same path without the 5 s wait.
    const other = open(path);
    engine.db.pragma('busy_timeout = 100');
    await engine.load(snapshot({ 'businesses.jsonl': jsonl([business(B1), business(B2)]) }));
    expect(other.info().counts.businesses).toBe(2);
    expect(engine.db.pragma('journal_mode', { simple: true })).toBe('wal');
  });
});
