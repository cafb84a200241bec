/**
 * Stored records. An entity is stored once, in two blobs:
 * - `wire`: its full fetch record (`wire.ts`), what a fetch reads;
 * - `rest`: the fields of the validated record that `wire` does not already hold with the same value
 *   (codes, experience and education entries, e-mails, phones, `enrichments`, unknown keys …).
 * `decodeDoc` rebuilds the validated record from both, with its keys in the validated order (the
 * schema's keys, then unknown keys), which `test/records.codec.test.ts` checks against the loader.
 *
 * A `rest` is encoded per stream, by what paid when measured on generated records (20k prospects, 4k
 * businesses; `bench/records.bench.ts` has the file-level figures):
 * - prospects: MessagePack with shared structures (the common object shapes, `PROSPECT_STRUCTURES`:
 *   keys written once, not per row): 1,071 B of JSON → 506 B. Deflate with a dictionary made it
 *   219 B but cost 3× the CPU per record at load (zlib sets up a stream and hashes the dictionary per
 *   call), for 9 % of the file;
 * - businesses: JSON, raw deflate (level 3) with a preset dictionary (`RECORD_DICTIONARY`): 6.2 KB → 1.1 KB
 *   (MessagePack with structures: 2.9 KB; deflate without a dictionary: 2.3 KB). Inflating one takes
 *   ~20 µs, paid only by readers of the whole record (enrichments), never by a fetch.
 */
import { isDeepStrictEqual } from 'node:util';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Packr, Unpackr } from 'msgpackr/pack';
import { RECORD_KEYS } from '../schemas/record-keys.js';
import type { BusinessRecord, ProspectRecord } from '../schemas/records.js';
import type { Db } from './db.js';
import { PROSPECT_STRUCTURES, RECORD_DICTIONARY } from './record-dictionary.js';
import { metaStatements } from './sql/meta.js';
import { unpackWire, WIRE_KEYS, type WireStream } from './wire.js';

/**
 * msgpackr's entry without native string extraction: its `msgpackr-extract` addon costs a tenth of the
 * package's import, so it is not loaded with it. A fetch page (after its first answer) and a bulk read
 * (an export) ask for it here, and the loader's stream reader imports the full entry, which turns it on
 * for every unpacker: a page of 100 full records then decodes ~10% faster.
 */
let nativeStrings: Promise<unknown> | undefined;
export function useNativeStringDecoding(): void {
  nativeStrings ??= import('msgpackr').catch(() => undefined);
}

/** The one MessagePack codec for event payloads (plain maps, any reader decodes them). */
export const docCodec = new Packr({ useRecords: false, moreTypes: false });

/** What decodes a file's `rest` blobs: the business dictionary and the prospect structures. */
export interface RestCodec {
  readonly dictionary: Uint8Array;
  readonly structures: readonly (readonly string[])[];
}

/** This version's codec (what a load writes). */
export const REST_CODEC: RestCodec = {
  dictionary: Buffer.from(RECORD_DICTIONARY, 'utf8'),
  structures: PROSPECT_STRUCTURES,
};

/** Meta keys of the codec a file's `rest` blobs were written with. */
export const CODEC_META = { dictionary: 'record_dictionary', structures: 'record_structures' } as const;

/** The meta rows that describe `codec`, as a load writes them. */
export function codecMeta(codec: RestCodec = REST_CODEC): [key: string, value: string][] {
  return [
    [CODEC_META.dictionary, Buffer.from(codec.dictionary).toString('base64')],
    [CODEC_META.structures, JSON.stringify(codec.structures)],
  ];
}

const fileCodecs = new WeakMap<Db, RestCodec>();

/** The codec of `db`'s `rest` blobs: its meta's, else this version's (a file not loaded yet). */
export function fileCodec(db: Db): RestCodec {
  let c = fileCodecs.get(db);
  if (!c) {
    const get = metaStatements(db).get;
    const dictionary = get.get(CODEC_META.dictionary) as string | undefined;
    const structures = get.get(CODEC_META.structures) as string | undefined;
    c = {
      dictionary: dictionary ? Buffer.from(dictionary, 'base64') : REST_CODEC.dictionary,
      structures: structures ? (JSON.parse(structures) as string[][]) : REST_CODEC.structures,
    };
    fileCodecs.set(db, c);
  }
  return c;
}

/**
 * msgpackr's (un)packers of a codec's structures. `maxSharedStructures` = the preset's length: a new
 * shape never joins the shared set (which every thread and every later reader must agree on); it is
 * written inside the blob that uses it.
 */
