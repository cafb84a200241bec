/**
 * Export for notebooks over the demo snapshot: the iterators yield exactly what a cursor walk of the
 * fetch API yields (all of it, in order), end with CONFLICT when the data changes underneath, and the
 * files (JSON Lines, CSV, Parquet) hold the same records; the Parquet file is read back by DuckDB.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as exportCommand } from '../src/cli/commands/export.js';
import { csvRows } from '../src/cli/commands/match.js';
import { exportBusinesses, exportProspects } from '../src/core/export.js';
import { fetchBusinesses, fetchProspects } from '../src/core/fetch.js';
import type { Engine } from '../src/engine.js';
import { exportColumns } from '../src/export/columns.js';
import { writeExport, type ExportFormat } from '../src/export/write.js';
import type { ProspectsExportRequest } from '../src/schemas/export.js';
import { BusinessesFetchRequestV2, ProspectsFetchRequestV2 } from '../src/schemas/search.js';
import { demoEngine } from './support/demo.js';

/** Struct field names DuckDB's DESCRIBE quotes (they are keywords of its SQL). */
const DUCKDB_KEYWORDS = new Set(['name', 'type']);

/** A third of the demo prospects, so the file comparisons stay quick. */
const SUBSET: ProspectsExportRequest['filters'] = { company_size: { values: ['11-50', '51-200'] } };
let dir: string;
let dbPath: string;
let engine: Engine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pdb-export-'));
  dbPath = join(dir, 'demo.db');
  engine = await demoEngine({ path: dbPath });
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The reference: a cursor walk of the fetch core over the same filters. */
function walkProspects(body: Record<string, unknown>) {
  const out: Record<string, unknown>[] = [];
  let next_cursor: string | null = null;
  do {
    const res = fetchProspects(
      engine,
      ProspectsFetchRequestV2.parse({ ...body, page_size: 100, next_cursor }),
      2,
    );
    out.push(...res.data);
    next_cursor = 'page' in res && typeof res.page === 'object' ? res.page.next_cursor : null;
  } while (next_cursor);
  return out;
}

function walkBusinesses(body: Record<string, unknown>) {
  const out: Record<string, unknown>[] = [];
  let next_cursor: string | null = null;
  do {
    const res = fetchBusinesses(
      engine,
      BusinessesFetchRequestV2.parse({ ...body, page_size: 100, next_cursor }),
      2,
    );
    out.push(...res.data);
    next_cursor = 'page' in res && typeof res.page === 'object' ? res.page.next_cursor : null;
  } while (next_cursor);
  return out;
}

describe('export iterators', () => {
  it('yield every matching prospect, in snapshot order, as the fetch walk does', async () => {
    const cases: {
      mode: 'full' | 'preview';
      filters?: Record<string, { values: string[] }>;
      max_per_company?: number;
    }[] = [
      { mode: 'preview', filters: { country_code: { values: ['us'] }, job_level: { values: ['manager'] } } },
      { mode: 'full', filters: { company_size: { values: ['11-50'] } }, max_per_company: 2 },
    ];
    for (const body of cases) {
      const it = exportProspects(engine, body);
      const got = await all(it);
      const expected = walkProspects(body);
      expect(got.length).toBe(it.total);
      expect(got).toEqual(expected);
    }
    let n = 0;
    for await (const _ of exportProspects(engine, { mode: 'preview' })) n++;
    expect(n).toBe(10_000);
  });

  it('read a set with gaps as the whole set minus the gaps (range steps placed by rowid)', async () => {
    const everyone = await all(exportProspects(engine, { mode: 'preview' }));
    const excluded = new Set(everyone.filter((_, i) => i % 7 === 3).map((p) => p.prospect_id as string));
    const it = exportProspects(engine, { mode: 'preview', exclude: [...excluded].slice(0, 1_000) });
    const kept = new Set([...excluded].slice(0, 1_000));
    const got = await all(it);
    expect(got.length).toBe(everyone.length - kept.size);
    expect(got).toEqual(everyone.filter((p) => !kept.has(p.prospect_id as string)));
  });

  it('yield every matching business (full records carry their events)', async () => {
    const body = { mode: 'full' as const, filters: { country_code: { values: ['us', 'gb'] } } };
    const got = await all(exportBusinesses(engine, body));
    expect(got.length).toBeGreaterThan(100);
    expect(got).toEqual(walkBusinesses(body));
  });

  it('refuse a bad request with the validation issues', () => {
    expect(() => exportProspects(engine, { filters: { job_level: { values: ['astronaut'] } } })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION',
        issues: [expect.objectContaining({ loc: expect.arrayContaining(['filters', 'job_level']) })],
      }),
    );
    expect(() => exportProspects(engine, { max_per_company: 0 })).toThrow(
      expect.objectContaining({ status: 422 }),
    );
    expect(() => exportBusinesses(engine, { max_per_company: 2 } as never)).toThrow(
      expect.objectContaining({ status: 422 }),
    );
  });
});

