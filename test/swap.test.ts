/**
 * Snapshot swaps without downtime: requests in flight finish on the old
 * snapshot, new ones see the new one, the old connection closes when its last request ends, old cursors
 * are refused with the documented 422, the state is untouched, and `serve --watch` swaps when a new file
 * is renamed over the served one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchBusinesses } from '../src/core/fetch.js';
import { openEngine, type Engine } from '../src/engine.js';
import type { Account, FacadeResponse } from '../src/facade/types.js';
import { BusinessesFetchRequestV2 } from '../src/schemas/search.js';
import { isWalFile, settleSnapshotFile } from '../src/store/open.js';
import { BUILT_CLI } from './support/built-cli.js';
import { namedBusinesses } from './support/snapshot.js';

let dir: string;
let engine: Engine | undefined;

const OLD: [string, string][] = [
  ['Acme', 'US'],
  ['Beta', 'FR'],
  ['Gamma', 'DE'],
];
const NEW: [string, string][] = [...OLD, ['Delta', 'US'], ['Epsilon', 'GB']];

/** A snapshot folder of the named businesses. */
function snapshotFolder(name: string, rows: [string, string][]): string {
  const folder = mkdtempSync(join(dir, `${name}-src-`));
  writeFileSync(
    join(folder, 'businesses.jsonl'),
    namedBusinesses(rows)
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  writeFileSync(
    join(folder, 'manifest.json'),
    JSON.stringify({ format_version: 1, as_of: '2026-11-01T00:00:00Z' }),
  );
  return folder;
}

/** Builds a snapshot file the way `prospectdb load` does: load, close, settle. */
async function snapshotFile(name: string, rows: [string, string][]): Promise<string> {
  const path = join(dir, `${name}.db`);
  const e = openEngine({ path });
  await e.load(snapshotFolder(name, rows), { strict: true });
  await e.state.close();
  e.close();
  settleSnapshotFile(path);
  return path;
}

// A caller the adapter has authenticated (the key lookup belongs to the state, tested below on its own).
const caller: Account = {
  account_id: 'acc_swap',
  partner_id: 'partner_swap',
  name: 'swap',
  account_type: 'paid',
  entitlements: ['*'],
};

const stats = (e: Engine): Promise<FacadeResponse> =>
  e.handle(
    { method: 'POST', path: '/v1/businesses/stats', headers: {}, body: { filters: {} } },
    { account: caller, keyId: 'key_swap' },
  );
const total = (r: FacadeResponse) => (r.body as { total_results: number }).total_results;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pdb-swap-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  engine?.close();
  engine = undefined;
});

