/**
 * The prospect search index reads each prospect's `facets` blob by rowid ranges, in step with its scan
 * of the other columns: every row gets its own blob, across range ends and rowid gaps (a delta's
 * deletions leave them).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/engine.js';
import { facetReader } from '../src/indexes/prospects.js';
import { demoEngine } from './support/demo.js';
import { tempDir } from './support/temp.js';
import { join } from 'node:path';

let engine: Engine;
beforeAll(async () => {
  engine = await demoEngine({ path: join(tempDir('pdb-facets-'), 'demo.db') });
});
afterAll(() => engine.close());

describe('facetReader', () => {
  it('hands every row its own facets blob, in rowid order, across range ends and rowid gaps', () => {
    const db = engine.db;
    const stored = db.prepare('SELECT rowid, facets FROM prospects ORDER BY rowid').raw().all() as [
      number,
      Buffer | null,
    ][];
    expect(stored.length).toBeGreaterThan(1000);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.integer({ min: 0, max: stored.length - 1 }), { maxLength: 400 }),
        fc.array(fc.integer({ min: 0, max: stored.length - 1 }), { maxLength: 5 }),
        (rows, gone, blanks) => {
          // Deletions and rows without facets, undone after each run.
          db.exec('SAVEPOINT facets');
          try {
            const drop = db.prepare('DELETE FROM prospects WHERE rowid = ?');
            for (const i of gone) drop.run(stored[i]![0]);
            const blank = db.prepare('UPDATE prospects SET facets = NULL WHERE rowid = ?');
            for (const i of blanks) blank.run(stored[i]![0]);
            const expected = db.prepare('SELECT rowid, facets FROM prospects ORDER BY rowid').raw().all() as [
              number,
              Buffer | null,
            ][];
            const read = facetReader(db, rows);
            // The rows read wrong, collected: one `expect` per row (10,000 rows a run) cost most of the test.
            const wrong: number[] = [];
            for (const [rowid, facets] of expected) {
              const got = read(rowid);
              const same = facets === null ? got === null : got !== null && Buffer.compare(got, facets) === 0;
              if (!same) wrong.push(rowid);
            }
            expect(wrong).toEqual([]);
          } finally {
            db.exec('ROLLBACK TO facets; RELEASE facets');
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
