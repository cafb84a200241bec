/**
 * Stored records → Parquet file, row group by row group: `columnar.ts` builds typed Arrow columns from
 * the stored MessagePack records, `apache-arrow` frames them as an IPC record batch, and `parquet-wasm`
 * (the Rust `parquet` crate compiled to WebAssembly) encodes them and streams the file out. Typed
 * columns: strings, 32-bit integers, lists of strings, lists of structs of strings. Memory stays bounded
 * by a row group or two in flight (columns, their IPC copy, the encoder's buffers).
 *
 * Why these libraries: the pure-JavaScript `hyparquet-writer` used before encoded 20–30k full prospect
 * records/s, below a plain SQLite read of the same rows; the Rust encoder is not the bottleneck any
 * more (see README "Benchmarks"). Both are optional dependencies, loaded only by a Parquet export
 * (~23 MB installed: the WebAssembly module is 5 MB, shipped in three builds).
 *
 * Encoding choices: Snappy everywhere; dictionary encoding (the writer's default, falling back to
 * plain when the dictionary grows past its page limit) except on the random hex identifiers
 * (`Column.random`), stored plain and uncompressed as neither shrinks them; column-chunk statistics only (no page index).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
// Type-only imports (erased): the modules themselves are imported on first use, below.
import type * as ArrowModule from 'apache-arrow';
import type { StoredRecord } from '../core/export.js';
import { ColumnarBatch, type ColumnData } from './columnar.js';
import type { Column } from './columns.js';

/**
 * Records per row group. Measured on 200k full prospect records (~1.1 KB each) at 2,048 / 4,096 /
 * 8,192 / 16,384: the same main-thread CPU time (9.3–9.7 µs per record, 12.5 at 16,384), peak
 * anonymous memory growth ~0 / 68 / 87 / 226 MB (each row group is held several times over: column
 * buffers, the IPC frame, WebAssembly memory, the encoder's pages, plus the frames V8 has not yet
 * collected).
 */
export const ROW_GROUP = 8_192;

type Arrow = typeof ArrowModule;

let libraries: Promise<{ arrow: Arrow }> | undefined;

