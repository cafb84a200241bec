/**
 * Snapshot → SQLite. Each stream is replaced in one transaction (all streams in one when `strict`), so a
 * crash or a refused snapshot leaves the previous state intact. Bad lines are validated, reported with
 * file and line, and skipped; strict mode rolls everything back when any line is bad.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { Packr } from 'msgpackr';
import type { ZodType } from 'zod';
import { EngineError } from '../errors.js';
import {
  BusinessRecord,
  EventRecord,
  ProspectRecord,
  type EventRecord as EventRecordT,
} from '../schemas/records.js';
import { resolveSnapshot, STREAMS, type SnapshotSource, type StreamFile, type StreamName } from '../snapshot/files.js';
import { readBatches } from '../snapshot/read.js';
import {
  businessColumns,
  businessKeys,
  NO_COMPANY,
  prospectColumns,
  prospectKeys,
  type CompanyColumns,
} from './derive.js';
import { getMeta, setMeta, type Db } from './open.js';
import { DROP_ENTITY_INDEXES, ENTITY_INDEXES } from './schema.js';

/** The one MessagePack codec for stored documents (plain maps, so any reader can decode them). */
export const docCodec = new Packr({ useRecords: false, moreTypes: false });

export interface LoadIssue {
  file: string;
  line: number;
  reason: string;
}

export interface StreamReport {
  stream: StreamName;
  file: string;
  read: number;
  loaded: number;
  invalid: number;
  duplicates: number;
}

export interface LoadReport {
  snapshotId: string;
  asOf: string;
  streams: StreamReport[];
  /** The first `maxIssues` bad lines; `issueCount` counts them all. */
  issues: LoadIssue[];
  issueCount: number;
  elapsedMs: number;
}

export interface LoadProgress {
  stream: StreamName;
  rows: number;
  bytesRead: number;
  bytesTotal: number;
}

export interface LoadOptions {
  /** Refuse the whole snapshot (and change nothing) when any line is bad. */
  strict?: boolean;
  /** How many bad lines to keep in the report (all are counted). Default 1000. */
  maxIssues?: number;
  onProgress?: (p: LoadProgress) => void;
  /** Clock for `as_of` when the manifest has none. */
  now?: () => number;
}

const ORDER = (s: StreamName) => STREAMS.indexOf(s);
const SCHEMAS: Record<StreamName, ZodType> = {
  businesses: BusinessRecord,
  prospects: ProspectRecord,
  events: EventRecord,
};

