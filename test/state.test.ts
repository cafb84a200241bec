/**
 * The state store's port, run against both implementations (SQLite file, PostgreSQL from the run's
 * throwaway server): statements, transactions that commit or roll back as one, joined nesting, the
 * process's other statements kept out of an open SQLite transaction, and every area's tables made by
 * the migration in both dialects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { STATE_AREAS } from '../src/state/areas.js';
import type { StateDb } from '../src/state/db.js';
import { openState } from '../src/state/open.js';
import { postgresDdl, splitStatements } from '../src/state/schema.js';
import { toPositional } from '../src/state/postgres.js';
import { freshDatabase } from './support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'prospectdb-state-'));
const opened: StateDb[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const STORES: [string, () => Promise<StateDb>][] = [
  ['sqlite', async () => openState(join(dir, `s${opened.length}.db`), STATE_AREAS)],
  ['postgres', async () => openState(await freshDatabase(inject('postgresUrl')), STATE_AREAS)],
];

describe.each(STORES)('state store: %s', (_name, open) => {
  const fresh = async () => {
    const s = await open();
    opened.push(s);
    await s.ready();
    const ddl = 'CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL CHECK (n >= 0)) STRICT;';
    await s.run(s.dialect === 'postgres' ? postgresDdl(ddl).replace(/;$/, '') : ddl);
    return s;
  };

  it('runs statements with ? placeholders and returns integers as numbers', async () => {
    const s = await fresh();
    expect(await s.run('INSERT INTO t (k, n) VALUES (?, ?), (?, ?)', ['a', 1, 'b', 1_700_000_000_000])).toBe(
      2,
    );
    expect(await s.get('SELECT k, n FROM t WHERE k = ?', ['b'])).toEqual({ k: 'b', n: 1_700_000_000_000 });
    expect(await s.value('SELECT count(*) FROM t')).toBe(2);
    expect(await s.value('SELECT sum(n) FROM t')).toBe(1_700_000_000_001);
    expect(await s.all('SELECT k FROM t ORDER BY k')).toEqual([{ k: 'a' }, { k: 'b' }]);
    expect(await s.all('UPDATE t SET n = n + 1 WHERE k = ? AND n >= ? RETURNING n', ['a', 1])).toEqual([
      { n: 2 },
    ]);
    expect(await s.get('SELECT k FROM t WHERE k = ?', ['zz'])).toBeUndefined();
  });

  it('commits a transaction as one and rolls it back as one', async () => {
    const s = await fresh();
    await s.transaction(async () => {
      await s.run('INSERT INTO t (k, n) VALUES (?, ?)', ['a', 5]);
      await s.transaction(async () => s.run('INSERT INTO t (k, n) VALUES (?, ?)', ['b', 5]));
    });
    await expect(
      s.transaction(async () => {
        await s.run('UPDATE t SET n = n - 3 WHERE k = ?', ['a']);
        expect(s.inTransaction).toBe(true);
        await s.run('UPDATE t SET n = n - 9 WHERE k = ?', ['b']); // CHECK fails
      }),
    ).rejects.toThrow();
    expect(await s.all('SELECT k, n FROM t ORDER BY k')).toEqual([
      { k: 'a', n: 5 },
      { k: 'b', n: 5 },
    ]);
    expect(s.inTransaction).toBe(false);
  });

  it('never lets concurrent debits overdraw: each is one guarded UPDATE', async () => {
    const s = await fresh();
    await s.run('INSERT INTO t (k, n) VALUES (?, ?)', ['acc', 50]);
    const tries = Array.from({ length: 200 }, () =>
      s.transaction(async () => {
        const row = await s.get<{ n: number }>('UPDATE t SET n = n - 1 WHERE k = ? AND n >= 1 RETURNING n', [
          'acc',
        ]);
        await new Promise((r) => setTimeout(r, 0));
        return row !== undefined;
      }),
    );
    const ok = (await Promise.all(tries)).filter(Boolean).length;
    expect(ok).toBe(50);
    expect(await s.value('SELECT n FROM t WHERE k = ?', ['acc'])).toBe(0);
  });

  it('makes every area of the state', async () => {
    const s = await fresh();
    for (const table of [
      'accounts',
      'api_keys',
      'credit_ledger',
      'jobs',
      'job_rows',
      'oauth_grants',
      'webhooks',
      'deliveries',
    ])
      expect(await s.value(`SELECT count(*) FROM ${table}`)).toBe(0);
  });
});

describe('dialect helpers', () => {
  it('turns ? into $n outside quotes', () => {
    expect(toPositional("SELECT ? , '?' , ?")).toBe("SELECT $1 , '?' , $2");
  });
  it('translates the SQLite DDL of every area into statements PostgreSQL takes', () => {
    for (const area of STATE_AREAS) {
      const ddl = postgresDdl(area.ddl);
      expect(ddl).not.toMatch(/\bSTRICT\b|\bBLOB\b|WITHOUT ROWID|RAISE\(ABORT/);
      expect(splitStatements(ddl).length).toBeGreaterThan(0);
    }
  });
});
