/** Stored fetch records read back in batches: any number of rows, any order, repeats kept. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessRecords, prospectRecords } from '../src/core/records.js';
import type { Engine } from '../src/engine.js';
import { demoEngine } from './support/demo.js';

let engine: Engine;
beforeAll(async () => {
  engine = await demoEngine();
});
afterAll(() => engine.close());

const idOf = (table: string, key: string) => {
  const st = engine.db.prepare(`SELECT ${key} FROM ${table} WHERE rowid = ?`).pluck();
  return (rowid: number) => st.get(rowid) as string;
};

describe('stored records', () => {
  it('come back in the order asked for, across batches, with repeats', () => {
    // 250 rows: three batches, descending and shuffled, one repeated.
    const rows = Array.from({ length: 249 }, (_, i) => 1 + ((i * 37) % 10_000)).reverse();
    rows.push(rows[3]!);
    const prospectId = idOf('prospects', 'prospect_id');
    expect(prospectRecords(engine, rows, 'full').map((r) => r.prospect_id)).toEqual(rows.map(prospectId));
    const preview = prospectRecords(engine, rows.slice(0, 3), 'preview');
    expect(preview.map((r) => r.prospect_id)).toEqual(rows.slice(0, 3).map(prospectId));
    expect(preview[0]).not.toHaveProperty('experience');
  });

  it('give businesses their recent events in full mode only', () => {
    const rows = [5, 1, 1999, 2];
    const businessId = idOf('businesses', 'business_id');
    const full = businessRecords(engine, rows, 'full');
    expect(full.map((r) => r.business_id)).toEqual(rows.map(businessId));
    for (const r of full) expect(Array.isArray(r.events)).toBe(true);
    expect(businessRecords(engine, rows, 'preview')[0]).not.toHaveProperty('events');
    expect(prospectRecords(engine, [], 'full')).toEqual([]);
  });
});