function issueReason(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** Loads a snapshot into `db`. Streams absent from the snapshot keep their current rows. */
export async function loadSnapshot(db: Db, source: SnapshotSource, options: LoadOptions = {}): Promise<LoadReport> {
  const started = performance.now();
  const snapshot = resolveSnapshot(source);
  const files = [...snapshot.files].sort((a, b) => ORDER(a.stream) - ORDER(b.stream));
  const asOf = snapshot.manifest?.as_of ?? new Date((options.now ?? Date.now)()).toISOString();
  const asOfYear = new Date(asOf).getUTCFullYear();
  const maxIssues = options.maxIssues ?? 1000;
  const issues: LoadIssue[] = [];
  let issueCount = 0;
  const report = (issue: LoadIssue) => {
    issueCount++;
    if (issues.length < maxIssues) issues.push(issue);
  };
  const streams: StreamReport[] = [];
  const strict = options.strict ?? false;

  const hashes = new Map<StreamName, string>();
  const run = async (file: StreamFile) => {
    const hash = createHash('sha256');
    const result = await loadStream(db, file, { asOfYear, report, hash, onProgress: options.onProgress });
    hashes.set(file.stream, hash.digest('hex'));
    streams.push(result);
  };

  const begin = () => db.exec('BEGIN IMMEDIATE');
  const rollback = () => {
    if (db.inTransaction) db.exec('ROLLBACK');
  };
  try {
    if (strict) begin();
    for (const file of files) {
      if (!strict) begin();
      await run(file);
      if (!strict) {
        if (file.stream === 'businesses' && !files.some((f) => f.stream === 'prospects')) {
          refreshProspectCompanies(db);
        }
        db.exec('COMMIT');
      }
    }
    if (strict && issueCount > 0) {
      rollback();
      throw new EngineError('SNAPSHOT_INVALID', `snapshot refused: ${issueCount} invalid line(s)`, {
        detail: { streams, issues, issueCount },
      });
    }
    if (strict) {
      if (files.some((f) => f.stream === 'businesses') && !files.some((f) => f.stream === 'prospects')) {
        refreshProspectCompanies(db);
      }
    } else {
      begin();
    }
    // The snapshot id hashes the content of every stream now in the database: same files, same id.
    for (const [stream, digest] of hashes) setMeta(db, `hash_${stream}`, digest);
    const snapshotId = createHash('sha256')
      .update(STREAMS.map((s) => getMeta(db, `hash_${s}`) ?? '').join('\n'))
      .digest('hex')
      .slice(0, 32);
    setMeta(db, 'snapshot_id', snapshotId);
    setMeta(db, 'format_version', String(snapshot.manifest?.format_version ?? 1));
    setMeta(db, 'as_of', asOf);
    setMeta(db, 'data_version', String(Number(getMeta(db, 'data_version') ?? '0') + 1));
    db.exec('COMMIT');
    return { snapshotId, asOf, streams, issues, issueCount, elapsedMs: performance.now() - started };
  } catch (e) {
    rollback();
    throw e;
  }
}

interface StreamContext {
  asOfYear: number;
  report: (issue: LoadIssue) => void;
  hash: ReturnType<typeof createHash>;
  onProgress: LoadOptions['onProgress'];
}

async function loadStream(db: Db, file: StreamFile, ctx: StreamContext): Promise<StreamReport> {
  const result: StreamReport = { stream: file.stream, file: file.path, read: 0, loaded: 0, invalid: 0, duplicates: 0 };
  const schema = SCHEMAS[file.stream];
  const insert = inserter(db, file.stream, ctx.asOfYear);
  const bytesTotal = statSync(file.path).size;
  let bytesRead = 0;
  const onChunk = (chunk: Buffer) => {
    bytesRead += chunk.length;
    ctx.hash.update(chunk);
  };

  db.exec(DROP_ENTITY_INDEXES);
  clearStream(db, file.stream);
  const seen = new Map<string, number>();
  for await (const batch of unreadable(file.path, readBatches(file.path, file.format, onChunk))) {
    for (const raw of batch) {
      result.read++;
      if (raw.error !== undefined) {
        result.invalid++;
        ctx.report({ file: file.path, line: raw.line, reason: raw.error });
        continue;
      }
      const parsed = schema.safeParse(raw.value);
      if (!parsed.success) {
        result.invalid++;
        ctx.report({ file: file.path, line: raw.line, reason: issueReason(parsed.error) });
        continue;
      }
      const id = insert.idOf(parsed.data);
      const first = seen.get(id);
      if (first !== undefined) {
        result.duplicates++;
        ctx.report({ file: file.path, line: raw.line, reason: `duplicate id ${id} (first at line ${first})` });
        continue;
      }
      seen.set(id, raw.line);
      insert.row(parsed.data);
      result.loaded++;
    }
    ctx.onProgress?.({ stream: file.stream, rows: result.read, bytesRead, bytesTotal });
  }
  db.exec(ENTITY_INDEXES);
  return result;
}

/** A file that cannot be read or decompressed refuses the load, naming the file. */
async function* unreadable<T>(path: string, batches: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* batches;
  } catch (e) {
    throw new EngineError('SNAPSHOT_INVALID', `${path}: cannot be read (${(e as Error).message})`);
  }
}

function clearStream(db: Db, stream: StreamName): void {
  if (stream === 'businesses') {
    db.exec(`DELETE FROM businesses; DELETE FROM match_keys WHERE entity = 'business';`);
  } else if (stream === 'prospects') {
    db.exec(`DELETE FROM prospects; DELETE FROM match_keys WHERE entity = 'prospect';`);
  } else {
    db.exec('DELETE FROM events');
  }
}

interface Inserter {
  idOf(record: unknown): string;
  row(record: unknown): void;
}

