/**
 * Files written before schema 5 keep each record twice (a JSON or MessagePack `doc` beside a `wire`
 * record with its keys spelled out). `openDatabase` refuses them (`layoutError`, with the fix), and
 * `migrateFile` (`prospectdb migrate`) rewrites one into the current layout from its `doc`: the same
 * records as a reload of the snapshot would store, without the snapshot. Rowids, events and saved
 * indexes are kept (the data version does not change); the old `match_keys` table is dropped (the
 * saved match index holds those keys).
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { EngineError } from '../errors.js';
import type { BusinessRecord, ProspectRecord } from '../schemas/records.js';
import { codecMeta, docCodec, packRest } from './codec.js';
import type { Db } from './db.js';
import { companyWebsite } from './derive.js';
import { SCHEMA_VERSION } from './schema.js';
import { MIGRATE_SQL } from './sql/load.js';
import { validator } from './validate.js';
import { businessFacets, businessRecord, packWire, prospectFacets, prospectRecord } from './wire.js';

const ENTITY_TABLES = ['businesses', 'prospects'] as const;

const columnsOf = (db: Db, table: string) =>
  new Set((db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));

/** Whether `db` holds entity tables in a layout older than schema 5 (a `doc` column). */
export function hasOldLayout(db: Db): boolean {
  return ENTITY_TABLES.some((t) => columnsOf(db, t).has('doc'));
}

/** The refusal of a file in an older layout: which file, its version, and the two fixes. */
export function layoutError(path: string, version: string | undefined): EngineError {
  return new EngineError(
    'SCHEMA_OUTDATED',
    `${path}: written with schema version ${version ?? 'unknown'}, this prospectdb reads version ` +
      `${SCHEMA_VERSION} (each record stored once, compact). Rewrite it with ` +
      `\`prospectdb migrate --db ${path}\` (in place, or --out NEW_FILE), or load its snapshot again ` +
      'with `prospectdb load`.',
    { detail: { path, version: version ?? null, expected: SCHEMA_VERSION } },
  );
}

/** A stored pre-5 `doc`: the snapshot line's JSON text (validated again, as the load did) or MessagePack. */
function oldDoc(stream: 'businesses' | 'prospects', doc: Buffer): Record<string, unknown> {
  if (doc[0] !== 0x7b) return docCodec.unpack(doc) as Record<string, unknown>;
  const v = validator(stream)(JSON.parse(doc.toString('utf8')));
  if (!v.ok) throw new Error(`stored ${stream} document no longer validates: ${v.reason}`);
  return v.record as Record<string, unknown>;
}

/** Columns files before schema 3 lack (filled below from `doc`, as everything else). */
const ADDED: Readonly<Record<'businesses' | 'prospects', readonly string[]>> = {
  businesses: ['website_url TEXT', 'linkedin_profile TEXT', 'wire BLOB', 'facets BLOB', 'rest BLOB'],
  prospects: ['wire BLOB', 'facets BLOB', 'rest BLOB'],
};

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
    if (!hasOldLayout(db)) {
      throw new EngineError('CONFLICT', `${target}: already at schema version ${SCHEMA_VERSION}`);
    }
    const bytesBefore = fileBytes(db);
    const counts = rewrite(db);
    const set = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    for (const [key, value] of [['schema_version', String(SCHEMA_VERSION)], ...codecMeta()]) {
      set.run(key, value);
    }
    // Dropping `doc` leaves its pages free inside the file: give them back.
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
    for (const r of batches<{ rowid: number; doc: Buffer }>(db, MIGRATE_SQL.businessDocs)) {
      const doc = oldDoc('businesses', r.doc) as unknown as BusinessRecord;
      const wire = businessRecord(doc, []);
      b.run(
        companyWebsite(doc),
        doc.linkedin_profile,
        packWire('businesses', wire),
        businessFacets(doc),
        packRest('businesses', doc as unknown as Record<string, unknown>, wire),
        r.rowid,
      );
      businesses++;
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
