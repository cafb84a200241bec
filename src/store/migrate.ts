/**
 * Files written before schema 5 keep each record twice (a JSON or MessagePack `doc` beside a `wire`
 * record with its keys spelled out); files of schema 5 lack the businesses' `other_names` (a business
 * `wire` one value shorter, no `other_names` column; a snapshot's `other_names` kept, unvalidated, as an
 * unknown key of `rest`). `openDatabase` refuses both (`layout.ts`, with the fix), and `migrateFile`
 * (`prospectdb migrate`) rewrites one into the current layout from its `doc`, or from its `wire` and
 * `rest`: the same records as a reload of the snapshot would store, without the snapshot. Rowids and
 * events are kept (the data version does not change); saved indexes are rebuilt, their format having
 * changed with schema 6, and the old `match_keys` table is dropped (the saved match index holds those
 * keys). Files of schema 6 and older also keep each prospect's employer columns beside it (`company_name`
 * … `company_has_website`), which schema 7 joins from the business instead: a schema-6 file is read as it
 * is, and `migrateFile` rebuilds the prospects table without them.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { EngineError } from '../errors.js';
import type { BusinessRecord, ProspectRecord } from '../schemas/records.js';
import { codecMeta, docCodec, fileCodec, joinDoc, packRest, unpackRest } from './codec.js';
import type { Db } from './db.js';
import { companyWebsite } from './derive.js';
import { columnsOf, ENTITY_TABLES, hasDocs, hasOldLayout } from './layout.js';
import { createIndexes, PROSPECTS_TABLE, SCHEMA_VERSION } from './schema.js';
import { MIGRATE_SQL } from './sql/load.js';
import { validator } from './validate.js';
import {
  businessFacets,
  businessRecord,
  otherNamesColumn,
  packWire,
  prospectFacets,
  prospectRecord,
  WIRE_KEYS,
  wireCodec,
} from './wire.js';

/** Whether `db` holds prospects with their employer's columns beside them (schema 6 and older). */
function hasCompanyCopies(db: Db): boolean {
  return columnsOf(db, 'prospects').has('company_name');
}

/**
 * The prospects table rebuilt without the employer columns schema 6 kept beside each prospect (reads
 * join the business now): the rows copied once, rowids kept, then the old table dropped.
 */
function dropCompanyCopies(db: Db): void {
  const old = columnsOf(db, 'prospects');
  db.exec('ALTER TABLE prospects RENAME TO prospects_6');
  db.exec(PROSPECTS_TABLE);
  const columns = [...columnsOf(db, 'prospects')].filter((c) => old.has(c)).join(', ');
  db.exec(`INSERT INTO prospects (${columns}) SELECT ${columns} FROM prospects_6 ORDER BY rowid`);
  db.exec('DROP TABLE prospects_6');
  db.exec(createIndexes('prospects'));
}

/**
 * A stored pre-5 `doc`: the snapshot line's JSON text or MessagePack, validated again (as the load did;
 * a business document gets the `other_names` of the current schema).
 */
function oldDoc(stream: 'businesses' | 'prospects', doc: Buffer): Record<string, unknown> {
  const value: unknown = doc[0] !== 0x7b ? docCodec.unpack(doc) : JSON.parse(doc.toString('utf8'));
  const v = validator(stream)(value);
  if (!v.ok) throw new Error(`stored ${stream} document no longer validates: ${v.reason}`);
  return v.record as Record<string, unknown>;
}

/** Columns older files lack (filled below from `doc` or the stored record, as everything else). */
const ADDED: Readonly<Record<'businesses' | 'prospects', readonly string[]>> = {
  businesses: [
    'website_url TEXT',
    'linkedin_profile TEXT',
    'wire BLOB',
    'facets BLOB',
    'rest BLOB',
    'other_names TEXT',
  ],
  prospects: ['wire BLOB', 'facets BLOB', 'rest BLOB'],
};

/** The business `wire` keys of schema 5: the current ones without `other_names`. */
const WIRE_KEYS_5 = WIRE_KEYS.businesses.filter((k) => k !== 'other_names');

/** A schema-5 business record: its `wire` read with the keys of then, joined with its `rest`, validated again. */
function storedBusiness5(db: Db, wire: Buffer, rest: Buffer): BusinessRecord {
  const values = wireCodec.unpack(wire) as unknown[];
  if (!Array.isArray(values) || values.length !== WIRE_KEYS_5.length) {
    throw new Error(`stored businesses record is not a ${WIRE_KEYS_5.length}-value array`);
  }
  const full: Record<string, unknown> = {};
  WIRE_KEYS_5.forEach((k, i) => (full[k] = values[i]));
  const record = joinDoc('businesses', full, unpackRest('businesses', rest, fileCodec(db)));
  // A key of `rest` that schema 5 did not know is taken as written; `undefined` is an absent key.
  if (record.other_names === undefined) delete record.other_names;
  const v = validator('businesses')(record);
  if (!v.ok) throw new Error(`stored businesses record no longer validates: ${v.reason}`);
  return v.record as BusinessRecord;
}