function inserter(db: Db, stream: StreamName, asOfYear: number): Inserter {
  const key = db.prepare('INSERT INTO match_keys (entity, kind, key, row) VALUES (?, ?, ?, ?)');
  if (stream === 'businesses') {
    const insert = db.prepare(`INSERT INTO businesses (business_id, name, name_key, domain, host, linkedin_slug,
      country_code, region_country_code, city_name, city_region, city_region_country, size, revenue, founded_year,
      age, number_of_locations, locations, naics, is_public, has_website, doc)
      VALUES (@business_id, @name, @name_key, @domain, @host, @linkedin_slug, @country_code, @region_country_code,
      @city_name, @city_region, @city_region_country, @size, @revenue, @founded_year, @age, @number_of_locations,
      @locations, @naics, @is_public, @has_website, @doc)`);
    return {
      idOf: (r) => (r as BusinessRecord).business_id,
      row(r) {
        const b = r as BusinessRecord;
        const cols = businessColumns(b, asOfYear);
        const rowid = insert.run({ ...cols, doc: docCodec.pack(b) }).lastInsertRowid;
        for (const [kind, k] of businessKeys(cols)) key.run('business', kind, k, rowid);
      },
    };
  }
  if (stream === 'prospects') {
    const companies = companyLookup(db);
    const insert = db.prepare(`INSERT INTO prospects (prospect_id, business_id, business_rowid, full_name, name_key,
      linkedin_slug, country_code, region_country_code, job_title, job_level, job_department, total_experience_months,
      current_role_months, has_email, has_phone, company_name, company_website, company_linkedin, company_size,
      company_revenue, company_age, company_locations, company_country_code, company_region_country_code,
      company_city_region_country, company_naics, company_is_public, company_has_website, doc)
      VALUES (@prospect_id, @business_id, @business_rowid, @full_name, @name_key, @linkedin_slug, @country_code,
      @region_country_code, @job_title, @job_level, @job_department, @total_experience_months, @current_role_months,
      @has_email, @has_phone, @company_name, @company_website, @company_linkedin, @company_size, @company_revenue,
      @company_age, @company_locations, @company_country_code, @company_region_country_code,
      @company_city_region_country, @company_naics, @company_is_public, @company_has_website, @doc)`);
    return {
      idOf: (r) => (r as ProspectRecord).prospect_id,
      row(r) {
        const p = r as ProspectRecord;
        const cols = prospectColumns(p);
        const company = (p.business_id && companies.get(p.business_id)) || NO_COMPANY;
        const rowid = insert.run({ ...cols, ...company, doc: docCodec.pack(p) }).lastInsertRowid;
        for (const [kind, k] of prospectKeys(p, cols.linkedin_slug)) key.run('prospect', kind, k, rowid);
      },
    };
  }
  const insert = db.prepare(`INSERT INTO events (event_id, event_name, entity_type, entity_id, event_time,
    ingested_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const loadedAt = Date.now();
  return {
    idOf: (r) => (r as EventRecordT).event_id,
    row(r) {
      const e = r as EventRecordT;
      const [type, id] = 'business_id' in e ? ['business', e.business_id] : ['prospect', e.prospect_id];
      insert.run(e.event_id, e.event_name, type, id, Date.parse(e.event_time), loadedAt, docCodec.pack(e.data));
    },
  };
}

const COMPANY_SELECT = `SELECT rowid AS business_rowid, name AS company_name, size AS company_size,
  revenue AS company_revenue, age AS company_age, locations AS company_locations,
  country_code AS company_country_code, region_country_code AS company_region_country_code,
  city_region_country AS company_city_region_country, naics AS company_naics, is_public AS company_is_public,
  has_website AS company_has_website, doc FROM businesses`;

/** business_id → the company columns its prospects inherit. */
function companyLookup(db: Db): Map<string, CompanyColumns> {
  const map = new Map<string, CompanyColumns>();
  for (const row of db.prepare(COMPANY_SELECT).iterate() as Iterable<Record<string, unknown> & { doc: Buffer }>) {
    const doc = docCodec.unpack(row.doc) as BusinessRecord;
    const { doc: _doc, ...cols } = row;
    map.set(doc.business_id, {
      ...(cols as unknown as CompanyColumns),
      company_website: doc.website ?? (doc.domain ? `https://${doc.domain}` : null),
      company_linkedin: doc.linkedin_profile,
    });
  }
  return map;
}

/** After businesses change without a prospects stream, re-derive the company columns of every prospect. */
function refreshProspectCompanies(db: Db): void {
  const companies = companyLookup(db);
  const update = db.prepare(`UPDATE prospects SET business_rowid = @business_rowid, company_name = @company_name,
    company_website = @company_website, company_linkedin = @company_linkedin, company_size = @company_size,
    company_revenue = @company_revenue, company_age = @company_age, company_locations = @company_locations,
    company_country_code = @company_country_code, company_region_country_code = @company_region_country_code,
    company_city_region_country = @company_city_region_country, company_naics = @company_naics,
    company_is_public = @company_is_public, company_has_website = @company_has_website WHERE rowid = @rowid`);
  const rows = db.prepare('SELECT rowid, business_id FROM prospects').all() as {
    rowid: number;
    business_id: string | null;
  }[];
  for (const { rowid, business_id } of rows) {
    update.run({ ...((business_id && companies.get(business_id)) || NO_COMPANY), rowid });
  }
}