describe('export files', () => {
  // One DuckDB for the file's queries (each reads a file of its own).
  let conn: DuckDBConnection | undefined;
  afterAll(() => conn?.closeSync());
  const duck = async (sql: string) => {
    conn ??= await (await DuckDBInstance.create(':memory:')).connect();
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  };

  const write = async (
    entity: 'prospects' | 'businesses',
    format: ExportFormat,
    mode: 'full' | 'preview',
  ) => {
    const out = join(dir, `${entity}-${mode}.${format}`);
    const records =
      entity === 'prospects'
        ? exportProspects(engine, { mode, filters: SUBSET })
        : exportBusinesses(engine, { mode });
    const n = await writeExport(records, { format, out, columns: exportColumns(entity, mode) });
    expect(n).toBe(records.total);
    return out;
  };

  for (const entity of ['prospects', 'businesses'] as const) {
    for (const mode of ['full', 'preview'] as const) {
      it(`${entity} ${mode}: Parquet read back by DuckDB equals the JSON Lines export, columns typed`, async () => {
        const jsonl = readFileSync(await write(entity, 'jsonl', mode), 'utf8')
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        const parquet = await write(entity, 'parquet', mode);
        const columns = exportColumns(entity, mode);
        // Every key of every record has a typed column (a new wire field must be added to the table).
        for (const r of jsonl) expect(Object.keys(r)).toEqual(columns.map((c) => c.name));
        const types = await duck(
          `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${parquet}'))`,
        );
        const expectedType = (c: (typeof columns)[number]) =>
          ({
            string: 'VARCHAR',
            int: 'INTEGER',
            list: 'VARCHAR[]',
            // DuckDB quotes a field named like one of its keywords (`other_names`: "name", "type").
            records: `STRUCT(${c.fields?.map((f) => `${DUCKDB_KEYWORDS.has(f) ? `"${f}"` : f} VARCHAR`).join(', ')})[]`,
          })[c.kind];
        expect(types).toEqual(columns.map((c) => ({ column_name: c.name, column_type: expectedType(c) })));
        const rows = await duck(`SELECT * FROM read_parquet('${parquet}')`);
        expect(rows).toEqual(jsonl);
      });
    }
  }

  it('CSV: a header of the columns, lists as JSON text, null as an empty cell', async () => {
    const out = await write('businesses', 'csv', 'full');
    const jsonl = await all(exportBusinesses(engine, { mode: 'full' }));
    async function* chunks() {
      yield readFileSync(out, 'utf8');
    }
    const rows = await all(csvRows(chunks()));
    expect(rows.length).toBe(jsonl.length);
    rows.forEach((row, i) => {
      for (const c of exportColumns('businesses', 'full')) {
        const v = jsonl[i]![c.name];
        const text =
          v === null || v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
        expect(row[c.name]).toBe(text === '' ? undefined : text);
      }
    });
  });

  it('prospectdb export writes the file, and refuses bad options', async () => {
    const out = join(dir, 'cli.jsonl');
    const filters = JSON.stringify({ country_code: { values: ['us'] } });
    expect(
      await exportCommand([
        '--db',
        dbPath,
        '--entity',
        'prospects',
        '--filters',
        filters,
        '--out',
        out,
        '--max-per-company',
        '1',
        '--quiet',
      ]),
    ).toBe(0);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    const expected = walkProspects({
      mode: 'full',
      filters: JSON.parse(filters) as object,
      max_per_company: 1,
    });
    expect(lines.map((l) => (JSON.parse(l) as { prospect_id: string }).prospect_id)).toEqual(
      expected.map((r) => r.prospect_id),
    );
    // Each refusal exits 2 and says why on stderr (captured here).
    const said: string[] = [];
    const stderr = vi.spyOn(console, 'error').mockImplementation((m: string) => void said.push(m));
    const bad = async (args: string[]) => {
      said.length = 0;
      const code = await exportCommand(['--db', dbPath, '--out', join(dir, 'x.jsonl'), '--quiet', ...args]);
      return { code, said: said.join('\n') };
    };
    try {
      expect(await bad(['--entity', 'people'])).toEqual({
        code: 2,
        said: expect.stringMatching(/^prospectdb: --entity takes prospects or businesses\nusage: /),
      });
      expect(await bad(['--entity', 'prospects', '--format', 'xlsx'])).toEqual({
        code: 2,
        said: expect.stringMatching(/^prospectdb: --format takes jsonl, csv, parquet/),
      });
      expect(await bad(['--entity', 'prospects', '--filters', '{nope'])).toEqual({
        code: 2,
        said: expect.stringMatching(/^prospectdb: --filters: /),
      });
      expect(
        await bad(['--entity', 'prospects', '--filters', '{"job_level":{"values":["astronaut"]}}']),
      ).toEqual({ code: 2, said: expect.stringMatching(/^prospectdb: filters\.job_level\.values\.0: /) });
      expect(await bad(['--entity', 'businesses', '--max-per-company', '2'])).toEqual({
        code: 2,
        said: 'prospectdb: --max-per-company applies to prospects only',
      });
    } finally {
      stderr.mockRestore();
    }
  });
});

