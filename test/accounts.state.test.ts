/**
 * The account area on both state stores (embedded SQLite, PostgreSQL): charges exact under heavy
 * concurrency (one guarded UPDATE per charge, the operation's writes in the same transaction), the
 * per-key rate limit shared by every engine on one state, and the migration of stores made before the
 * balance column.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { nextAllowed } from '../src/account/ratelimit.js';
import { openEngine, type Engine, type EngineOptions } from '../src/engine.js';
import { allRoutes, buildRouter } from '../src/facade/handle.js';
import type { Route } from '../src/facade/types.js';
import { postgresDdl } from '../src/state/schema.js';
import { ACCOUNT_SCHEMA } from '../src/store/sql/accounts.js';
import { freshDatabase } from './support/postgres.js';
import { openTestEngine, STATE_KINDS, stateFor } from './support/state.js';

const NOW = Date.parse('2026-11-01T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'prospectdb-accounts-'));
const opened: Engine[] = [];
afterEach(() => {
  for (const e of opened.splice(0)) e.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keep = (e: Engine) => (opened.push(e), e);
/** No background workers: these tests exercise accounts only. */
const QUIET = { jobs: { worker: false }, webhooks: { worker: false } } as const;

/**
 * A charging route whose operation also writes a state row (a per-request menu row) inside
 * `ctx.transaction`: a refused charge must roll that row back with it.
 */
const charging: Route = {
  method: 'POST',
  path: '/v1/test/charge',
  body: z.strictObject({ n: z.int() }),
  async handler(ctx) {
    const { n } = ctx.body as { n: number };
    await ctx.transaction(async () => {
      await ctx.engine.state.run(
        'INSERT INTO credit_menu (partner_id, operation, credit_cost) VALUES (?, ?, ?)',
        [`req-${n}`, 'marker', 0],
      );
      ctx.charge('fetch', 1);
    });
    return { body: { n } };
  },
};
const router = buildRouter([...(await allRoutes()), charging]);

