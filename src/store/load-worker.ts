/**
 * The CPU side of a load, apart from SQLite: raw JSON lines → validated record → the positional row a
 * stream's INSERT binds, plus its match keys. Pure (the company columns a prospect inherits come in as
 * data), so the same code runs on the loading thread (`threads: 0`, MessagePack streams) and in
 * `worker_threads` workers that hand ready rows back to the thread that owns the database.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { BusinessRecord, EventRecord, ProspectRecord } from '../schemas/records.js';
import type { StreamName } from '../snapshot/files.js';
import { docCodec, packRest } from './codec.js';
import { COMPANY_FIELDS } from './load-columns.js';
import {
  businessColumns,
  companyWebsite,
  NO_COMPANY,
  prospectColumns,
  prospectKeys,
  type CompanyColumns,
} from './derive.js';
import { validator } from './validate.js';
import {
  businessFacets,
  businessRecord,
  otherNamesColumn,
  packWire,
  prospectFacets,
  prospectRecord,
} from './wire.js';

export interface StreamSetup {
  stream: StreamName;
  asOfYear: number;
  /** `ingested_at` of the events of this load. */
  loadedAt: number;
  /** Prospects only: `COMPANY_FIELDS` rows, flattened. */
  companies?: unknown[];
}

/**
 * A prepared line: the INSERT's positional values (the entity id first) and, for prospects, the exact
 * match keys as `[kind, key, kind, key, …]` (see `load-keys.ts`); or the reason it was refused.
 */
export type Prepared = { values: unknown[]; keys: string[] } | string;

function companyMap(flat: unknown[] = []): Map<string, CompanyColumns> {
  const map = new Map<string, CompanyColumns>();
  const n = COMPANY_FIELDS.length;
  for (let i = 0; i < flat.length; i += n) {
    const c = {} as Record<string, unknown>;
    for (let f = 1; f < n; f++) c[COMPANY_FIELDS[f]!] = flat[i + f];
    map.set(flat[i] as string, c as unknown as CompanyColumns);
  }
  return map;
}

/**
 * The per-record preparation of one stream: validated value → positional row, or a refusal reason.
 * (`raw`, the record's JSON line, is accepted for the callers that have it; the stored form is built
 * from the validated record, see `codec.ts`.)
 */
export function preparer(setup: StreamSetup): (value: unknown, raw?: Buffer) => Prepared {
  const validate = validator(setup.stream);
  const build = builder(setup);
  return (value) => {
    const v = validate(value);
    return v.ok ? build(v.record) : v.reason;
  };
}

function builder(setup: StreamSetup): (record: unknown) => Prepared {
  if (setup.stream === 'businesses') {
    return (r) => {
      const b = r as BusinessRecord;
      const c = businessColumns(b, setup.asOfYear);
      const wire = businessRecord(b, []);
      return {
        keys: [],
        values: [
          c.business_id,
          c.name,
          c.name_key,
          c.domain,
          c.host,
          c.linkedin_slug,
          c.country_code,
          c.region_country_code,
          c.city_name,
          c.city_region,
          c.city_region_country,
          c.size,
          c.revenue,
          c.founded_year,
          c.age,
          c.number_of_locations,
          c.locations,
          c.naics,
          c.is_public,
          c.has_website,
          packRest('businesses', b, wire),
          companyWebsite(b),
          b.linkedin_profile,
          packWire('businesses', wire),
          businessFacets(b),
          otherNamesColumn(b),
        ],
      };
    };
  }
  if (setup.stream === 'prospects') {
    const companies = companyMap(setup.companies);
    return (r) => {
      const p = r as ProspectRecord;
      const c = prospectColumns(p);
      const m = (p.business_id && companies.get(p.business_id)) || NO_COMPANY;
      const wire = prospectRecord(p, m);
      const keys: string[] = [];
      for (const [kind, k] of prospectKeys(p, c.linkedin_slug)) keys.push(kind, k);
      const values: unknown[] = [
        c.prospect_id,
        c.business_id,
        m.business_rowid,
        c.full_name,
        c.name_key,
        c.linkedin_slug,
        c.country_code,
        c.region_country_code,
        c.job_title,
        c.job_level,
        c.job_department,
        c.total_experience_months,
        c.current_role_months,
        c.has_email,
        c.has_phone,
      ];
      values.push(packRest('prospects', p, wire), packWire('prospects', wire), prospectFacets(p));
      return { keys, values };
    };
  }
  return (r) => {
    const e = r as EventRecord;
    const [type, id] = 'business_id' in e ? ['business', e.business_id] : ['prospect', e.prospect_id];
    return {
      keys: [],
      values: [
        e.event_id,
        e.event_name,
        type,
        id,
        Date.parse(e.event_time),
        setup.loadedAt,
        docCodec.pack(e.data),
      ],
    };
  };
}

