/**
 * Records → Parquet file, row group by row group, through `hyparquet-writer` (pure JavaScript, one
 * dependency). Typed columns: strings, 32-bit integers, lists of strings, JSON. Memory stays bounded by
 * one row group of column values plus the encoder's buffers.
 *
 * Encoding choices, measured per column on 20,000 full prospect records (`bench/export.bench.ts`):
 * random hex identifiers (`Column.random`) are written PLAIN and uncompressed: neither a dictionary nor
 * Snappy shrinks them (800 kB → 800 kB), and skipping both made those columns ~3× cheaper to encode for
 * ~10 % more bytes. Every other column keeps the writer's choice (dictionary when it at least halves the
 * column, Snappy), which shrinks names, places and lists 2–20×. Min/max statistics are off: they doubled
 * the encoding time and readers (DuckDB, pandas) do not need them to read the whole file.
 */
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import type { Column } from './columns.js';

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

/**
 * Records per row group: ~7.5 MB of column values at full prospect records. Measured at 200k full
 * prospects: peak RssAnon growth above SQLite's page cache ~140 MB at 5,000 (the encoder's garbage
 * included), ~190 MB at 10,000, ~430 MB at 20,000, at the same speed; files 5 % larger than at 20,000.
 */
export const ROW_GROUP = 5_000;

function schemaOf(columns: readonly Column[]): SchemaElement[] {
  const out: SchemaElement[] = [{ name: 'root', num_children: columns.length }];
  for (const { name, kind } of columns) {
    if (kind === 'string')
      out.push({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
    else if (kind === 'int') out.push({ name, type: 'INT32', repetition_type: 'OPTIONAL' });
    else if (kind === 'json')
      out.push({ name, type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' });
    else {
      out.push(
        { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      );
    }
  }
  return out;
}

/** Buffers records into column arrays and writes a row group every `ROW_GROUP` records. */
export class ParquetSink {
  private readonly writer: ParquetWriter;
  private data: unknown[][];
  private buffered = 0;

  constructor(
    out: string,
    private readonly columns: readonly Column[],
  ) {
    this.writer = new ParquetWriter({
      writer: fileWriter(out),
      schema: schemaOf(columns),
      createdBy: 'prospectdb export',
      statistics: false,
    });
    this.data = columns.map(() => []);
  }

  add(record: Record<string, unknown>): void {
    const { columns, data } = this;
    for (let i = 0; i < columns.length; i++) data[i]!.push(record[columns[i]!.name] ?? null);
    if (++this.buffered === ROW_GROUP) this.flush();
  }

  private flush(): void {
    if (this.buffered === 0) return;
    const columnData = this.columns.map((c, i) => ({
      name: c.name,
      data: this.data[i]!,
      ...(c.random ? { encoding: 'PLAIN' as const, codec: 'UNCOMPRESSED' as const } : {}),
    }));
    // `fileWriter` writes synchronously; `write` returns a promise only for its async interface.
    void this.writer.write({ columnData, rowGroupSize: ROW_GROUP });
    this.data = this.columns.map(() => []);
    this.buffered = 0;
  }

  finish(): void {
    this.flush();
    void this.writer.finish();
  }
}
