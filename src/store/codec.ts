/**
 * Stored records. An entity is stored once, in two blobs:
 * - `wire`: its full fetch record (`wire.ts`), what a fetch reads;
 * - `rest`: the fields of the validated record that `wire` does not already hold with the same value
 *   (codes, experience and education entries, e-mails, phones, `enrichments`, unknown keys …), as JSON
 *   text compressed with raw deflate and a preset dictionary (`record-dictionary.ts`, also saved in the
 *   file's meta). Measured on generated records: prospects' rest 1,071 B of JSON → 273 B, businesses'
 *   6.2 KB → 1.1 KB (plain deflate: 518 B and 2.3 KB); inflating one takes ~20 µs, paid only by readers
 *   of the whole record (enrichments), never by a fetch.
 * `decodeDoc` rebuilds the validated record from both, with its keys in the validated order (the
 * schema's keys, then unknown keys), which `test/records.test.ts` checks against the loader's output.
 */
import { isDeepStrictEqual } from 'node:util';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Packr } from 'msgpackr';
import type { ZodObject } from 'zod';
import type { BusinessRecord, ProspectRecord } from '../schemas/records.js';
import type { Db } from './db.js';
import { RECORD_DICTIONARY } from './record-dictionary.js';
import { metaStatements } from './sql/meta.js';
import { LOAD_SCHEMAS } from './validate.js';
import { unpackWire, WIRE_KEYS, type WireStream } from './wire.js';

/** The one MessagePack codec for event payloads (plain maps, any reader decodes them). */
export const docCodec = new Packr({ useRecords: false, moreTypes: false });

/** The record's keys in validated order (the schema's; unknown keys follow). */
const SCHEMA_KEYS: Record<WireStream, readonly string[]> = {
  businesses: Object.keys((LOAD_SCHEMAS.businesses as ZodObject).shape),
  prospects: Object.keys((LOAD_SCHEMAS.prospects as ZodObject).shape),
};

/** Keys a record shares with its fetch record: kept out of `rest` when their values are equal. */
const SHARED: Record<WireStream, readonly string[]> = {
  businesses: WIRE_KEYS.businesses.filter((k) => SCHEMA_KEYS.businesses.includes(k)),
  prospects: WIRE_KEYS.prospects.filter((k) => SCHEMA_KEYS.prospects.includes(k)),
};
const SHARED_SET: Record<WireStream, ReadonlySet<string>> = {
  businesses: new Set(SHARED.businesses),
  prospects: new Set(SHARED.prospects),
};

/**
 * Marks a `rest` that holds every key of its record (no sharing): a record that does not start with
 * every schema key in schema order (never made by the loader's validation) is stored whole.
 */
const WHOLE = '~whole';

/** The deflate dictionary of the stored `rest` blobs (a file's meta holds the one it was written with). */
export const RECORD_DICTIONARY_BYTES = Buffer.from(RECORD_DICTIONARY, 'utf8');

/** Meta key of the dictionary a file's `rest` blobs were written with (base64). */
export const DICTIONARY_META = 'record_dictionary';

const fileDictionaries = new WeakMap<Db, Uint8Array>();

/** The dictionary of `db`'s `rest` blobs: its meta's, else this version's (a file not loaded yet). */
export function fileDictionary(db: Db): Uint8Array {
  let d = fileDictionaries.get(db);
  if (!d) {
    const saved = metaStatements(db).get.get(DICTIONARY_META) as string | undefined;
    d = saved ? Buffer.from(saved, 'base64') : RECORD_DICTIONARY_BYTES;
    fileDictionaries.set(db, d);
  }
  return d;
}

/** The fields of `record` its fetch record `wire` does not hold with the same value. */
export function restOf(
  stream: WireStream,
  record: Record<string, unknown>,
  wire: Record<string, unknown>,
): Record<string, unknown> {
  const shared = SHARED_SET[stream];
  const keys = SCHEMA_KEYS[stream];
  const rest: Record<string, unknown> = {};
  let i = 0;
  for (const k in record) {
    if (i < keys.length && k !== keys[i++]) return { [WHOLE]: true, ...record };
    const v = record[k];
    if (shared.has(k) && isDeepStrictEqual(v, wire[k])) continue;
    rest[k] = v;
  }
  return i < keys.length ? { [WHOLE]: true, ...record } : rest;
}

/**
 * The stored `rest` blob of `record`, whose fetch record is `wire`.
 * Level 6: level 1 was 12 % larger for 30 % less time (measured on generated records).
 */
export function packRest(
  stream: WireStream,
  record: Record<string, unknown>,
  wire: Record<string, unknown>,
  dictionary: Uint8Array = RECORD_DICTIONARY_BYTES,
): Buffer {
  return deflateRawSync(JSON.stringify(restOf(stream, record, wire)), { level: 6, dictionary });
}

/** The `rest` fields as stored. */
export function unpackRest(rest: Uint8Array, dictionary: Uint8Array = RECORD_DICTIONARY_BYTES) {
  return JSON.parse(inflateRawSync(rest, { dictionary }).toString('utf8')) as Record<string, unknown>;
}

/**
 * The validated record stored as `wire` + `rest`.
 * @example const record = decodeDoc('businesses', row.wire, row.rest); record.name
 */
export function decodeDoc(
  stream: 'businesses',
  wire: Uint8Array,
  rest: Uint8Array,
  dictionary?: Uint8Array,
): BusinessRecord;
export function decodeDoc(
  stream: 'prospects',
  wire: Uint8Array,
  rest: Uint8Array,
  dictionary?: Uint8Array,
): ProspectRecord;
export function decodeDoc(
  stream: WireStream,
  wire: Uint8Array,
  rest: Uint8Array,
  dictionary?: Uint8Array,
): BusinessRecord | ProspectRecord;
export function decodeDoc(
  stream: WireStream,
  wire: Uint8Array,
  rest: Uint8Array,
  dictionary?: Uint8Array,
): unknown {
  return joinDoc(stream, unpackWire(stream, wire), unpackRest(rest, dictionary));
}

/** The record whose fetch record is `wire` and whose `rest` is `rest` (the inverse of `restOf`). */
export function joinDoc(
  stream: WireStream,
  wire: Record<string, unknown>,
  rest: Record<string, unknown>,
): Record<string, unknown> {
  if (rest[WHOLE] === true) {
    const { [WHOLE]: _, ...record } = rest;
    return record;
  }
  const shared = SHARED_SET[stream];
  const out: Record<string, unknown> = {};
  const keys = SCHEMA_KEYS[stream];
  for (const k of keys) out[k] = shared.has(k) && !(k in rest) ? wire[k] : rest[k];
  for (const k in rest) if (!(k in out)) out[k] = rest[k];
  return out;
}
