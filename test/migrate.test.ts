/**
 * Files of the layout before schema 5 (a `doc` per record beside a keyed `wire` map): refused on open
 * with the fix, and rewritten by `prospectdb migrate` into files that answer exactly as a fresh load.
 * The old files are made from a fresh load of the demo snapshot the way the old loader wrote them.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { matchBusinessRows, matchProspectRows } from '../src/core/match/index.js';
import { openEngine } from '../src/engine.js';
import { EngineError } from '../src/errors.js';
import { decodeDoc, packRest } from '../src/store/codec.js';
import { migrateFile } from '../src/store/migrate.js';
import { packJson } from '../src/store/msgpack.js';
import { unpackWire, WIRE_KEYS } from '../src/store/wire.js';
import golden from './records.golden.json' with { type: 'json' };
import { BUILT_CLI } from './support/built-cli.js';
import { DEMO_NOW, demoEngine } from './support/demo.js';
import { recordsGolden } from './support/records-golden.js';
import { comparableRows } from './support/rows.js';

const dir = mkdtempSync(join(tmpdir(), 'prospectdb-migrate-'));
const fresh = join(dir, 'fresh.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let oldV4: string;
beforeAll(async () => {
  (await demoEngine({ path: fresh })).close();
  oldV4 = fileV4('old-v4.db');
});

/**
 * A copy of the version 4 file (made once: converting 12k records takes a second, and the version 2
 * file is this one with two columns less, `fileV2`).
 */
function copyOfV4(name: string): string {
  const path = join(dir, name);
  copyFileSync(oldV4, path);
  return path;
}

/**
 * A copy of the fresh file in the old layout of schema 4: `doc` = the record as JSON text (what the old
 * loader kept of a JSON line), `wire` = the fetch record as a keyed map, no `rest`. The rows are
 * rewritten in one transaction: one commit per row (12k of them, the file in WAL mode) took 3.5 s.
 */
function fileV4(name: string): string {
  const path = join(dir, name);
  copyFileSync(fresh, path);
  const db = new Database(path);
  for (const table of ['businesses', 'prospects'] as const) {
    db.exec(`ALTER TABLE ${table} ADD COLUMN doc BLOB`);
    const update = db.prepare(`UPDATE ${table} SET doc = ?, wire = ? WHERE rowid = ?`);
    const rows = db.prepare(`SELECT rowid, wire, rest FROM ${table}`).all() as {
      rowid: number;
      wire: Buffer;
      rest: Buffer;
    }[];
    db.transaction(() => {
      for (const r of rows) {
        const doc = JSON.stringify(decodeDoc(table, r.wire, r.rest));
        update.run(Buffer.from(doc), packJson(unpackWire(table, r.wire)), r.rowid);
      }
    })();
    db.exec(`ALTER TABLE ${table} DROP COLUMN rest`);
    if (table === 'businesses') db.exec('ALTER TABLE businesses DROP COLUMN other_names');
  }
  db.exec("DELETE FROM meta WHERE key IN ('record_dictionary', 'record_structures')");
  db.prepare("UPDATE meta SET value = '4' WHERE key = 'schema_version'").run();
  db.close();
  return path;
}

/**
 * A copy of the version 4 file as versions before 3 wrote it: the same `doc`, but no `wire` and no
 * `facets` (the migration derives them too). Made from the version 4 file, not converted again.
 */
function fileV2(name: string): string {
  const path = copyOfV4(name);
  const db = new Database(path);
  for (const table of ['businesses', 'prospects'] as const) {
    for (const c of ['wire', 'facets']) db.exec(`ALTER TABLE ${table} DROP COLUMN ${c}`);
  }
  db.prepare("UPDATE meta SET value = '2' WHERE key = 'schema_version'").run();
  db.close();
  return path;
}

/**
 * A copy of the fresh file as schema 5 wrote it: business `wire` arrays without `other_names`, a
 * snapshot's `other_names` kept as an unknown key of `rest`, no `other_names` column (one transaction,
 * as `fileV4`).
 */
