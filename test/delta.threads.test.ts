/**
 * A delta whose records are prepared on worker threads writes the same rows, in the same places, with
 * the same report and snapshot id, as the same delta prepared on this thread.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDelta, openEngine, type Engine } from '../src/index.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { generateDelta } from '../tools/generate/delta.js';
import { tempDir } from './support/temp.js';

/** Every row of the entity and event tables in rowid order, each as a digest of its values. */
function dump(e: Engine) {
  const digest = (row: unknown[]) => {
    const h = createHash('sha256');
    for (const v of row) h.update(v instanceof Uint8Array ? v : `${typeof v}:${String(v)}`).update('\0');
    return h.digest('hex');
  };
  const all = (sql: string) => (e.db.prepare(sql).raw().all() as unknown[][]).map(digest);
  return {
    businesses: all('SELECT rowid, * FROM businesses ORDER BY rowid'),
    prospects: all('SELECT rowid, * FROM prospects ORDER BY rowid'),
    events: all('SELECT rowid, * FROM events ORDER BY rowid'),
  };
}

describe('a delta prepared on worker threads', () => {
  it('writes what the same delta prepared on this thread writes, bad lines reported alike', async () => {
    const dir = tempDir('pdb-delta-threads-');
    const snap = join(dir, 'snap');
    await generateSnapshot({ dir: snap, businesses: 400, prospects: 1500, events: 60, seed: 11 });
    const delta = join(dir, 'delta');
    await generateDelta({ base: snap, dir: delta, fraction: 0.5 });
    const prospects = join(delta, 'prospects.jsonl');
    // A bad line, a duplicate id and a blank line after the generated ones: their line numbers and
    // reasons come from the workers on one side and from this thread on the other.
    const first = readFileSync(prospects, 'utf8').split('\n', 1)[0]!;
    appendFileSync(prospects, `{"prospect_id": oops}\n\n${first}\n`);
    // Files under 1 MiB are prepared on this thread whatever `threads` says: these must be larger.
    for (const f of ['businesses.jsonl', 'prospects.jsonl'])
      expect(statSync(join(delta, f)).size, f).toBeGreaterThan(1 << 20);

    const applied = async (threads: number) => {
      const engine = openEngine({ clock: () => Date.parse('2026-11-02') });
      await engine.load(snap, { threads: 0 });
      const report = await applyDelta(engine, delta, { threads });
      return { engine, report: { ...report, elapsedMs: 0 } };
    };
    const one = await applied(1);
    const two = await applied(2);
    try {
      expect(one.report.issueCount).toBe(2);
      expect(one.report.issues.map((i) => i.reason)).toEqual([
        expect.stringContaining('invalid JSON'),
        expect.stringContaining('duplicate id'),
      ]);
      expect(one.report.rows.prospects.updated).toBeGreaterThan(100);
      expect(two.report).toEqual(one.report);
      expect(dump(two.engine)).toEqual(dump(one.engine));
    } finally {
      one.engine.close();
      two.engine.close();
    }
  });
});
