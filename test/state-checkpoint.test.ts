/**
 * WAL checkpoints of the SQLite state file run on the checkpointer's worker thread, not in a request's
 * commit. Observed from outside: a checkpoint copies pages back into the database file, so the file
 * grows only when one has run. A few hundred page-sized writes stay under SQLite's own threshold
 * (1000 pages), so with checkpoints left in the commit (`PROSPECTDB_STATE_CHECKPOINT=commit`) the file
 * does not grow, and with the worker it does.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_ENV, CHECKPOINT_EVERY } from '../src/state/checkpointer.js';
import type { StateDb } from '../src/state/db.js';
import { openState } from '../src/state/open.js';

const dirs: string[] = [];
const stores: StateDb[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  delete process.env[CHECKPOINT_ENV];
});

async function filled(mode?: 'commit') {
  const dir = mkdtempSync(join(tmpdir(), 'prospectdb-checkpoint-'));
  dirs.push(dir);
  const path = join(dir, 'state.db');
  if (mode) process.env[CHECKPOINT_ENV] = mode;
  const state = openState(path, []);
  delete process.env[CHECKPOINT_ENV];
  stores.push(state);
  await state.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
  const before = statSync(path).size;
  // Autocommit writes and transactions alike count towards the next checkpoint request.
  for (let i = 0; i < CHECKPOINT_EVERY * 3; i++) {
    if (i % 2) await state.run('INSERT INTO t (v) VALUES (randomblob(3000))');
    else await state.transaction(() => state.run('INSERT INTO t (v) VALUES (randomblob(3000))'));
  }
  return { state, path, before };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('state checkpoints', () => {
  it('a worker thread copies the WAL back while requests go on', async () => {
    const { state, path, before } = await filled();
    // Hang guard only: the worker normally answers within milliseconds.
    for (let i = 0; i < 100 && statSync(path).size === before; i++) await sleep(50);
    expect(statSync(path).size).toBeGreaterThan(before);
    expect(await state.value('SELECT count(*) FROM t')).toBe(CHECKPOINT_EVERY * 3);
  });

  it('PROSPECTDB_STATE_CHECKPOINT=commit leaves checkpoints to SQLite (none below its threshold)', async () => {
    const { state, path, before } = await filled('commit');
    await sleep(300);
    expect(statSync(path).size).toBe(before);
    expect(await state.value('SELECT count(*) FROM t')).toBe(CHECKPOINT_EVERY * 3);
  });

  it('closing the store stops the worker; the file reopens with every row', async () => {
    const { state, path } = await filled();
    await state.close();
    await expect(state.value('SELECT 1')).rejects.toThrow('closed');
    const again = openState(path, []);
    stores.push(again);
    expect(await again.value('SELECT count(*) FROM t')).toBe(CHECKPOINT_EVERY * 3);
  });

  it('closing returns once every connection is closed: only the database file is left, at once', async () => {
    // Closed just after the worker starts (while it opens its connection), and after it has run.
    for (const statements of [CHECKPOINT_EVERY, CHECKPOINT_EVERY * 3]) {
      const dir = mkdtempSync(join(tmpdir(), 'prospectdb-checkpoint-'));
      dirs.push(dir);
      const state = openState(join(dir, 'state.db'), []);
      await state.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
      for (let i = 1; i < statements; i++) await state.run('INSERT INTO t (v) VALUES (randomblob(3000))');
      await state.close();
      expect(readdirSync(dir)).toEqual(['state.db']);
      rmSync(dir, { recursive: true });
    }
  });
});
