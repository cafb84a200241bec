/** A load and its index build on one thread or on several give the same file. */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndexes, buildIndexesThreaded } from '../src/core/warm.js';
import {
  autocomplete,
  fetchProspects,
  matchBusinesses,
  matchProspects,
  openEngine,
  type Engine,
} from '../src/index.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { tempDir } from './support/temp.js';

const engines: Engine[] = [];
afterAll(() => engines.forEach((e) => e.closed || e.close()));

/**
 * Every row of every table the load and the index build write, in rowid order, each as a digest of its
 * values (comparing megabytes of blobs value by value is slow): a difference names the table and row.
 */
function dump(e: Engine) {
  const digest = (row: unknown[]) => {
    const h = createHash('sha256');
    for (const v of row) h.update(v instanceof Uint8Array ? v : `${typeof v}:${String(v)}`).update('\0');
    return h.digest('hex');
  };
  const all = (sql: string) => (e.db.prepare(sql).raw().all() as unknown[][]).map(digest);
  return {
    businesses: all('SELECT * FROM businesses ORDER BY rowid'),
    prospects: all('SELECT * FROM prospects ORDER BY rowid'),
    // `ingested_at` is the time of the load.
    events: all(
      'SELECT event_id, event_name, entity_type, entity_id, event_time, doc FROM events ORDER BY rowid',
    ),
    // The cursor secret is random per file.
    meta: e.db.prepare("SELECT key, value FROM meta WHERE key NOT LIKE '%secret%' ORDER BY key").all(),
    indexes: (
      e.db.prepare('SELECT name, part, stamp, data FROM index_cache ORDER BY name, part').raw().all() as [
        string,
        number,
        string,
        Buffer,
      ][]
    ).map(([name, part, stamp, data]) => [name, part, stamp, digest([data])]),
  };
}

describe('threads', () => {
  it('load and build the indexes into the same rows and the same saved index bytes on 1 thread and on 2', async () => {
    const root = tempDir('pdb-threads-');
    const dir = join(root, 'snapshot');
    // Streams above 1 MiB, so the prospects and businesses go through the workers.
    await generateSnapshot({ dir, businesses: 200, prospects: 1000, events: 100, seed: 11, format: 'jsonl' });
    const load = async (threads: number) => {
      const engine = openEngine({ path: join(root, `t${threads}.db`) });
      engines.push(engine);
      const report = await engine.load(dir, { threads });
      if (threads === 1) buildIndexes(engine);
      else await buildIndexesThreaded(engine, { threads });
      return { engine, report };
    };
    const one = await load(1);
    const three = await load(2);
    expect(three.report.streams).toEqual(one.report.streams);
    expect(three.report.snapshotId).toBe(one.report.snapshotId);
    const expected = dump(one.engine);
    expect(expected.prospects.length).toBe(1000);
    expect(expected.indexes.length).toBeGreaterThan(20);
    expect(dump(three.engine)).toEqual(expected);
    // The engine that built on workers answers (from the saved indexes) as the other does (from memory).
    const page = { mode: 'preview', page_size: 25 } as const;
    expect(fetchProspects(three.engine, page)).toEqual(fetchProspects(one.engine, page));
    const [b] = one.engine.db.prepare('SELECT name FROM businesses LIMIT 1').raw().get() as [string];
    const businesses = [{ name: b }, { name: b.slice(0, -1) }];
    expect(matchBusinesses(three.engine, businesses)).toEqual(matchBusinesses(one.engine, businesses));
    const [p] = one.engine.db.prepare('SELECT full_name FROM prospects LIMIT 1').raw().get() as [string];
    const prospects = [{ full_name: p, company_name: b }];
    expect(matchProspects(three.engine, prospects)).toEqual(matchProspects(one.engine, prospects));
    const query = { field: 'company_name', query: b.slice(0, 3) } as const;
    expect(autocomplete(three.engine, query)).toEqual(autocomplete(one.engine, query));
  }, 600_000);
});
