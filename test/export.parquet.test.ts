/**
 * The Parquet writer on arbitrary records, against an oracle: records of random JSON-like values
 * (the exported columns in any order, missing, repeated or of an unexpected type, plus keys that are
 * not columns) are packed as the store packs them, written in small row groups, and read back by
 * DuckDB; every cell equals the documented conversion (`columnar.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Column } from '../src/export/columns.js';
import { writeParquetFile } from '../src/export/parquet.js';
import { storedBatch } from '../src/core/stored-records.js';
import { packJson } from '../src/store/msgpack.js';

const COLUMNS: Column[] = [
  { name: 'id', kind: 'string', random: true },
  { name: 'name', kind: 'string' },
  { name: 'naics', kind: 'int' },
  { name: 'skills', kind: 'list' },
  { name: 'topics', kind: 'records', fields: ['topic', 'intent_level'] },
];

let dir: string;
let conn: DuckDBConnection;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pdb-parquet-'));
  conn = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => {
  conn?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const text = (v: Json) => (typeof v === 'string' ? v : JSON.stringify(v));
const cell = (v: Json | undefined) => (v === undefined || v === null ? null : text(v));

/** The documented conversion of a record's value to its column's cell. */
function expected(c: Column, v: Json | undefined): unknown {
  if (v === undefined || v === null) return null;
  if (c.kind === 'string') return text(v);
  if (c.kind === 'int') return Number.isInteger(v) && Math.abs(v as number) < 2 ** 31 ? v : null;
  const items = Array.isArray(v) ? v : [v];
  if (c.kind === 'list') return items.map(cell);
  if (!Array.isArray(v)) return [];
  return v.map((item) => {
    const o = item !== null && typeof item === 'object' && !Array.isArray(item) ? item : {};
    return Object.fromEntries(c.fields!.map((f) => [f, cell(o[f])]));
  });
}

const scalar = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.integer({ min: -(2 ** 33), max: 2 ** 33 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), { maxLength: 6 }) },
  {
    weight: 2,
    arbitrary: fc.array(
      fc.oneof(
        fc.record({ topic: scalar, intent_level: scalar }, { requiredKeys: [] }),
        fc.dictionary(fc.constantFrom('topic', 'intent_level', 'other'), scalar),
        scalar,
      ),
      { maxLength: 4 },
    ),
  },
);
/** A record: column keys and stray keys in random order, some missing. */
const record = fc
  .array(fc.tuple(fc.constantFrom('id', 'name', 'naics', 'skills', 'topics', 'stray', 'nam'), value), {
    maxLength: 9,
  })
  .map((entries) => Object.fromEntries(entries) as Record<string, Json>);

it('writes every cell as the documented conversion of its value, over several row groups', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(record, { maxLength: 200 }),
      fc.integer({ min: 1, max: 16 }),
      async (records, group) => {
        const out = join(dir, `p${run++}.parquet`);
        async function* batches() {
          // Batches that do not line up with row groups.
          for (let i = 0; i < records.length; i += 7)
            yield storedBatch(records.slice(i, i + 7).map((r) => packJson(r)));
        }
        expect(await writeParquetFile(batches(), COLUMNS, out, { rowGroup: group })).toBe(records.length);
        const groups = (
          await conn.runAndReadAll(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${out}')`)
        ).getRowObjectsJson();
        expect(Number(groups[0]!.n)).toBe(Math.ceil(records.length / group));
        const rows = (await conn.runAndReadAll(`SELECT * FROM read_parquet('${out}')`)).getRowObjectsJson();
        expect(rows).toEqual(
          records.map((r) => Object.fromEntries(COLUMNS.map((c) => [c.name, expected(c, r[c.name])]))),
        );
        rmSync(out);
      },
    ),
    // Each run starts the writer's two threads (~2 s of CPU under tsx, whatever the record count): a
    // few large runs. 5 runs of up to 200 records draw as many records (what the cell conversion is
    // checked on) as 10 runs of up to 100 did, and 5 row-group sizes, each cutting the 7-record
    // batches differently; the writer's one empty export is the next test.
    { numRuns: 5 },
  );
}, 120_000);

it('keeps the column types for an empty export', async () => {
  const out = join(dir, 'empty.parquet');
  async function* none() {}
  expect(await writeParquetFile(none(), COLUMNS, out)).toBe(0);
  const types = (
    await conn.runAndReadAll(
      `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${out}'))`,
    )
  ).getRowObjectsJson();
  expect(types).toEqual([
    { column_name: 'id', column_type: 'VARCHAR' },
    { column_name: 'name', column_type: 'VARCHAR' },
    { column_name: 'naics', column_type: 'INTEGER' },
    { column_name: 'skills', column_type: 'VARCHAR[]' },
    { column_name: 'topics', column_type: 'STRUCT(topic VARCHAR, intent_level VARCHAR)[]' },
  ]);
  expect(
    (await conn.runAndReadAll(`SELECT count(*) AS n FROM read_parquet('${out}')`)).getRowObjectsJson(),
  ).toEqual([{ n: '0' }]);
});