describe('engine.swapSnapshot', () => {
  it('serves a stream of concurrent requests across a swap: none fails, before sees old, after sees new', async () => {
    const a = await snapshotFile('a1', OLD);
    const b = await snapshotFile('b1', NEW);
    engine = openEngine({ path: a });
    expect(total(await stats(engine))).toBe(3);
    const e = engine;
    const before: Promise<FacadeResponse>[] = [];
    const during: Promise<FacadeResponse>[] = [];
    const after: Promise<FacadeResponse>[] = [];
    for (let i = 0; i < 40; i++) before.push(stats(e));
    let swapped = false;
    const swap = e.swapSnapshot(b).then((report) => {
      swapped = true;
      return report;
    });
    // Requests keep arriving on every turn while the new snapshot warms, then after the switch.
    while (!swapped) {
      during.push(stats(e));
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (let i = 0; i < 40; i++) after.push(stats(e));
    const report = await swap;
    const answers = await Promise.all([...before, ...during, ...after]);
    expect(answers.filter((r) => r.status !== 200)).toEqual([]);
    expect((await Promise.all(before)).map(total)).toEqual(before.map(() => 3));
    expect((await Promise.all(after)).map(total)).toEqual(after.map(() => 5));
    // While warming, the old snapshot kept answering: every request started then saw 3 or 5, in order.
    const seen = (await Promise.all(during)).map(total);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((n) => n === 3 || n === 5)).toBe(true);
    expect(seen.indexOf(5) === -1 || seen.slice(seen.indexOf(5)).every((n) => n === 5)).toBe(true);
    expect(report).toMatchObject({
      path: b,
      counts: { businesses: 5, prospects: 0, events: 0 },
      previous: { path: a },
    });
    expect(report.snapshotId).toBe(e.info().snapshotId);
    expect(report.previous.snapshotId).not.toBe(report.snapshotId);
    expect(Object.keys(report.warmMs)).toContain('search.businessIndex');
    // Library calls on the engine read the current snapshot too.
    expect(e.info()).toMatchObject({ path: b, counts: { businesses: 5 } });
  });

  it('keeps the old connection open until its last request ends, then closes it', async () => {
    const a = await snapshotFile('a2', OLD);
    const b = await snapshotFile('b2', NEW);
    engine = openEngine({ path: a });
    const oldDb = engine.db;
    const pinned = engine.pin!();
    const report = await engine.swapSnapshot(b);
    expect(report.previous.inFlight).toBe(1);
    // The pinned request still reads the old snapshot, on a connection still open.
    expect(oldDb.open).toBe(true);
    expect(pinned.ctx.db).toBe(oldDb);
    expect(total(await stats(engine))).toBe(5);
    const { handle } = await import('../src/facade/handle.js');
    const onOld = await handle(
      pinned.ctx,
      { method: 'POST', path: '/v1/businesses/stats', headers: {}, body: { filters: {} } },
      { account: caller, keyId: 'key_swap' },
    );
    expect(total(onOld)).toBe(3);
    expect(oldDb.open).toBe(true);
    pinned.release();
    expect(oldDb.open).toBe(false);
    pinned.release(); // a second release changes nothing
    expect(total(await stats(engine))).toBe(5);
    expect(engine.db.readonly).toBe(true);
  });

  it('closes the old connection at once when no request is running', async () => {
    const a = await snapshotFile('a3', OLD);
    const b = await snapshotFile('b3', NEW);
    engine = openEngine({ path: a });
    const oldDb = engine.db;
    const report = await engine.swapSnapshot(b);
    expect(report.previous.inFlight).toBe(0);
    expect(oldDb.open).toBe(false);
  });

  // Linux lists a process's open files in /proc/self/fd: none may be left on a file swapped out.
  it.runIf(process.platform === 'linux')(
    'leaves no connection open on a swapped-out file, the one its saved indexes were read through too',
    async () => {
      const a = await snapshotFile('a4', OLD);
      const b = await snapshotFile('b4', NEW);
      const opened = (file: string) =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === file;
          } catch {
            return false; // closed since listed
          }
        }).length;
      engine = openEngine({ path: a, readonly: true });
      expect(total(await stats(engine))).toBe(3); // reads the saved business index
      expect(opened(a)).toBeGreaterThan(1);
      await engine.swapSnapshot(b);
      expect(opened(a)).toBe(0);
      expect(total(await stats(engine))).toBe(5);
      engine.close();
      expect(opened(b)).toBe(0);
    },
  );

  it('answers a cursor of the old snapshot with the documented 422', async () => {
    const a = await snapshotFile('a4', OLD);
    const b = await snapshotFile('b4', NEW);
    engine = openEngine({ path: a });
    const body = { mode: 'preview', page_size: 1, filters: {} };
    const page = fetchBusinesses(engine, BusinessesFetchRequestV2.parse({ ...body, next_cursor: null }), 2);
    const cursor = (page as { page: { next_cursor: string } }).page.next_cursor;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    await engine.swapSnapshot(b);
    const res = await engine.handle(
      { method: 'POST', path: '/v2/businesses', headers: {}, body: { ...body, next_cursor: cursor } },
      { account: caller, keyId: 'key_swap' },
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          loc: ['next_cursor'],
          msg: 'invalid cursor: cursor was not issued by this database or was altered',
          type: 'value_error.cursor',
        },
      ],
    });
    // A walk started on the new snapshot works.
    const fresh = fetchBusinesses(engine, BusinessesFetchRequestV2.parse({ ...body, next_cursor: null }), 2);
    const next = (fresh as { page: { next_cursor: string } }).page.next_cursor;
    const second = fetchBusinesses(engine, BusinessesFetchRequestV2.parse({ ...body, next_cursor: next }), 2);
    expect((second as { data: unknown[] }).data).toHaveLength(1);
  });

  it('reads the same cursor secret from the file in every process that opens it read-only', async () => {
    const a = await snapshotFile('a5', OLD);
    const b = await snapshotFile('b5', NEW);
    engine = openEngine({ path: a });
    const other = openEngine({ path: a });
    try {
      await other.swapSnapshot(b);
      await engine.swapSnapshot(b);
      const body = { mode: 'preview', page_size: 1, filters: {} };
      const page = fetchBusinesses(engine, BusinessesFetchRequestV2.parse({ ...body, next_cursor: null }), 2);
      const cursor = (page as { page: { next_cursor: string } }).page.next_cursor;
      const second = fetchBusinesses(
        other,
        BusinessesFetchRequestV2.parse({ ...body, next_cursor: cursor }),
        2,
      );
      expect((second as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      other.close();
    }
  });

  it('leaves accounts, keys and the credit ledger untouched', async () => {
    const a = await snapshotFile('a6', OLD);
    const b = await snapshotFile('b6', NEW);
    engine = openEngine({ path: a });
    const state = engine.state;
    const created = await engine.accounts.create({ name: 'kept', credits: 250 });
    const rows = async () => ({
      accounts: await state.all('SELECT * FROM accounts ORDER BY account_id'),
      keys: await state.all('SELECT * FROM api_keys ORDER BY key_id'),
      ledger: await state.all('SELECT * FROM credit_ledger ORDER BY entry_id'),
    });
    const before = await rows();
    expect(before.accounts.map((r) => r.account_id)).toContain(created.account_id);
    expect(before.keys).toHaveLength(1);
    await engine.swapSnapshot(b);
    expect(engine.state).toBe(state);
    expect(await rows()).toEqual(before);
  });

  it('refuses a file that does not open or holds no snapshot, and keeps serving the current one', async () => {
    const a = await snapshotFile('a7', OLD);
    engine = openEngine({ path: a });
    const bad = join(dir, 'not-a-db.db');
    writeFileSync(bad, 'this is not SQLite '.repeat(100));
    await expect(engine.swapSnapshot(bad)).rejects.toMatchObject({ code: 'SNAPSHOT_INVALID' });
    await expect(engine.swapSnapshot(join(dir, 'missing.db'))).rejects.toMatchObject({
      code: 'SNAPSHOT_NOT_FOUND',
    });
    const empty = join(dir, 'empty.db');
    openEngine({ path: empty }).close();
    await expect(engine.swapSnapshot(empty)).rejects.toMatchObject({ code: 'SNAPSHOT_INVALID' });
    expect(engine.info().path).toBe(a);
    expect(total(await stats(engine))).toBe(3);
  });

  it("refuses a WAL file renamed over the file it serves (its -wal/-shm would be the old file's)", async () => {
    const a = await snapshotFile('a9', OLD);
    engine = openEngine({ path: a });
    const wal = join(dir, 'wal.db');
    const e = openEngine({ path: wal });
    await e.load(snapshotFolder('wal', NEW), { strict: true });
    await e.state.close();
    e.close();
    expect(isWalFile(wal)).toBe(true);
    renameSync(wal, a);
    await expect(engine.swapSnapshot(a)).rejects.toMatchObject({
      code: 'SNAPSHOT_INVALID',
      message: expect.stringMatching(/WAL mode and replaced a file still open/),
    });
    expect(total(await stats(engine))).toBe(3);
  });

  it('runs swaps one at a time, in the order asked', async () => {
    const a = await snapshotFile('a8', OLD);
    const b = await snapshotFile('b8', NEW);
    engine = openEngine({ path: a });
    const [first, second] = await Promise.all([engine.swapSnapshot(b), engine.swapSnapshot(a)]);
    expect(first.previous.path).toBe(a);
    expect(second.previous.path).toBe(b);
    expect(engine.info().path).toBe(a);
    expect(total(await stats(engine))).toBe(3);
  });
});

