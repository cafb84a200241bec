/**
 * Stored records → Parquet file, row group by row group, on three threads: this one only iterates the
 * stored batches (for an export, steps SQLite: `core/export.ts`) and hands each batch's bytes over;
 * the column thread (`parquet-worker.ts`) builds typed Arrow columns from the stored MessagePack
 * records (`columnar.ts`) and writes each row group as an Arrow IPC stream (`arrow-ipc.ts`); the
 * encoder's thread has `parquet-wasm` (the Rust `parquet` crate compiled to WebAssembly) encode it and
 * streams the file out. Typed columns: strings, 32-bit integers, lists of strings, lists of structs of
 * strings. Memory stays bounded: each thread runs at most a few batches or row groups ahead of the
 * next, and the buffers passed between them are transferred and reused, not allocated anew.
 *
 * Why these libraries: the pure-JavaScript `hyparquet-writer` used before encoded 20–30k full prospect
 * records/s, below a plain SQLite read of the same rows. Both `parquet-wasm` and `apache-arrow` (used
 * for the schema message only) are optional dependencies, loaded only by a Parquet export (~23 MB
 * installed: the WebAssembly module is 5 MB, shipped in three builds).
 *
 * Encoding choices: Snappy by default (see `ParquetOptions.codec`); dictionary encoding (the writer's
 * default, falling back to plain when the dictionary grows past its page limit) except on the random
 * hex identifiers (`Column.random`), stored plain and uncompressed as neither shrinks them, and on
 * the columns of mostly distinct strings (`Column.distinct`), stored plain and compressed; no
 * statistics.
 */
import { createRequire } from 'node:module';
// Type-only (erased): the module itself is imported on first use, below.
import type * as ArrowModule from 'apache-arrow';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { EngineError } from '../errors.js';
import { schemaMessage } from './arrow-ipc.js';
import type { Column } from './columns.js';
import { CONFLICT_MESSAGE, type ExportSource, type StoredBatch } from '../core/stored-records.js';

/**
 * Records per row group. Measured on 200k full prospect records (~1.1 KB each), three threads, at
 * 4,096 / 8,192: peak anonymous memory growth 196 / 246 MB with `apache-arrow` framing the row groups
 * (each row group is held several times over: column buffers, the IPC stream, WebAssembly memory, the
 * encoder's pages), the same CPU time, files of 51.6 / 51.0 MB.
 */
export const ROW_GROUP = 4_096;

/** The codecs an export can compress its pages with (the bench compares them). */
export const PARQUET_CODECS = ['snappy', 'lz4', 'zstd', 'none'] as const;
export type ParquetCodec = (typeof PARQUET_CODECS)[number];

/** Marks the column threads this module starts (`parquet-worker.ts`): importing that module elsewhere
 * is inert. */
export const COLUMNS_TAG = 'prospectdb-parquet-columns';

/** The column thread's `workerData`. */
export interface ColumnsSetup {
  tag: typeof COLUMNS_TAG;
  columns: Column[];
  rowGroup: number;
  /** The IPC stream's schema message (`arrow-ipc.ts`). */
  schema: Uint8Array;
  /** The channel to the encoder's thread: frames out, each frame back once taken. */
  encoder: MessagePort;
  /** Frames handed to the encoder and not yet taken: building runs at most this far ahead. */
  ahead: number;
  /** Where the column thread reads the records itself (else they come as messages). */
  source?: ExportSource;
}

/** An IPC stream of one row group in `frame[0, length)` (back from the encoder: `frame` alone). */
export interface Frame {
  frame: ArrayBuffer;
  length: number;
}

/** The column thread's messages: a batch consumed (its bytes' buffer back, to reuse), every row group
 * handed over, or a failure. */
export type ColumnsReply =
  { taken: ArrayBuffer } | { read: number } | 'flushed' | { error: string; conflict?: true };

let libraries: Promise<typeof ArrowModule> | undefined;

/** `apache-arrow` (loaded) and `parquet-wasm` (resolved: the encoder's thread loads it), on first use;
 * a missing install fails with a message naming them. */
