/**
 * Writes exported records to a file: JSON Lines (the records as they are), CSV (RFC 4180, lists and
 * nested values as JSON text, null as an empty cell) or Parquet (typed columns: strings, 32-bit integers,
 * lists of strings, JSON; see `parquet.ts`). Parquet is encoded on a worker thread (`parquet-worker.ts`)
 * while this thread reads and decodes records, a few batches ahead at most, so memory stays bounded.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Packr } from 'msgpackr';
import { Worker } from 'node:worker_threads';
import type { Column } from './columns.js';
import { ParquetSink } from './parquet.js';
import { PARQUET_WORKER_TAG, type ParquetWorkerData, type ParquetWorkerReply } from './parquet-worker.js';

export const EXPORT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface WriteOptions {
  format: ExportFormat;
  /** Output file path (overwritten). */
  out: string;
  /** The typed columns (`exportColumns(entity, mode)`); JSON Lines writes records whole. */
  columns: Column[];
  /** Called after each record with the count written so far (Parquet: handed to the encoding thread). */
  onRecord?: (written: number) => void;
}

/** Text output is handed to the file stream in chunks of about this many characters. */
const CHUNK = 1 << 16;

/** Writes every record of `records` to `options.out`; resolves to the number written. */
export async function writeExport(
  records: AsyncIterable<Record<string, unknown>>,
  options: WriteOptions,
): Promise<number> {
  if (options.format === 'parquet') return writeParquet(records, options);
  const line =
    options.format === 'jsonl'
      ? (r: Record<string, unknown>) => JSON.stringify(r) + '\n'
      : csvLine(options.columns);
  const stream = createWriteStream(options.out);
  const closed = once(stream, 'close');
  let n = 0;
  let buffer = options.format === 'csv' ? options.columns.map((c) => csvCell(c.name)).join(',') + '\r\n' : '';
  try {
    for await (const r of records) {
      buffer += line(r);
      n++;
      options.onRecord?.(n);
      if (buffer.length >= CHUNK) {
        if (!stream.write(buffer)) await once(stream, 'drain');
        buffer = '';
      }
    }
    stream.end(buffer);
  } catch (e) {
    stream.destroy();
    throw e;
  }
  await closed;
  if (stream.errored) throw stream.errored;
  return n;
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvLine(columns: Column[]) {
  const names = columns.map((c) => c.name);
  return (r: Record<string, unknown>) => names.map((k) => csvCell(r[k])).join(',') + '\r\n';
}

/** Records per message to the Parquet thread, and messages in flight (sent, not yet encoded). */
const BATCH = 1_000;
const IN_FLIGHT = 4;

/**
 * Built, this module runs from `dist/` and its worker is `parquet-worker.js`. Under tsx or vitest it
 * runs from `src/` as TypeScript: a worker does not inherit the parent's module hooks for its entry
 * file, so it registers tsx itself first (as the loader's workers do); without tsx, no thread.
 */
function parquetWorker(data: ParquetWorkerData): Worker | undefined {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./parquet-worker.js', import.meta.url), { workerData: data });
  }
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
  const url = new URL('./parquet-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(url)}))`;
  return new Worker(boot, { eval: true, workerData: data });
}

async function writeParquet(records: AsyncIterable<Record<string, unknown>>, options: WriteOptions) {
  const { columns, out } = options;
  const worker = parquetWorker({ tag: PARQUET_WORKER_TAG, out, columns });
  let n = 0;
  if (!worker) {
    const sink = new ParquetSink(out, columns);
    for await (const r of records) {
      sink.add(r);
      n++; // not inside `?.()`: its arguments are not evaluated when there is no callback
      options.onRecord?.(n);
    }
    sink.finish();
    return n;
  }

  // Reading and decoding here, encoding on the worker: the two overlap.
  let inFlight = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const fail = (e: Error) => {
    failure ??= e;
    wake?.();
    finished();
  };
  worker.on('message', (m: ParquetWorkerReply) => {
    if ('ack' in m) {
      inFlight--;
      wake?.();
    } else if ('done' in m) finished();
    else fail(new Error(`Parquet export: ${m.error}`));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`Parquet export: the writer thread exited (code ${code})`)));

  const packr = new Packr();
  const send = async (batch: Record<string, unknown>[] | null) => {
    while (inFlight >= IN_FLIGHT && !failure) await new Promise<void>((resolve) => (wake = resolve));
    if (failure) throw failure;
    if (batch === null) return worker.postMessage(null);
    // `pack` returns a view of a buffer it reuses: copy it out, then hand the copy over without cloning.
    const bytes = new Uint8Array(packr.pack(batch));
    inFlight++;
    worker.postMessage(bytes, [bytes.buffer]);
  };
  try {
    let batch: Record<string, unknown>[] = [];
    for await (const r of records) {
      batch.push(r);
      n++;
      options.onRecord?.(n);
      if (batch.length === BATCH) {
        await send(batch);
        batch = [];
      }
    }
    if (batch.length) await send(batch);
    await send(null);
    await done;
    if (failure) throw failure;
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
  return n;
}