function fileV5(name: string): string {
  const path = join(dir, name);
  copyFileSync(fresh, path);
  const db = new Database(path);
  const update = db.prepare('UPDATE businesses SET wire = ?, rest = ? WHERE rowid = ?');
  const rows = db.prepare('SELECT rowid, wire, rest FROM businesses').all() as {
    rowid: number;
    wire: Buffer;
    rest: Buffer;
  }[];
  db.transaction(() => {
    for (const r of rows) {
      const { other_names: names, ...record } = decodeDoc('businesses', r.wire, r.rest) as unknown as Record<
        string,
        unknown
      >;
      if ((names as unknown[]).length > 0) record.other_names = names;
      const { other_names: _, ...wire } = unpackWire('businesses', r.wire);
      const values = WIRE_KEYS.businesses.filter((k) => k !== 'other_names').map((k) => wire[k]);
      update.run(packJson(values), packRest('businesses', record, wire), r.rowid);
    }
  })();
  db.exec('ALTER TABLE businesses DROP COLUMN other_names');
  db.prepare("UPDATE meta SET value = '5' WHERE key = 'schema_version'").run();
  db.close();
  return path;
}

/** The employer columns schema 6 kept beside each prospect, and the business columns they copied. */
const COMPANY_COPIES = [
  ['company_name', 'name'],
  ['company_website', 'website_url'],
  ['company_linkedin', 'linkedin_profile'],
  ['company_size', 'size'],
  ['company_revenue', 'revenue'],
  ['company_age', 'age'],
  ['company_locations', 'locations'],
  ['company_country_code', 'country_code'],
  ['company_region_country_code', 'region_country_code'],
  ['company_city_region_country', 'city_region_country'],
  ['company_naics', 'naics'],
  ['company_is_public', 'is_public'],
  ['company_has_website', 'has_website'],
] as const;

/**
 * A copy of the fresh file as schema 6 wrote it: each prospect with its employer's columns beside it
 * (copied in one pass over the prospects: one pass per column rewrote the table thirteen times).
 */
function fileV6(name: string): string {
  const path = join(dir, name);
  copyFileSync(fresh, path);
  const db = new Database(path);
  db.transaction(() => {
    for (const [column] of COMPANY_COPIES) {
      const type = column.startsWith('company_is') || column.startsWith('company_has') ? 'INTEGER' : 'TEXT';
      db.exec(`ALTER TABLE prospects ADD COLUMN ${column} ${type}`);
    }
    const set = COMPANY_COPIES.map(([column, from]) => `${column} = b.${from}`).join(', ');
    db.exec(`UPDATE prospects SET ${set} FROM businesses b WHERE b.rowid = prospects.business_rowid`);
    db.prepare("UPDATE meta SET value = '6' WHERE key = 'schema_version'").run();
  })();
  db.close();
  return path;
}

const message = (path: string, version: string) =>
  `${path}: written with schema version ${version}, this prospectdb reads version 7 (each record stored ` +
  `once, compact, with other names). Rewrite it with \`prospectdb migrate --db ${path}\` (in place, or --out NEW_FILE), or ` +
  'load its snapshot again with `prospectdb load`.';