export interface MigrateReport {
  path: string;
  fromVersion: string | null;
  businesses: number;
  prospects: number;
  bytesBefore: number;
  bytesAfter: number;
}

/**
 * Rewrites the file at `path` (in place, or into `out`, leaving `path` as it is) into the current
 * layout. Throws when the file is already current.
 */
export function migrateFile(path: string, options: { out?: string } = {}): MigrateReport {
  if (!existsSync(path)) throw new EngineError('NOT_FOUND', `${path}: no such database`);
  if (options.out !== undefined) {
    if (existsSync(options.out)) throw new EngineError('CONFLICT', `${options.out} exists already`);
    const source = new Database(path, { readonly: true });
    try {
      source.prepare('VACUUM INTO ?').run(options.out);
    } finally {
      source.close();
    }
  }
  const target = options.out ?? path;
  const db = new Database(target);
  try {
    const version = (db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() ??
      null) as string | null;
    if (!hasOldLayout(db) && !hasCompanyCopies(db)) {
      throw new EngineError('CONFLICT', `${target}: already at schema version ${SCHEMA_VERSION}`);
    }
    const bytesBefore = fileBytes(db);
    const counts = hasOldLayout(db) ? rewrite(db) : { businesses: 0, prospects: 0 };
    if (hasCompanyCopies(db)) db.transaction(() => dropCompanyCopies(db))();
    const set = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    for (const [key, value] of [['schema_version', String(SCHEMA_VERSION)], ...codecMeta()]) {
      set.run(key, value);
    }
    // Dropping `doc` or the employer columns leaves their pages free inside the file: give them back.
    db.pragma('journal_mode = DELETE');
    db.exec('VACUUM');
    return { path: target, fromVersion: version, ...counts, bytesBefore, bytesAfter: fileBytes(db) };
  } finally {
    db.close();
  }
}

const fileBytes = (db: Db) =>
  (db.pragma('page_count', { simple: true }) as number) *
  (db.pragma('page_size', { simple: true }) as number);

/**
 * The rows of `sql` (`rowid > ? … LIMIT ?`) in batches: a connection cannot write while a statement
 * iterates, and reading every old `doc` at once would hold the whole table in memory.
 */
function* batches<Row extends { rowid: number }>(db: Db, sql: string, size = 2000): Generator<Row> {
  const read = db.prepare(sql);
  let after = 0;
  for (;;) {
    const rows = read.all(after, size) as Row[];
    yield* rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.rowid;
  }
}

function rewrite(db: Db): { businesses: number; prospects: number } {
  const docs = hasDocs(db);
  for (const [table, defs] of Object.entries(ADDED)) {
    const have = columnsOf(db, table);
    for (const def of defs) {
      if (!have.has(def.slice(0, def.indexOf(' ')))) db.exec(`ALTER TABLE ${table} ADD COLUMN ${def}`);
    }
  }
  let businesses = 0;
  let prospects = 0;
  db.transaction(() => {
    const b = db.prepare(MIGRATE_SQL.updateBusiness);
    const storeBusiness = (rowid: number, doc: BusinessRecord) => {
      const wire = businessRecord(doc, []);
      b.run(
        companyWebsite(doc),
        doc.linkedin_profile,
        packWire('businesses', wire),
        businessFacets(doc),
        packRest('businesses', doc as unknown as Record<string, unknown>, wire),
        otherNamesColumn(doc),
        rowid,
      );
      businesses++;
    };
    if (!docs) {
      // Schema 5: only the businesses changed (a prospect's `wire` and `rest` are as they were).
      type Stored = { rowid: number; wire: Buffer; rest: Buffer };
      for (const r of batches<Stored>(db, MIGRATE_SQL.businessStored)) {
        storeBusiness(r.rowid, storedBusiness5(db, r.wire, r.rest));
      }
      return;
    }
    for (const r of batches<{ rowid: number; doc: Buffer }>(db, MIGRATE_SQL.businessDocs)) {
      storeBusiness(r.rowid, oldDoc('businesses', r.doc) as unknown as BusinessRecord);
    }
    const p = db.prepare(MIGRATE_SQL.updateProspect);
    for (const r of batches<{
      rowid: number;
      doc: Buffer;
      company_name: string | null;
      company_website: string | null;
      company_linkedin: string | null;
    }>(db, MIGRATE_SQL.prospectDocs)) {
      const doc = oldDoc('prospects', r.doc) as unknown as ProspectRecord;
      const wire = prospectRecord(doc, r);
      p.run(
        packWire('prospects', wire),
        prospectFacets(doc),
        packRest('prospects', doc as unknown as Record<string, unknown>, wire),
        r.rowid,
      );
      prospects++;
    }
    for (const t of ENTITY_TABLES) db.exec(`ALTER TABLE ${t} DROP COLUMN doc`);
    // Exact match keys live in the saved match index now (rebuilt from the records when stale).
    db.exec('DROP TABLE IF EXISTS match_keys');
  })();
  return { businesses, prospects };
}
