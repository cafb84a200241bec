/**
 * A delta whose records are prepared on worker threads writes the same rows, in the same places, with
 * the same report and snapshot id, as the same delta prepared on this thread.
 */
import { appendFileSync, cpSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { applyDelta, openEngine, type Engine } from '../src/index.js';
import { LoadPool } from '../src/store/load-pool.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { generateDelta } from '../tools/generate/delta.js';
import { rowDigests } from './support/rows.js';
import { tempDir } from './support/temp.js';

/** Every row of the entity and event tables in rowid order, each as a digest of its values. */
function dump(e: Engine) {
  return {
    businesses: rowDigests(e.db, 'SELECT rowid, * FROM businesses ORDER BY rowid'),
    prospects: rowDigests(e.db, 'SELECT rowid, * FROM prospects ORDER BY rowid'),
    events: rowDigests(e.db, 'SELECT rowid, * FROM events ORDER BY rowid'),
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

    // The same delta with its prospects gzipped: the workers read it through gunzip.
    const gzipped = join(dir, 'delta-gz');
    cpSync(delta, gzipped, { recursive: true });
    // Stored, not compressed (level 0): the file stays over 1 MiB, so the workers take it too.
    writeFileSync(join(gzipped, 'prospects.jsonl.gz'), gzipSync(readFileSync(prospects), { level: 0 }));
    rmSync(join(gzipped, 'prospects.jsonl'));

    // Files under 1 MiB are prepared on this thread whatever `threads` says: these must be larger.
    for (const f of ['delta/businesses.jsonl', 'delta/prospects.jsonl', 'delta-gz/prospects.jsonl.gz'])
      expect(statSync(join(dir, f)).size, f).toBeGreaterThan(1 << 20);

    const applied = async (threads: number, from = delta) => {
      const engine = openEngine({ clock: () => Date.parse('2026-11-02') });
      await engine.load(snap, { threads: 0 });
      const report = await applyDelta(engine, from, { threads });
      const files = report.files.map((f) => ({ ...f, file: f.file.replace(from, '') }));
      return { engine, report: { ...report, files, elapsedMs: 0 } };
    };
    let expected: ReturnType<typeof dump> | undefined;
    const one = await applied(1);
    const two = await applied(2);
    const gz = [await applied(1, gzipped), await applied(2, gzipped)];
    try {
      expect(one.report.issueCount).toBe(2);
      expect(one.report.issues.map((i) => i.reason)).toEqual([
        expect.stringContaining('invalid JSON'),
        expect.stringContaining('duplicate id'),
      ]);
      expect(one.report.rows.prospects.updated).toBeGreaterThan(100);
      expect(two.report).toEqual(one.report);
      expected = dump(one.engine);
      expect(dump(two.engine)).toEqual(expected);
      expect(gz[1]!.report).toEqual(gz[0]!.report);
      expect(gz[0]!.report.rows).toEqual(one.report.rows);
      expect(dump(gz[1]!.engine)).toEqual(dump(one.engine));
    } finally {
      for (const e of [one, two, ...gz]) e.engine.close();
    }

    // A file another connection is writing refuses the delta before a row changes (its workers
    // are not left running); once the writer is done, the same delta applies.
    const path = join(dir, 'busy.db');
    const busy = openEngine({ path, state: ':memory:', clock: () => Date.parse('2026-11-02') });
    try {
      await busy.load(snap, { threads: 0 });
      const before = dump(busy);
      const writer = new Database(path);
      writer.exec('BEGIN IMMEDIATE');
      busy.db.pragma('busy_timeout = 50');
      const started = vi.spyOn(LoadPool, 'start');
      const closed = vi.spyOn(LoadPool.prototype, 'close');
      await expect(applyDelta(busy, delta, { threads: 2 })).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      expect(closed.mock.calls.length).toBe(started.mock.calls.length);
      started.mockRestore();
      closed.mockRestore();
      writer.exec('ROLLBACK');
      writer.close();
      expect(dump(busy)).toEqual(before);
      await applyDelta(busy, delta, { threads: 2 });
      expect(dump(busy)).toEqual(expected);
    } finally {
      await busy.state.close();
      busy.close();
    }

    // A gzipped file cut short refuses the delta, naming the file, on either path: nothing changes.
    const broken = join(dir, 'delta-broken');
    cpSync(gzipped, broken, { recursive: true });
    const whole = readFileSync(join(gzipped, 'prospects.jsonl.gz'));
    writeFileSync(join(broken, 'prospects.jsonl.gz'), whole.subarray(0, whole.length - 4096));
    for (const threads of [1, 2]) {
      const engine = openEngine({ clock: () => Date.parse('2026-11-02') });
      try {
        await engine.load(snap, { threads: 0 });
        const before = dump(engine);
        await expect(applyDelta(engine, broken, { threads })).rejects.toMatchObject({
          code: 'SNAPSHOT_INVALID',
          message: expect.stringContaining(`prospects.jsonl.gz: cannot be read (unexpected end of file)`),
        });
        expect(dump(engine)).toEqual(before);
      } finally {
        engine.close();
      }
    }
  });
});
