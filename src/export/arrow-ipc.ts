/**
 * Finished columns (`columnar.ts`) → one Arrow IPC stream (schema, one record batch, end of stream)
 * written into a buffer the caller reuses, for the Parquet encoder's `Table.fromIPCStream`.
 *
 * Why not `apache-arrow`'s `tableToIPC`: it allocates each frame anew (a few MB per row group, freed
 * on the encoder's thread: glibc kept much of that churn as resident memory) and, with the `Data` it
 * needs, cost ~1.5-2 µs per full prospect record; this copies each column buffer once into a pooled
 * frame. The schema message is `apache-arrow`'s own (made once, `schemaMessage`); the record batch's
 * metadata is a fixed-shape FlatBuffer written here (format: https://arrow.apache.org/docs/format/Columnar.html#serialization-and-interprocess-communication-ipc,
 * `Message.fbs`, `Schema.fbs`): version V5, header RecordBatch, one field node per array and its
 * buffers in pre-order, no compression (the frame never leaves the process).
 */
import type { ColumnData } from './columnar.js';
import type { Column } from './columns.js';

const CONTINUATION = 0xffffffff;
const pad8 = (n: number) => (n + 7) & ~7;

/** One body buffer of a record batch: its bytes (a view; length 0 for an omitted validity bitmap). */
type Part = Uint8Array;

/** The field nodes (length, null count) and body buffers of `d`, a column of kind `kind`, in pre-order. */
function flatten(c: Column, d: ColumnData, nodes: number[], parts: Part[]): void {
  nodes.push(d.length, d.nulls);
  const validity = d.nulls > 0 ? d.validity : EMPTY;
  const bytesOf = (a: Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  if (c.kind === 'string') {
    parts.push(validity, bytesOf(d.offsets!), d.bytes!);
  } else if (c.kind === 'int') {
    parts.push(validity, bytesOf(d.ints!));
  } else {
    parts.push(validity, bytesOf(d.offsets!));
    const child = d.child!;
    if (c.kind === 'list') {
      nodes.push(child.length, child.nulls);
      parts.push(child.nulls > 0 ? child.validity : EMPTY, bytesOf(child.offsets!), child.bytes!);
    } else {
      nodes.push(child.length, 0);
      parts.push(EMPTY); // structs are never null
      for (const f of child.children!) {
        nodes.push(f.length, f.nulls);
        parts.push(f.nulls > 0 ? f.validity : EMPTY, bytesOf(f.offsets!), f.bytes!);
      }
    }
  }
}
const EMPTY = new Uint8Array(0);

/**
 * The FlatBuffer of a `Message` whose header is a `RecordBatch` of `length` rows with `nodes` (pairs
 * of length, null count) and `buffers` (pairs of offset, length), body `bodyLength` bytes. Layout,
 * front to back: root offset, Message vtable, Message table, RecordBatch vtable, RecordBatch table,
 * the nodes vector, the buffers vector (struct vectors 8-aligned), padded to 8 bytes.
 */
function recordBatchMetadata(
  length: number,
  nodes: readonly number[],
  buffers: readonly number[],
  bodyLength: number,
): Uint8Array {
  const M = 24; // Message table
  const R = 64; // RecordBatch table
  const N = 92; // nodes vector (its items 8-aligned after the 4-byte count)
  const B = N + 4 + nodes.length * 8 + 4; // buffers vector, items 8-aligned likewise
  const size = pad8(B + 4 + buffers.length * 8);
  const fb = new DataView(new ArrayBuffer(size));
  fb.setUint32(0, M, true);
  // Message vtable at 4: 4 fields (version, header_type, header, bodyLength; no custom_metadata).
  fb.setUint16(4, 12, true);
  fb.setUint16(6, 24, true);
  fb.setUint16(8, 4, true);
  fb.setUint16(10, 6, true);
  fb.setUint16(12, 8, true);
  fb.setUint16(14, 16, true);
  fb.setInt32(M, M - 4, true);
  fb.setInt16(M + 4, 4, true); // MetadataVersion.V5
  fb.setUint8(M + 6, 3); // MessageHeader.RecordBatch
  fb.setUint32(M + 8, R - (M + 8), true);
  fb.setBigInt64(M + 16, BigInt(bodyLength), true);
  // RecordBatch vtable at 48: 3 fields (length, nodes, buffers).
  fb.setUint16(48, 10, true);
  fb.setUint16(50, 24, true);
  fb.setUint16(52, 8, true);
  fb.setUint16(54, 4, true);
  fb.setUint16(56, 16, true);
  fb.setInt32(R, R - 48, true);
  fb.setUint32(R + 4, N - (R + 4), true);
  fb.setBigInt64(R + 8, BigInt(length), true);
  fb.setUint32(R + 16, B - (R + 16), true);
  fb.setUint32(N, nodes.length / 2, true);
  for (let i = 0; i < nodes.length; i++) fb.setBigInt64(N + 4 + i * 8, BigInt(nodes[i]!), true);
  fb.setUint32(B, buffers.length / 2, true);
  for (let i = 0; i < buffers.length; i++) fb.setBigInt64(B + 4 + i * 8, BigInt(buffers[i]!), true);
  return new Uint8Array(fb.buffer);
}

/**
 * Writes the IPC stream of one record batch (`schema`: the stream's schema message, as
 * `schemaMessage` returns it) into `frame` when it is large enough, else into a new buffer; returns
 * the buffer used and the stream's length.
 */
export function writeRecordBatch(
  schema: Uint8Array,
  columns: readonly Column[],
  data: readonly ColumnData[],
  length: number,
  frame: ArrayBuffer | undefined,
): { frame: ArrayBuffer; length: number } {
  const nodes: number[] = [];
  const parts: Part[] = [];
  columns.forEach((c, i) => flatten(c, data[i]!, nodes, parts));
  const buffers: number[] = [];
  let body = 0;
  for (const p of parts) {
    buffers.push(body, p.byteLength);
    body += pad8(p.byteLength);
  }
  const meta = recordBatchMetadata(length, nodes, buffers, body);
  const total = schema.byteLength + 8 + meta.byteLength + body + 8;
  const out = frame && frame.byteLength >= total ? frame : new ArrayBuffer(Math.ceil(total * 1.25));
  const bytes = new Uint8Array(out, 0, total);
  const view = new DataView(out);
  bytes.set(schema, 0);
  let at = schema.byteLength;
  view.setUint32(at, CONTINUATION, true);
  view.setInt32(at + 4, meta.byteLength, true);
  bytes.set(meta, at + 8);
  at += 8 + meta.byteLength;
  for (const p of parts) {
    bytes.set(p, at);
    const end = at + pad8(p.byteLength);
    bytes.fill(0, at + p.byteLength, end);
    at = end;
  }
  view.setUint32(at, CONTINUATION, true);
  view.setUint32(at + 4, 0, true);
  return { frame: out, length: total };
}

/** The schema message at the start of an IPC stream made by `apache-arrow` (its first message). */
export function schemaMessage(stream: Uint8Array): Uint8Array {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  if (view.getUint32(0, true) !== CONTINUATION) throw new Error('export: not an Arrow IPC stream');
  return stream.slice(0, 8 + view.getInt32(4, true));
}