/** A batch of whole JSON lines, `firstLine` being the 1-based number of its first line. */
export interface LineBatch {
  seq: number;
  firstLine: number;
  bytes: Uint8Array;
}

/** What a worker returns per batch: per non-blank line, its number and its prepared row or reason. */
export interface PreparedBatch {
  seq: number;
  /** Line ends (`\n`) in the batch: where the next batch's line numbers start. */
  newlines: number;
  lines: number[];
  items: Prepared[];
  /**
   * Between threads, the rows' binary values (documents, fetch records, facets) travel in one
   * transferred buffer: `blobs` lists `[item, column, start, end]` per value, its cell left null.
   * Posting each small Buffer instead copied the whole pooled ArrayBuffer behind it.
   */
  arena?: ArrayBuffer;
  blobs?: number[];
}

/** Moves the binary values of `batch` into one buffer; returns what to transfer. */
export function detachBlobs(batch: PreparedBatch): ArrayBuffer[] {
  let size = 0;
  for (const item of batch.items) {
    if (typeof item === 'string') continue;
    for (const v of item.values) if (v instanceof Uint8Array) size += v.byteLength;
  }
  const arena = new ArrayBuffer(size);
  const bytes = new Uint8Array(arena);
  const blobs: number[] = [];
  let at = 0;
  for (let i = 0; i < batch.items.length; i++) {
    const item = batch.items[i]!;
    if (typeof item === 'string') continue;
    const values = item.values;
    for (let c = 0; c < values.length; c++) {
      const v = values[c];
      if (!(v instanceof Uint8Array)) continue;
      bytes.set(v, at);
      blobs.push(i, c, at, at + v.byteLength);
      values[c] = null;
      at += v.byteLength;
    }
  }
  batch.arena = arena;
  batch.blobs = blobs;
  return [arena];
}

/** Puts the binary values of a batch from a worker back in their cells (views of its buffer). */
export function attachBlobs(batch: PreparedBatch): void {
  if (!batch.arena || !batch.blobs) return;
  const arena = Buffer.from(batch.arena);
  const blobs = batch.blobs;
  for (let k = 0; k < blobs.length; k += 4) {
    const item = batch.items[blobs[k]!] as { values: unknown[] };
    item.values[blobs[k + 1]!] = arena.subarray(blobs[k + 2]!, blobs[k + 3]!);
  }
}

/**
 * Splits a batch of whole lines (`\n`-terminated, the last may lack it) and prepares each non-blank
 * one. Line numbers count blank lines, as the single-thread reader does.
 */
export function prepareLines(
  prepare: (value: unknown, raw?: Buffer) => Prepared,
  batch: LineBatch,
): PreparedBatch {
  const buf = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  const lines: number[] = [];
  const items: Prepared[] = [];
  let line = batch.firstLine - 1;
  let start = 0;
  let newlines = 0;
  while (start < buf.length) {
    let end = buf.indexOf(10, start);
    if (end === -1) end = buf.length;
    else newlines++;
    line++;
    let s = start;
    let e = end;
    start = end + 1;
    while (s < e && isBlank(buf[s]!)) s++;
    while (e > s && isBlank(buf[e - 1]!)) e--;
    if (s === e) continue;
    const text = buf.toString('utf8', s, e);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (text.trim() === '') continue;
      lines.push(line);
      items.push(`invalid JSON: ${(error as Error).message}`);
      continue;
    }
    lines.push(line);
    items.push(prepare(value, buf.subarray(s, e)));
  }
  return { seq: batch.seq, newlines, lines, items };
}

const isBlank = (b: number) => b === 32 || b === 9 || b === 13 || b === 10;

export type WorkerMessage = ({ type: 'stream' } & StreamSetup) | ({ type: 'batch' } & LineBatch);

/** Marks the workers this module starts, so importing it elsewhere (a test runner's worker) is inert. */
export const WORKER_TAG = 'prospectdb-load-worker';

if (parentPort && (workerData as { tag?: string } | undefined)?.tag === WORKER_TAG) {
  const port = parentPort;
  let prepare: ((value: unknown) => Prepared) | undefined;
  port.on('message', (message: WorkerMessage) => {
    if (message.type === 'stream') {
      prepare = preparer(message);
      return;
    }
    const batch = prepareLines(prepare!, message);
    port.postMessage(batch, detachBlobs(batch));
  });
  port.postMessage({ type: 'ready' });
}