function cli(...args: string[]) {
  const env = { ...process.env };
  delete env.PROSPECTDB_STATE;
  const out = spawnSync(process.execPath, [BUILT_CLI, ...args], { encoding: 'utf8', env });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('a file of the old layout', () => {
  it('is refused on open, writable or not, with a typed error naming the file, its version and the fix', () => {
    const path = copyOfV4('old-refused.db');
    for (const readonly of [false, true]) {
      let error: unknown;
      try {
        openEngine({ path, readonly }).close();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({ code: 'SCHEMA_OUTDATED', message: message(path, '4') });
    }
    // The refusal changed nothing: the file still has its documents.
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM prospects WHERE doc IS NOT NULL').pluck().get()).toBe(10_000);
    db.close();
  });

  it('is refused by the CLI in one line, without a stack', () => {
    const path = copyOfV4('old-cli.db');
    const run = cli('info', '--db', path);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`prospectdb: ${message(path, '4')} [SCHEMA_OUTDATED]\n`);
  });

  it('is rewritten in place by prospectdb migrate, and then answers exactly as before', async () => {
    const path = copyOfV4('old-in-place.db');
    const run = cli('migrate', '--db', path);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^migrated ${path} from schema 4: 2000 businesses, 10000 prospects; [\\d.]+ MB → [\\d.]+ MB in [\\d.]+s \\(indexes built and saved in [\\d.]+s\\)`,
      ),
    );
    const engine = openEngine({ path, clock: () => DEMO_NOW });
    // Migrate saved every index: answering builds none (a build says so on stderr).
    const notices: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void notices.push(line));
    try {
      expect(await recordsGolden(engine)).toEqual(golden);
      expect(matchProspectRows(engine, [{ full_name: 'x y', company_name: 'z' }])).toHaveLength(1);
      expect(matchBusinessRows(engine, [{ name: 'z' }])).toHaveLength(1);
      spy.mockRestore();
      expect(notices).toEqual([]);
      expect(engine.info()).toMatchObject({
        schemaVersion: 7,
        counts: { businesses: 2000, prospects: 10_000 },
      });
    } finally {
      spy.mockRestore();
      engine.close();
    }
    // Run again: nothing to do, said so.
    const again = cli('migrate', '--db', path);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`prospectdb: ${path}: already at schema version 7 [CONFLICT]\n`);
  });

  it('of schema 5 is refused, then migrated to the records, other names and answers of a fresh load', async () => {
    const path = fileV5('old-v5.db');
    expect(() => openEngine({ path }).close()).toThrow(message(path, '5'));
    const out = join(dir, 'migrated-v5.db');
    expect(migrateFile(path, { out })).toMatchObject({ fromVersion: '5', businesses: 2000, prospects: 0 });
    const engine = openEngine({ path: out, clock: () => DEMO_NOW });
    const reference = openEngine({ path: fresh, readonly: true, clock: () => DEMO_NOW });
    try {
      expect(await recordsGolden(engine)).toEqual(golden);
      const all = (e: typeof engine) =>
        e.db.prepare('SELECT wire, rest, other_names FROM businesses ORDER BY rowid').all() as {
          wire: Buffer;
          rest: Buffer;
          other_names: string | null;
        }[];
      const migrated = all(engine);
      const loaded = all(reference);
      expect(migrated.map((r) => decodeDoc('businesses', r.wire, r.rest))).toEqual(
        loaded.map((r) => decodeDoc('businesses', r.wire, r.rest)),
      );
      expect(migrated.map((r) => r.other_names)).toEqual(loaded.map((r) => r.other_names));
      expect(loaded.filter((r) => r.other_names !== null).length).toBeGreaterThan(100);
    } finally {
      engine.close();
      reference.close();
    }
  });

  it('of schema 6 is read as it is, and migrated to the prospects table of a fresh load', async () => {
    const path = fileV6('old-v6.db');
    const rows = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return comparableRows(db.prepare('SELECT * FROM prospects ORDER BY rowid').all());
      } finally {
        db.close();
      }
    };
    // The employer columns are there, filled for the prospects with an employer.
    const v6 = new Database(path, { readonly: true });
    const copied = v6.prepare('SELECT count(*) FROM prospects WHERE company_name IS NOT NULL').pluck().get();
    v6.close();
    expect(copied).toBeGreaterThan(9_000);
    const old = openEngine({ path, readonly: true, clock: () => DEMO_NOW });
    try {
      expect(await recordsGolden(old)).toEqual(golden);
    } finally {
      old.close();
    }
    const report = migrateFile(path);
    expect(report).toMatchObject({ fromVersion: '6', businesses: 0, prospects: 0 });
    expect(report.bytesAfter).toBeLessThan(report.bytesBefore);
    expect(rows(path)).toEqual(rows(fresh));
    const engine = openEngine({ path, clock: () => DEMO_NOW });
    try {
      expect(await recordsGolden(engine)).toEqual(golden);
      expect(engine.info()).toMatchObject({ schemaVersion: 7 });
    } finally {
      engine.close();
    }
    expect(() => migrateFile(path)).toThrow(`${path}: already at schema version 7`);
  });

  it('is rewritten into a new file with --out (the old one left as it is), also from before schema 3', async () => {
    const path = fileV2('old-v2.db');
    const out = join(dir, 'migrated.db');
    const report = migrateFile(path, { out });
    expect(report).toMatchObject({ path: out, fromVersion: '2', businesses: 2000, prospects: 10_000 });
    expect(report.bytesAfter).toBeLessThan(report.bytesBefore);
    expect(() => openEngine({ path }).close()).toThrow(message(path, '2'));
    const engine = openEngine({ path: out, clock: () => DEMO_NOW });
    try {
      expect(await recordsGolden(engine)).toEqual(golden);
    } finally {
      engine.close();
    }
    expect(() => migrateFile(path, { out })).toThrow(`${out} exists already`);
    expect(() => migrateFile(join(dir, 'nothing.db'))).toThrow('no such database');
    expect(existsSync(join(dir, 'nothing.db'))).toBe(false);
  });
});
