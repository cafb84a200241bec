/**
 * Writes exported records to a file: JSON Lines (the records as they are), CSV (RFC 4180, lists and
 * nested values as JSON text, null as an empty cell) or Parquet (typed columns: strings, 32-bit integers,
 * lists of strings, JSON; `parquet.ts`, row group by row group, so memory stays bounded by one row group).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Column } from './columns.js';
import { ParquetSink } from './parquet.js';

export const EXPORT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface WriteOptions {
  format: ExportFormat;
  /** Output file path (overwritten). */
  out: string;
  /** The typed columns (`exportColumns(entity, mode)`); JSON Lines writes records whole. */
  columns: Column[];
  /** Called after each record with the count written so far. */
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

async function writeParquet(records: AsyncIterable<Record<string, unknown>>, options: WriteOptions) {
  const sink = new ParquetSink(options.out, options.columns);
  let n = 0;
  for await (const r of records) {
    sink.add(r);
    n++;
    options.onRecord?.(n);
  }
  sink.finish();
  return n;
}