// Last: it changes the data.
describe('export during a change', () => {
  it('ends with CONFLICT when the data changes during the export', async () => {
    const other = engine;
    {
      const it = exportProspects(other, { mode: 'preview' });
      let seen = 0;
      await expect(
        (async () => {
          for await (const _ of it) {
            if (++seen === 1_500) {
              const b = other.db
                .prepare('SELECT business_id FROM businesses LIMIT 1')
                .pluck()
                .get() as string;
              const report = await other.ingestEvents([
                {
                  event_id: 'e'.repeat(32),
                  event_name: 'new_product',
                  event_time: '2026-10-30T00:00:00Z',
                  business_id: b,
                  data: {
                    event_name: 'new_product',
                    event_time: '2026-10-30T00:00:00Z',
                    event_id: 'e'.repeat(32),
                  },
                },
              ]);
              expect(report.ingested + report.rejected.length).toBe(1);
            }
          }
        })(),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(seen).toBe(2_000);
    }
  });

  it('a Parquet export read on its own thread ends with CONFLICT when the snapshot is not the captured one', async () => {
    const it = exportProspects(engine, { mode: 'full' });
    const b = engine.db.prepare('SELECT business_id FROM businesses LIMIT 1').pluck().get() as string;
    const event = {
      event_id: 'f'.repeat(32),
      event_name: 'new_product',
      event_time: '2026-10-31T00:00:00Z',
      business_id: b,
      data: { event_name: 'new_product', event_time: '2026-10-31T00:00:00Z', event_id: 'f'.repeat(32) },
    };
    expect((await engine.ingestEvents([event])).ingested).toBe(1);
    await expect(
      writeExport(it, {
        format: 'parquet',
        out: join(dir, 'conflict.parquet'),
        columns: exportColumns('prospects', 'full'),
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