const packers = new WeakMap<RestCodec, { pack: Packr; unpack: Unpackr }>();
function packersOf(codec: RestCodec) {
  let p = packers.get(codec);
  if (!p) {
    const options = () => ({
      structures: codec.structures.map((s) => s.slice()),
      maxSharedStructures: codec.structures.length,
      moreTypes: false,
    });
    p = { pack: new Packr(options()), unpack: new Unpackr(options()) };
    packers.set(codec, p);
  }
  return p;
}

/** The record's keys in validated order (the schema's; unknown keys follow). */
const SCHEMA_KEYS: Record<WireStream, readonly string[]> = RECORD_KEYS;

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
 * First byte of a prospect `rest` stored as deflated JSON instead of MessagePack (0xc1: MessagePack
 * never uses it): msgpackr renames a `__proto__` key (to `__proto_`, against prototype pollution), so
 * a record holding one anywhere is stored the businesses' way.
 */
const JSON_REST = 0xc1;

function hasProtoKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasProtoKey);
  if (v === null || typeof v !== 'object') return false;
  for (const k in v) if (k === '__proto__' || hasProtoKey((v as Record<string, unknown>)[k])) return true;
  return false;
}

/** The stored `rest` blob of `record`, whose fetch record is `wire`. */
export function packRest(
  stream: WireStream,
  record: Record<string, unknown>,
  wire: Record<string, unknown>,
  codec: RestCodec = REST_CODEC,
): Buffer {
  const rest = restOf(stream, record, wire);
  // Level 3, measured on generated businesses (6.2 KB of rest JSON, CPU per blob, best of 5 rounds):
  // level 6 165 µs → 1,052 B, level 3 108 µs → 1,141 B, level 1 100 µs → 1,353 B. Level 3 takes a
  // third off the load's costliest step per business for 8 % more bytes in these blobs; below it the
  // set-up per call (the 32 KB dictionary hashed into a fresh stream) dominates and only size changes.
  // Any level inflates with the same dictionary: files written at level 6 read as before.
  // memLevel 4 instead of 8: zlib's state for a call is ~70 KB instead of ~260 KB, allocated and
  // cleared afresh per blob. 3,000 businesses: 106 µs against 137 µs per blob for 0.08 % more bytes
  // (memLevel 3 and below cost more time and bytes); a 2-thread load of 100k prospects, three pairs
  // of runs: 12.3–12.6 s against 13.2–13.4 s. Inflating does not depend on it.
  const deflated = () =>
    deflateRawSync(JSON.stringify(rest), { level: 3, memLevel: 4, dictionary: codec.dictionary });
  if (stream === 'businesses') return deflated();
  if (hasProtoKey(rest)) return Buffer.concat([Buffer.of(JSON_REST), deflated()]);
  return packersOf(codec).pack.pack(rest);
}

/** The `rest` fields as stored. */
export function unpackRest(
  stream: WireStream,
  rest: Uint8Array,
  codec: RestCodec = REST_CODEC,
): Record<string, unknown> {
  if (stream === 'prospects' && rest[0] !== JSON_REST) {
    return packersOf(codec).unpack.unpack(rest) as Record<string, unknown>;
  }
  const deflated = stream === 'prospects' ? rest.subarray(1) : rest;
  const json = inflateRawSync(deflated, { dictionary: codec.dictionary }).toString('utf8');
  return JSON.parse(json) as Record<string, unknown>;
}

/**
 * The validated record stored as `wire` + `rest`.
 * @example const record = decodeDoc('businesses', row.wire, row.rest); record.name
 */
export function decodeDoc(
  stream: 'businesses',
  wire: Uint8Array,
  rest: Uint8Array,
  codec?: RestCodec,
): BusinessRecord;
export function decodeDoc(
  stream: 'prospects',
  wire: Uint8Array,
  rest: Uint8Array,
  codec?: RestCodec,
): ProspectRecord;
export function decodeDoc(
  stream: WireStream,
  wire: Uint8Array,
  rest: Uint8Array,
  codec?: RestCodec,
): BusinessRecord | ProspectRecord;
export function decodeDoc(
  stream: WireStream,
  wire: Uint8Array,
  rest: Uint8Array,
  codec?: RestCodec,
): unknown {
  return joinDoc(stream, unpackWire(stream, wire), unpackRest(stream, rest, codec));
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
  // Own keys only: an unknown key may be named like an Object.prototype member (`valueOf`).
  for (const k of keys) out[k] = shared.has(k) && !Object.hasOwn(rest, k) ? wire[k] : rest[k];
  for (const k in rest) if (!Object.hasOwn(out, k)) out[k] = rest[k];
  return out;
}