function load() {
  libraries ??= (async () => {
    try {
      createRequire(import.meta.url).resolve('parquet-wasm');
      return await import('apache-arrow');
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

/** The schema message of an IPC stream of `columns`, made by `apache-arrow`. */
async function schemaOf(columns: readonly Column[]): Promise<Uint8Array> {
  const arrow = await load();
  const { Field, Int32, List, Schema, Struct, Table, Utf8, tableToIPC } = arrow;
  const fieldOf = (c: Column) => {
    if (c.kind === 'string') return new Field(c.name, new Utf8(), true);
    if (c.kind === 'int') return new Field(c.name, new Int32(), true);
    const item =
      c.kind === 'list'
        ? new Utf8()
        : new Struct((c.fields ?? []).map((f) => new Field(f, new Utf8(), true)));
    return new Field(c.name, new List(new Field('element', item, true)), true);
  };
  return schemaMessage(tableToIPC(new Table(new Schema(columns.map(fieldOf))), 'stream'));
}

/**
 * Built, this module runs from `dist/` and the column thread is `parquet-worker.js`. Under tsx or
 * vitest it runs from `src/` as TypeScript: a worker does not inherit the parent's module hooks for
 * its entry file, so it registers tsx itself before importing `parquet-worker.ts` (as `load-pool.ts`).
 */
function columnThread(setup: ColumnsSetup): Worker {
  const transferList = [setup.encoder];
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./parquet-worker.js', import.meta.url), { workerData: setup, transferList });
  const tsx = import.meta.resolve('tsx/esm/api');
  const url = new URL('./parquet-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(url)}))`;
  return new Worker(boot, { eval: true, workerData: setup, transferList });
}

/**
 * The encoder's thread: IPC streams in (one per row group), Parquet bytes out to the file. Source
 * text rather than a module file: it loads the same way from `src/` and from `dist/`; it resolves
 * `parquet-wasm` from this module's place.
 */
const ENCODER = `
const { parentPort, workerData } = require('node:worker_threads');
const frames = workerData.port;
const { createWriteStream } = require('node:fs');
const { Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const wasm = require('node:module').createRequire(workerData.from)('parquet-wasm');
const queue = [];
let ended = false;
let wake;
frames.on('message', (m) => {
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
            const m = queue.shift();
            const table = wasm.Table.fromIPCStream(new Uint8Array(m.frame, 0, m.length));
            controller.enqueue(table.recordBatch(0));
            table.free();
            frames.postMessage({ frame: m.frame }, [m.frame]); // copied into WebAssembly memory: reused

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
    .setCompression(wasm.Compression[workerData.codec])
    .setStatisticsEnabled(wasm.EnabledStatistics.None)
    .setMaxRowGroupSize(workerData.rowGroup);
  for (const name of workerData.random)
    props = props.setColumnDictionaryEnabled(name, false).setColumnCompression(name, wasm.Compression.UNCOMPRESSED);
  for (const name of workerData.distinct) props = props.setColumnDictionaryEnabled(name, false);
  const encoded = await wasm.transformParquetStream(input, props.build());
  await pipeline(Readable.fromWeb(encoded), createWriteStream(workerData.out));
  frames.close();
  parentPort.postMessage('done');
})().catch((e) => parentPort.postMessage({ error: String((e && e.stack) || e) }));
`;

/** Row groups handed to the encoder and not yet taken: column building runs at most this far ahead. */
const AHEAD = 2;
/** Stored batches (~1,000 records, ~1 MB of prospects) handed to the column thread and not yet taken. */
const IN_FLIGHT = 4;

/** `parquet-wasm`'s name of each codec. */
const CODEC: Record<ParquetCodec, string> = {
  snappy: 'SNAPPY',
  lz4: 'LZ4_RAW',
  zstd: 'ZSTD',
  none: 'UNCOMPRESSED',
};

export interface ParquetOptions {
  /** Called after each batch with the count handed over so far. */
  onRecords?: (written: number) => void;
  /** Records per row group. */
  rowGroup?: number;
  /**
   * Page compression (the random hex columns are never compressed). Default `snappy`: measured at
   * 200k full prospect records, the encoder's CPU time is about the same with Snappy, LZ4 or none,
   * ZSTD costs more; Snappy makes the smallest file of the cheap three and every Parquet reader
   * has it (LZ4_RAW needs a recent one).
   */
  codec?: ParquetCodec;
}

/**
 * Writes every record of `input` to the Parquet file `out` (see the module comment for the threads):
 * stored batches this thread iterates, or an export's source, which the column thread reads itself
 * (this thread then only waits: measured at 1M prospects inside a process holding the engine's
 * indexes, reading here cost ~14 µs per record more CPU in all, V8 collecting that large heap again
 * and again for the ~1 MB buffer of each step). Resolves to the number of records written.
 */
export async function writeParquetFile(
  input: AsyncIterable<StoredBatch> | ExportSource,
  columns: readonly Column[],
  out: string,
  options: ParquetOptions = {},
): Promise<number> {
  const schema = await schemaOf(columns);
  const rowGroup = options.rowGroup ?? ROW_GROUP;
  const { port1, port2 } = new MessageChannel();
  const encoder = new Worker(ENCODER, {
    eval: true,
    workerData: {
      from: import.meta.url,
      out,
      port: port1,
      rowGroup,
      codec: CODEC[options.codec ?? 'snappy'],
      random: columns.filter((c) => c.random).map((c) => c.name),
      distinct: columns.filter((c) => c.distinct).map((c) => c.name),
    },
    transferList: [port1],
  });
  const builder = columnThread({
    tag: COLUMNS_TAG,
    columns: [...columns],
    rowGroup,
    schema,
    encoder: port2,
    ahead: AHEAD,
    ...('path' in input ? { source: input } : {}),
  });
  let written = 0;
  /** Buffers the column thread gave back, to copy the next batches into. */
  const pool: ArrayBuffer[] = [];
  let inFlight = 0;
  let taken: (() => void) | undefined;
  const stopped = (thread: Worker, name: string) =>
    new Promise<never>((_, reject) => {
      thread.on('error', reject);
      thread.on('exit', (code) => reject(new Error(`Parquet ${name} thread stopped (exit code ${code})`)));
    });
  const finished = Promise.race([
    new Promise<void>((resolve, reject) => {
      encoder.on('message', (m: 'done' | { error: string }) => {
        if (m === 'done') resolve();
        else reject(new Error(`Parquet encoder: ${m.error}`));
      });
    }),
    new Promise<never>((_, reject) => {
      builder.on('message', (m: ColumnsReply) => {
        if (m === 'flushed') return;
        if ('error' in m) {
          return reject(
            m.conflict
              ? new EngineError('CONFLICT', CONFLICT_MESSAGE)
              : new Error(`Parquet columns: ${m.error}`),
          );
        }
        if ('read' in m) {
          written = m.read;
          return options.onRecords?.(written);
        }
        pool.push(m.taken);
        inFlight--;
        taken?.();
      });
    }),
    stopped(encoder, 'encoder'),
    stopped(builder, 'column'),
  ]);
  finished.catch(() => {}); // observed below; a failure while reading must not go unhandled

  try {
    if ('path' in input) {
      await finished;
      return written;
    }
    for await (const batch of input) {
      const n = batch.starts.length;
      if (n === 0) continue;
      while (inFlight >= IN_FLIGHT) await Promise.race([new Promise<void>((r) => (taken = r)), finished]);
      inFlight++;
      const message = pooled(batch, pool);
      const transfer = [message.bytes, message.starts, message.ends].map((a) => a.buffer as ArrayBuffer);
      builder.postMessage(message, transfer);
      written += n;
      options.onRecords?.(written);
    }
    builder.postMessage(null);
    await finished;
  } finally {
    await Promise.all([builder.terminate(), encoder.terminate()]);
  }
  return written;
}

/**
 * The batch with its bytes copied into a buffer of `pool` (or a new one): a copy costs ~0.1 µs per
 * record, and the column thread gives the buffer back, where SQLite's buffer, transferred, would be
 * freed on that thread (measured: glibc then kept tens of MB of such churn resident). The offsets
 * get buffers of their own.
 */
function pooled(b: StoredBatch, pool: ArrayBuffer[]): StoredBatch {
  const length = b.bytes.byteLength;
  let buffer = pool.pop();
  if (!buffer || buffer.byteLength < length)
    buffer = new ArrayBuffer(Math.max(1 << 20, Math.ceil(length * 1.25)));
  const bytes = new Uint8Array(buffer, 0, length);
  bytes.set(b.bytes);
  return {
    bytes,
    starts: b.starts.slice(),
    ends: b.ends.slice(),
    ...(b.replace ? { replace: b.replace } : {}),
  };
}