/** `prospectdb serve --watch` on one worker over `db` and the state `state`, its stderr piped. */
function serveWatching(db: string, state: string): ChildProcess {
  const args = ['serve', '--workers', '1', '--db', db, '--state', state, '--watch', '--port', '0'];
  return spawn(process.execPath, [BUILT_CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

describe('prospectdb serve --watch', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('swaps when a new file is renamed over the served one, and keeps the old one when the new one is broken', async () => {
    const current = await snapshotFile('current', OLD);
    const next = await snapshotFile('next', NEW);
    const proc = serveWatching(current, join(dir, 'state.db'));
    child = proc;
    let log = '';
    const waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
    proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      for (const w of [...waiters]) {
        const m = log.match(w.re);
        if (m) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    });
    // A generous hang guard: each step is well under a second on an idle machine.
    const waitFor = (re: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const m = log.match(re);
        if (m) return resolve(m);
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${re}; log:\n${log}`)),
          20_000,
        );
        waiters.push({
          re,
          resolve: (found) => {
            clearTimeout(timer);
            resolve(found);
          },
        });
      });
    const url = (await waitFor(/serving .* on (http:\/\/\S+)/))[1]!;
    await waitFor(/watching/);
    const health = await fetch(`${url}/healthcheck/http`);
    expect(health.status).toBe(200);

    renameSync(next, current);
    const swapped = await waitFor(
      /changed: now serving snapshot (\w+) \((\d+) businesses, (\d+) prospects\)/,
    );
    expect(swapped[2]).toBe('5');

    // A broken file renamed over the path: the server says so and keeps answering from the last good one.
    const broken = join(dir, 'broken.db');
    writeFileSync(broken, 'not a database '.repeat(100));
    renameSync(broken, current);
    await waitFor(/changed: kept the current snapshot: /);
    expect((await fetch(`${url}/healthcheck/http`)).status).toBe(200);

    const third = await snapshotFile('third', OLD);
    renameSync(third, current);
    await waitFor(/changed: now serving snapshot \w+ \(3 businesses/);
    // SIGHUP re-opens the path, changed or not.
    proc.kill('SIGHUP');
    await waitFor(/SIGHUP: now serving snapshot \w+ \(3 businesses/);

    proc.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => proc.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  }, 60_000);

  it('refuses --watch when the state shares the served file', async () => {
    const current = await snapshotFile('shared', OLD);
    const proc = serveWatching(current, current);
    child = proc;
    let log = '';
    proc.stderr!.setEncoding('utf8').on('data', (c: string) => (log += c));
    const code = await new Promise<number | null>((resolve) => proc.on('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(log).toMatch(/--watch: the state .* is stored in .*--state FILE/);
  }, 30_000);
});
