/**
 * Stored documents. An entity's `doc` is its snapshot line as read (JSON text, from JSON Lines streams:
 * storing the bytes costs nothing, where encoding the parsed record again was a tenth of a load) or the
 * validated record as MessagePack (MessagePack streams, older databases). The first byte tells them
 * apart: a JSON object starts with `{` (0x7b), which MessagePack never uses for a map. Readers decode
 * with `decodeDoc`, which validates JSON documents again (the same validation as the load, so the same
 * record: defaults filled in, codes lower-cased).
 */
import { Packr } from 'msgpackr';
import type { BusinessRecord, ProspectRecord } from '../schemas/records.js';
import { validator } from './validate.js';

/** The one MessagePack codec for stored documents and event payloads (plain maps, any reader decodes them). */
export const docCodec = new Packr({ useRecords: false, moreTypes: false });

const OPEN_BRACE = 0x7b;
const validate = { businesses: validator('businesses'), prospects: validator('prospects') };

/**
 * The validated record a stored entity `doc` holds.
 * @example const record = decodeDoc('businesses', row.doc); record.name
 */
export function decodeDoc(stream: 'businesses', doc: Uint8Array): BusinessRecord;
export function decodeDoc(stream: 'prospects', doc: Uint8Array): ProspectRecord;
export function decodeDoc(
  stream: 'businesses' | 'prospects',
  doc: Uint8Array,
): BusinessRecord | ProspectRecord;
export function decodeDoc(stream: 'businesses' | 'prospects', doc: Uint8Array): unknown {
  if (doc[0] !== OPEN_BRACE) return docCodec.unpack(doc);
  const v = validate[stream](
    JSON.parse(Buffer.from(doc.buffer, doc.byteOffset, doc.byteLength).toString('utf8')),
  );
  // Only validated lines are stored, and validation is deterministic.
  if (!v.ok) throw new Error(`stored ${stream} document no longer validates: ${v.reason}`);
  return v.record;
}
