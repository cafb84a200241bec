/**
 * Writes exported records to a file: JSON Lines (the records as they are), CSV (RFC 4180, lists and
 * nested values as JSON text, null as an empty cell) or Parquet (typed columns: strings, 32-bit integers,
 * lists of strings, lists of structs; `parquet.ts`, row group by row group, so memory stays bounded).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { RecordExport } from '../core/export.js';
import { storedBatch, type StoredBatch } from '../core/stored-records.js';
import { packJson } from '../store/msgpack.js';
import type { Column } from './columns.js';
import type { ParquetCodec } from './parquet.js';

export const EXPORT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface WriteOptions {
  format: ExportFormat;
  /** Output file path (overwritten). */
  out: string;
  /** The typed columns (`exportColumns(entity, mode)`); JSON Lines writes records whole. */
  columns: Column[];
  /** Called with the count written so far: after each record (after each batch of them for Parquet). */
  onRecord?: (written: number) => void;
  /** Parquet page compression (default `snappy`). */
  codec?: ParquetCodec;
}

/** Text output is handed to the file stream in chunks of about this many characters. */
const CHUNK = 1 << 16;

/** Writes every record of `records` to `options.out`; resolves to the number written. */
export async function writeExport(
  records: AsyncIterable<Record<string, unknown>> | RecordExport,
  options: WriteOptions,
): Promise<number> {
  if (options.format === 'parquet') {
    // Loaded here: the Parquet libraries are optional dependencies.
    const { writeParquetFile } = await import('./parquet.js');
    // An export's own records are read by the writer's column thread where it can.
    const input = 'stored' in records ? (records.source() ?? records.stored()) : packed(records);
    return writeParquetFile(input, options.columns, options.out, {
      onRecords: options.onRecord,
      codec: options.codec,
    });
  }
  const line =
    options.format === 'jsonl'
      ? (r: Record<string, unknown>) => JSON.stringify(r) + '\n'
      : csvLine(options.columns);
  const stream = createWriteStream(options.out);
  const closed = once(stream, 'close');
  let n = 0;
  let buffer = options.format === 'csv' ? options.columns.map((c) => csvCell(c.name)).join(',') + '\r\n' : '';
  try {
    for await (const batch of 'batches' in records ? records.batches() : singles(records)) {
      for (const r of batch) {
        buffer += line(r);
        n++;
        options.onRecord?.(n);
        if (buffer.length >= CHUNK) {
          if (!stream.write(buffer)) await once(stream, 'drain');
          buffer = '';
        }
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

const CSV_SPECIAL = /[",\r\n]/;
const QUOTE = /"/g;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return CSV_SPECIAL.test(s) ? '"' + s.replace(QUOTE, '""') + '"' : s;
}

// Concatenation instead of `map(…).join(',')`: no array per record (~15 % faster lines, measured at 20k
// full prospect records).
function csvLine(columns: Column[]) {
  const names = columns.map((c) => c.name);
  return (r: Record<string, unknown>) => {
    let line = csvCell(r[names[0]!]);
    for (let i = 1; i < names.length; i++) line += ',' + csvCell(r[names[i]!]);
    return line + '\r\n';
  };
}

/** Records of any iterable, one per batch. */
async function* singles(
  records: AsyncIterable<Record<string, unknown>>,
): AsyncIterable<Record<string, unknown>[]> {
  for await (const r of records) yield [r];
}

/** Records that are not stored ones (any iterable of records), packed as the store packs them. */
async function* packed(records: AsyncIterable<Record<string, unknown>>): AsyncIterable<StoredBatch> {
  let batch: Uint8Array[] = [];
  for await (const r of records) {
    batch.push(packJson(r));
    if (batch.length === 1_000) {
      yield storedBatch(batch);
      batch = [];
    }
  }
  if (batch.length > 0) yield storedBatch(batch);
}