describe.each(STATE_KINDS)('accounts on the %s state', (kind) => {
  it('lets exactly the affordable 500 of 2,000 concurrent charging requests through', async () => {
    const engine = keep(await openTestEngine(kind, { ...QUIET, clock: () => NOW, rateLimit: false }));
    const { api_key, account_id } = await engine.accounts.create({ name: 'Race', credits: 500 });
    const responses = await Promise.all(
      Array.from({ length: 2_000 }, (_, n) =>
        engine.handle(
          { method: 'POST', path: '/v1/test/charge', headers: { api_key }, body: { n } },
          { router },
        ),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(500);
    expect(statuses.filter((s) => s === 403)).toHaveLength(1_500);
    expect(await engine.accounts.balance(account_id)).toBe(0);
    const s = engine.state;
    // The operation's own writes committed with exactly the successful charges.
    expect(await s.value("SELECT count(*) FROM credit_menu WHERE operation = 'marker'")).toBe(500);
    const ledger = await s.all<{ kind: string; delta: number; balance: number }>(
      'SELECT kind, delta, balance FROM credit_ledger WHERE account_id = ? ORDER BY entry_id',
      [account_id],
    );
    expect(ledger).toHaveLength(501);
    expect(ledger.reduce((n, r) => n + r.delta, 0)).toBe(0);
    // The running balance is exact row by row: 500 after the grant, then 499 … 0.
    expect(ledger.map((r) => r.balance)).toEqual(Array.from({ length: 501 }, (_, i) => 500 - i));
    // A grant afterwards starts from the exact balance.
    expect(await engine.accounts.grantCredits(account_id, 3)).toBe(3);
  });

  it('shares one key’s rate-limit budget between engines on the same state', async () => {
    const state = kind === 'postgres' ? await stateFor(kind) : join(dir, `rate-${Date.now()}.db`);
    let now = NOW + 30_000;
    const options: EngineOptions = { ...QUIET, clock: () => now, state, rateLimit: { perMinute: 5 } };
    const a = keep(openEngine(options));
    const b = keep(openEngine(options));
    await a.state.ready();
    await b.state.ready();
    const { api_key } = await a.accounts.create({ name: 'Shared' });
    const get = (e: Engine) => e.handle({ method: 'GET', path: '/v1/credits', headers: { api_key } });
    // A wrong secret under the key's prefix is refused and leaves the key's budget alone.
    const forged = `${api_key.slice(0, 12)}_${'A'.repeat(43)}`;
    for (const e of [a, b, a])
      expect(
        (await e.handle({ method: 'GET', path: '/v1/credits', headers: { api_key: forged } })).status,
      ).toBe(401);
    const first = await Promise.all([a, b, a, b, a, b, a, b].map(get));
    expect(first.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const refused = first.find((r) => r.status === 429)!;
    expect(refused.headers).toMatchObject({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String((NOW + 60_000) / 1000),
      'retry-after': '30',
    });
    expect(refused.body).toMatchObject({ error: 'rate_limit_exceeded', retry_after: 30 });
    // The next minute still carries the previous one's weight: 5 hits × 50% overlap = 2 count.
    now = NOW + 90_000;
    const next = await Promise.all([b, a, b, a, b].map(get));
    expect(next.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    // Windows before the previous one are pruned.
    now = NOW + 200_000;
    expect((await get(a)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(await a.state.value('SELECT min(window_start) FROM rate_windows')).toBeGreaterThanOrEqual(
      NOW + 120_000,
    );
  });

  it('migrates a store made before the balance column: the balance comes from the ledger', async () => {
    const old = ACCOUNT_SCHEMA.replace(',\n  balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0)', '');
    expect(old).not.toContain('balance INTEGER NOT NULL DEFAULT 0');
    const rows = [
      "INSERT INTO accounts (account_id, partner_id, name, account_type, created_at) VALUES ('acc_a', 'pa', 'A', 'paid', 1), ('acc_b', 'pb', 'B', 'trial', 2)",
      "INSERT INTO credit_ledger (account_id, at, kind, delta, balance) VALUES ('acc_a', 1, 'grant', 100, 100), ('acc_a', 2, 'charge', -30, 70), ('acc_b', 3, 'grant', 5, 5), ('acc_a', 4, 'grant', 7, 77)",
    ];
    let state: string;
    if (kind === 'sqlite') {
      state = join(dir, `old-${Date.now()}.db`);
      const db = new Database(state);
      db.exec(old);
      for (const r of rows) db.exec(r);
      db.close();
    } else {
      state = await freshDatabase(inject('postgresUrl'));
      const client = new pg.Client({ connectionString: state });
      await client.connect();
      await client.query(postgresDdl(old));
      for (const r of rows) await client.query(r);
      await client.end();
    }
    const engine = keep(openEngine({ ...QUIET, state }));
    await engine.state.ready();
    expect(await engine.accounts.balance('acc_a')).toBe(77);
    expect(await engine.accounts.balance('acc_b')).toBe(5);
    expect(await engine.state.value("SELECT value FROM state_meta WHERE key = 'schema.accounts'")).toBe('1');
    // The ledger stays append-only.
    await expect(engine.state.run('DELETE FROM credit_ledger')).rejects.toThrow(/append-only/);
    await expect(engine.state.run('UPDATE accounts SET balance = -1')).rejects.toThrow();
  });
});

describe('sliding-window arithmetic', () => {
  it('names the first millisecond a refused key may send again', () => {
    const start = NOW;
    // Current window full, nothing before: the next window.
    expect(nextAllowed(3, 0, 3, start)).toBe(start + 60_000);
    // 10 hits in the previous window, 5 of 10 used now: once the carried weight is below 5 (half-way).
    const t = nextAllowed(10, 10, 5, start);
    expect(t).toBeGreaterThan(start + 29_000);
    expect(t).toBeLessThanOrEqual(start + 30_000);
  });
});