/** `apache-arrow` and `parquet-wasm`, imported on first use (optional dependencies). */
function load() {
  libraries ??= (async () => {
    try {
      // `parquet-wasm` is loaded by the encoder's thread: resolved here (not loaded) so a missing
      // install fails with this message before any thread starts.
      createRequire(import.meta.url).resolve('parquet-wasm');
      return { arrow: await import('apache-arrow') };
    } catch (e) {
      libraries = undefined;
      throw new Error(
        'Parquet export needs the optional dependencies apache-arrow and parquet-wasm ' +
          `(npm install apache-arrow parquet-wasm): ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  })();
  return libraries;
}

function fieldOf(arrow: Arrow, c: Column) {
  const { Field, Int32, List, Struct, Utf8 } = arrow;
  if (c.kind === 'string') return new Field(c.name, new Utf8(), true);
  if (c.kind === 'int') return new Field(c.name, new Int32(), true);
  const item =
    c.kind === 'list' ? new Utf8() : new Struct((c.fields ?? []).map((f) => new Field(f, new Utf8(), true)));
  return new Field(c.name, new List(new Field('element', item, true)), true);
}

/** Arrow `Data` of one finished column of type `type`. */
function dataOf(arrow: Arrow, type: ArrowModule.DataType, d: ColumnData): ArrowModule.Data {
  const { makeData, DataType } = arrow;
  const nullBitmap = d.nulls > 0 ? d.validity : undefined;
  const base = { length: d.length, nullCount: d.nulls, nullBitmap };
  if (DataType.isUtf8(type)) return makeData({ type, ...base, valueOffsets: d.offsets!, data: d.bytes! });
  if (DataType.isInt(type)) return makeData({ type, ...base, data: d.ints! });
  if (DataType.isList(type)) {
    const child = dataOf(arrow, type.valueType, d.child!);
    return makeData({ type, ...base, valueOffsets: d.offsets!, child });
  }
  const struct = type as ArrowModule.Struct;
  return makeData({
    type: struct,
    ...base,
    children: struct.children.map((f, i) => dataOf(arrow, f.type, d.children![i]!)),
  });
}

/**
 * The encoder's thread: Arrow IPC frames in (one per row group), Parquet bytes out to the file. It
 * runs beside the reading thread (reading and column building take about as long as encoding: ~8 µs
 * and ~6 µs per full prospect record), so two cores keep both busy. Source text rather than a module
 * file: a worker loads it the same way from `src/` (tests, benches through a TypeScript loader) and
 * from `dist/`; it resolves `parquet-wasm` from this module's place.
 */
const ENCODER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createWriteStream } = require('node:fs');
const { Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const wasm = require('node:module').createRequire(workerData.from)('parquet-wasm');
const queue = [];
let ended = false;
let wake;
parentPort.on('message', (m) => {
  if (m === null) ended = true;
  else queue.push(m);
  const w = wake;
  wake = undefined;
  if (w) w();
});
const input = new ReadableStream(
  {
    pull(controller) {
      return new Promise((resolve) => {
        const next = () => {
          if (queue.length > 0) {
            const table = wasm.Table.fromIPCStream(queue.shift());
            controller.enqueue(table.recordBatch(0));
            table.free();
            parentPort.postMessage('taken');
            resolve();
          } else if (ended) {
            controller.close();
            resolve();
          } else wake = next;
        };
        next();
      });
    },
  },
  { highWaterMark: 0 },
);
(async () => {
  let props = new wasm.WriterPropertiesBuilder()
    .setCreatedBy('prospectdb export')
    .setCompression(wasm.Compression.SNAPPY)
    .setStatisticsEnabled(wasm.EnabledStatistics.None)
    .setMaxRowGroupSize(workerData.rowGroup);
  for (const name of workerData.random)
    props = props.setColumnDictionaryEnabled(name, false).setColumnCompression(name, wasm.Compression.UNCOMPRESSED);
  const encoded = await wasm.transformParquetStream(input, props.build());
  await pipeline(Readable.fromWeb(encoded), createWriteStream(workerData.out));
  parentPort.postMessage('done');
})().catch((e) => parentPort.postMessage({ error: String((e && e.stack) || e) }));
`;

/** Row groups handed to the encoder and not yet taken: reading runs at most this far ahead. */
const AHEAD = 2;

/**
 * Writes every record of `batches` to the Parquet file `out`; `onRecords` is called after each batch
 * with the count added so far; `rowGroup` records per row group. Resolves to the number written.
 */
export async function writeParquetFile(
  batches: AsyncIterable<readonly StoredRecord[]>,
  columns: readonly Column[],
  out: string,
  onRecords?: (written: number) => void,
  rowGroup = ROW_GROUP,
): Promise<number> {
  const { arrow } = await load();
  const schema = new arrow.Schema(columns.map((c) => fieldOf(arrow, c)));
  const rows = new ColumnarBatch(columns);
  const encoder = new Worker(ENCODER, {
    eval: true,
    workerData: {
      from: import.meta.url,
      out,
      rowGroup,
      random: columns.filter((c) => c.random).map((c) => c.name),
    },
  });
  let ahead = 0;
  let taken: (() => void) | undefined;
  const finished = new Promise<void>((resolve, reject) => {
    encoder.on('message', (m: 'taken' | 'done' | { error: string }) => {
      if (m === 'taken') {
        ahead--;
        taken?.();
      } else if (m === 'done') resolve();
      else reject(new Error(`Parquet encoder: ${m.error}`));
    });
    encoder.on('error', reject);
    encoder.on('exit', (code) => reject(new Error(`Parquet encoder stopped (exit code ${code})`)));
  });
  finished.catch(() => {}); // observed below; a failure while reading must not go unhandled

  /** Frames the buffered records as one Arrow IPC record batch and hands it to the encoder. */
  async function send() {
    const n = rows.length;
    const data = rows.finish();
    const struct = arrow.makeData({
      type: new arrow.Struct(schema.fields),
      length: n,
      nullCount: 0,
      children: schema.fields.map((f, i) => dataOf(arrow, f.type, data[i]!)),
    });
    let ipc = arrow.tableToIPC(new arrow.Table([new arrow.RecordBatch(schema, struct)]), 'stream');
    rows.reset(); // the IPC frame holds a copy
    if (ipc.byteOffset !== 0 || ipc.byteLength !== ipc.buffer.byteLength) ipc = ipc.slice();
    while (ahead >= AHEAD) await Promise.race([new Promise<void>((r) => (taken = r)), finished]);
    ahead++;
    encoder.postMessage(ipc, [ipc.buffer as ArrayBuffer]);
  }

  let written = 0;
  try {
    for await (const batch of batches) {
      for (const r of batch) {
        rows.add(r.wire, r.replace);
        if (rows.length === rowGroup) await send();
      }
      written += batch.length;
      onRecords?.(written);
    }
    if (rows.length > 0 || written === 0) await send();
    encoder.postMessage(null);
    await finished;
  } finally {
    await encoder.terminate();
  }
  return written;
}
