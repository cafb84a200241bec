/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
/**
 * Webhooks end to end, on both state stores (SQLite, PostgreSQL): registration, signed deliveries,
 * retries, disabling, rotation, resuming after a restart; and exactly-once delivery across engines
 * that share one state, with a dead owner's lease taken over once it ends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import { ingestEvents } from '../src/core/events.js';
import { openEngine, type Engine, type EngineOptions } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { STATE_AREAS } from '../src/state/areas.js';
import { openState } from '../src/state/open.js';
import { postgresDdl, splitStatements } from '../src/state/schema.js';
import { EVENTS_ACCOUNT_DDL } from '../src/store/sql/webhooks.js';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/deliver.js';
import { claimDeliveries, markDelivered, markRetry } from '../src/webhooks/outbox.js';
import { verifyXSignature } from '../src/webhooks/signature.js';
import { STATE_KINDS, stateFor, type StateKind } from './support/state.js';
import {
  receiver,
  snapshotFile,
  until,
  webhookEngine,
  webhookOptions,
  type Received,
} from './support/webhooks.js';

const BIZ = (i: number) => i.toString(16).padStart(32, '0');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function worker(engine: Engine, options = {}): DeliveryWorker {
  const w = startDeliveryWorker(engine, { timeoutMs: 2000, random: () => 0.5, ...options });
  cleanups.push(() => w.stop());
  return w;
}
const call = (engine: Engine, key: string, method: string, path: string, body?: unknown) =>
  handle(engine, { method, path, headers: { api_key: key }, body }) as Promise<{ status: number; body: any }>;
function event(i: number, business = BIZ(1), name = 'new_office') {
  return {
    event_id: `evt_${i}`,
    event_name: name,
    business_id: business,
    event_time: new Date().toISOString(),
    data: { office_location: `City ${i}` },
  };
}
function verifyBoth(secret: string, r: Received) {
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
  expect(
    verifyXSignature(secret, r.headers['x-timestamp'] as string, r.body, r.headers['x-signature'] as string),
  ).toBe(true);
}

async function v2Setup(engine: Engine, url: string) {
  const acct = await createAccount(engine, { name: 't', partner_id: `p-${Math.random()}` });
  const hook = await call(engine, acct.api_key, 'POST', '/v2/webhooks', { url, name: 'main' });
  expect(hook.status).toBe(201);
  const enr = await call(engine, acct.api_key, 'POST', '/v2/businesses/events/enrollments', {
    enrollment_key: 'v2-watch',
    event_types: ['executive_joined_company', 'new_funding_round', 'new_office'],
    business_ids: [BIZ(1)],
    webhook_id: hook.body.webhook_id,
  });
  expect(enr.status).toBe(201);
  return { key: acct.api_key, webhookId: hook.body.webhook_id as string, secret: hook.body.secret as string };
}
const statuses = async (engine: Engine) =>
  (await engine.state.all<{ status: string }>('SELECT status FROM deliveries ORDER BY rowid')).map(
    (r) => r.status,
  );
/** An engine on a snapshot file and a given state (undefined: the state beside the snapshot). */
async function fileEngine(path: string, state: string | undefined) {
  const engine = openEngine({ path, state, ...webhookOptions() });
  cleanups.push(() => engine.close());
  await engine.state.ready();
  return engine;
}

describe.each(STATE_KINDS)('webhooks (%s state)', (kind: StateKind) => {
  const setup = async (schedule?: readonly number[], options: EngineOptions = {}) => {
    const engine = await webhookEngine(kind, options, schedule);
    cleanups.push(() => engine.close());
    return engine;
  };

  describe('v1 delivery', () => {
    it('delivers each matching event once, signed for standardwebhooks and X-Signature, with custom headers', async () => {
      const engine = await setup();
      const rx = await receiver();
      cleanups.push(rx.stop);
      const acct = await createAccount(engine, { name: 'p', partner_id: 'partner-1' });
      const reg = await call(engine, acct.api_key, 'POST', '/v1/webhooks', {
        partner_id: 'partner-1',
        webhook_url: rx.url(),
        headers: ['X-Env: test', 'Authorization: Bearer abc'],
      });
      expect(reg.status).toBe(200);
      const secret = reg.body.webhook_secret as string;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{44}$/);
      await call(engine, acct.api_key, 'POST', '/v1/businesses/events/enrollments', {
        enrollment_key: 'watch',
        event_types: ['new_office', 'employee_joined_company'],
        business_ids: [BIZ(1)],
      });
      const w = worker(engine);
      const report = await ingestEvents(engine, [
        event(1),
        event(2),
        event(3, BIZ(2)), // not enrolled
        event(4, BIZ(1), 'cost_cutting'), // type not enrolled
        { ...event(5, BIZ(1), 'executive_joined_company'), data: {} },
      ]);
      expect(report.deliveries).toBe(3);
      await w.idle();
      expect(rx.received).toHaveLength(3);
      for (const r of rx.received) {
        verifyBoth(secret, r);
        expect(r.headers['x-env']).toBe('test');
        expect(r.headers['authorization']).toBe('Bearer abc');
        expect(r.headers['content-type']).toBe('application/json');
      }
      const bodies = rx.received
        .map((r) => JSON.parse(r.body))
        .sort((a, b) => (a.event_id < b.event_id ? -1 : 1));
      expect(bodies[0]).toEqual({
        tenant_id: acct.account_id,
        partner_id: 'partner-1',
        event_id: 'evt_1',
        event_name: 'new_office',
        entity_id: BIZ(1),
        entity_type: 'business',
        data: { office_location: 'City 1' },
        enrollment_key: 'watch',
      });
      expect(bodies[2].event_name).toBe('employee_joined_company');
      // Ingesting the same events again delivers nothing new.
      expect((await await ingestEvents(engine, [event(1)])).deliveries).toBe(0);
      await w.idle();
      expect(rx.received).toHaveLength(3);
    });

    it('sends stringified_json bodies and re-registering issues a new secret', async () => {
      const engine = await setup();
      const rx = await receiver();
      cleanups.push(rx.stop);
      const acct = await createAccount(engine, { name: 'p', partner_id: 'partner-2' });
      const first = await call(engine, acct.api_key, 'POST', '/v1/webhooks', {
        partner_id: 'partner-2',
        webhook_url: rx.url(),
      });
      const second = await call(engine, acct.api_key, 'POST', '/v1/webhooks', {
        partner_id: 'partner-2',
        webhook_url: rx.url('/v2'),
        payload_format: 'stringified_json',
      });
      expect(second.body.webhook_secret).not.toBe(first.body.webhook_secret);
      const got = await call(engine, acct.api_key, 'GET', '/v1/webhooks/partner-2');
      expect(got.body.webhook_url).toBe(rx.url('/v2'));
      expect((await call(engine, acct.api_key, 'GET', '/v1/webhooks/someone-else')).status).toBe(403);
      await call(engine, acct.api_key, 'POST', '/v1/businesses/events/enrollments', {
        enrollment_key: 'watch',
        event_types: ['new_office'],
        business_ids: [BIZ(1)],
      });
      const w = worker(engine);
      await ingestEvents(engine, [event(1)]);
      await w.idle();
      expect(rx.received).toHaveLength(1);
      const r = rx.received[0]!;
      verifyBoth(second.body.webhook_secret, r);
      expect(JSON.parse(JSON.parse(r.body) as string).event_id).toBe('evt_1');

      const check = await call(engine, acct.api_key, 'POST', '/v1/webhooks/check_connectivity', {
        partner_id: 'partner-2',
        simulation: { event_name: 'new_investment', number_of_events: 3 },
      });
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({
        reachable: true,
        status_class: '2xx',
        events_sent: 3,
        events_delivered: 3,
        error: null,
      });
      expect(JSON.stringify(check.body)).not.toContain('secret body');
      expect((await call(engine, acct.api_key, 'DELETE', '/v1/webhooks/partner-2')).status).toBe(200);
      expect((await call(engine, acct.api_key, 'GET', '/v1/webhooks/partner-2')).status).toBe(404);
    });
  });

  describe('v2 webhooks', () => {
    it('manages up to 10 webhooks per tenant, with status filter, 409 on delete in use, force', async () => {
      const engine = await setup();
      const acct = await createAccount(engine, { name: 'a' });
      const other = await createAccount(engine, { name: 'b' });
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await call(engine, acct.api_key, 'POST', '/v2/webhooks', {
          url: `https://example.com/h${i}`,
          status: i % 2 ? 'disabled' : 'active',
        });
        expect(res.status).toBe(201);
        ids.push(res.body.webhook_id);
      }
      expect(
        (await call(engine, acct.api_key, 'POST', '/v2/webhooks', { url: 'https://example.com/11' })).status,
      ).toBe(409);
      const active = await call(engine, acct.api_key, 'GET', '/v2/webhooks?status=active');
      expect(active.body.total_results).toBe(5);
      expect(active.body.webhooks[0].secret).toBeUndefined();
      expect((await call(engine, other.api_key, 'GET', `/v2/webhooks/${ids[0]}`)).status).toBe(404);
      expect((await call(engine, other.api_key, 'DELETE', `/v2/webhooks/${ids[0]}?force=true`)).status).toBe(
        404,
      );
      expect((await call(engine, acct.api_key, 'GET', '/v2/webhooks/wh_nope')).status).toBe(404);

      const patched = await call(engine, acct.api_key, 'PATCH', `/v2/webhooks/${ids[1]}`, {
        status: 'active',
        name: 'renamed',
      });
      expect(patched.body).toMatchObject({ status: 'active', name: 'renamed', disabled_reason: null });

      const enr = await call(engine, acct.api_key, 'POST', '/v2/businesses/events/enrollments', {
        enrollment_key: 'uses',
        event_types: ['new_office'],
        business_ids: [BIZ(1)],
        webhook_id: ids[0],
      });
      const conflict = await call(engine, acct.api_key, 'DELETE', `/v2/webhooks/${ids[0]}`);
      expect(conflict.status).toBe(409);
      const forced = await call(engine, acct.api_key, 'DELETE', `/v2/webhooks/${ids[0]}?force=true`);
      expect(forced.body).toMatchObject({
        webhook_id: ids[0],
        deleted: true,
        deleted_enrollment_ids: [enr.body.enrollment_id],
      });
      expect(
        (await call(engine, acct.api_key, 'GET', '/v2/businesses/events/enrollments')).body.enrollments,
      ).toEqual([]);
      expect(
        (await call(engine, acct.api_key, 'POST', '/v2/webhooks', { url: 'https://example.com/new' })).status,
      ).toBe(201);

      // Without the option, http and private targets are refused at registration.
      const strict = await setup(undefined, { webhooks: { allowPrivateTargets: false } });
      const s = await createAccount(strict, { name: 's' });
      for (const url of [
        'http://example.com/h',
        'https://127.0.0.1/h',
        'https://localhost/h',
        'https://169.254.169.254/',
      ]) {
        expect((await call(strict, s.api_key, 'POST', '/v2/webhooks', { url })).status, url).toBe(422);
      }
    });

    it('delivers v2 names, retries through an outage, keeps ids stable and loses nothing', async () => {
      const engine = await setup([50, 100, 200, 400, 800]);
      let down = true;
      const rx = await receiver(() => (down ? 503 : 200));
      cleanups.push(rx.stop);
      const { secret } = await v2Setup(engine, rx.url());
      const w = worker(engine);
      await ingestEvents(engine, [
        event(1),
        { ...event(2, BIZ(1), 'employee_joined_company'), data: { event_name: 'employee_joined_company' } },
        {
          ...event(3, BIZ(1), 'new_funding_round'),
          data: { founding_stage: 'Seed', founding_date: '2026-10-01' },
        },
      ]);
      await until(() => rx.received.length >= 6);
      await rx.stop(); // connection refused for a while
      await new Promise((r) => setTimeout(r, 150));
      down = false;
      await rx.start();
      await w.idle();
      const ok = new Map<string, Received[]>();
      for (const r of rx.received) {
        verifyBoth(secret, r);
        const body = JSON.parse(r.body);
        ok.set(body.event_id, [...(ok.get(body.event_id) ?? []), r]);
      }
      expect([...ok.keys()].sort()).toEqual(['evt_1', 'evt_2', 'evt_3']);
      for (const attempts of ok.values()) {
        expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
      }
      const bodies = [...ok.values()].map((a) => JSON.parse(a[0]!.body));
      expect(bodies.find((b) => b.event_id === 'evt_2').event_name).toBe('executive_joined_company');
      expect(bodies.find((b) => b.event_id === 'evt_3').data).toEqual({
        funding_stage: 'Seed',
        funding_date: '2026-10-01',
      });
      expect(await statuses(engine)).toEqual(['delivered', 'delivered', 'delivered']);
    });

    it('honours Retry-After on 429 and does not retry other 4xx', async () => {
      const engine = await setup([10, 10, 10]);
      const times: number[] = [];
      const rx = await receiver((n, r) => {
        times.push(Date.now());
        if (JSON.parse(r.body).event_id === 'evt_2') return 400;
        return n === 1 ? [429, { 'retry-after': '1' }] : 200;
      });
      cleanups.push(rx.stop);
      await v2Setup(engine, rx.url());
      const w = worker(engine, { concurrency: 1 });
      await ingestEvents(engine, [event(1)]);
      await until(() => rx.received.length === 2, 4000);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
      await ingestEvents(engine, [event(2)]);
      await w.idle();
      await new Promise((r) => setTimeout(r, 100));
      expect(rx.received).toHaveLength(3);
      expect(
        await engine.state.get("SELECT status, last_status FROM deliveries WHERE event_id = 'evt_2'"),
      ).toEqual({
        status: 'failed',
        last_status: 400,
      });
    });

    it('disables the webhook when the schedule runs out; re-enabling delivers everything', async () => {
      const engine = await setup([20, 20]);
      let up = false;
      const rx = await receiver(() => (up ? 200 : 500));
      cleanups.push(rx.stop);
      const { key, webhookId } = await v2Setup(engine, rx.url());
      const w = worker(engine);
      await ingestEvents(engine, [event(1)]);
      await until(() => rx.received.length === 3);
      await w.idle();
      const hook = await call(engine, key, 'GET', `/v2/webhooks/${webhookId}`);
      expect(hook.body).toMatchObject({ status: 'disabled', disabled_reason: 'delivery_failures' });
      await ingestEvents(engine, [event(2)]); // waits while the webhook is disabled
      await w.idle();
      expect(rx.received).toHaveLength(3);
      up = true;
      expect(
        (await call(engine, key, 'PATCH', `/v2/webhooks/${webhookId}`, { status: 'active' })).status,
      ).toBe(200);
      await until(() => rx.received.length === 5);
      await w.idle();
      expect(new Set(rx.received.slice(3).map((r) => JSON.parse(r.body).event_id))).toEqual(
        new Set(['evt_1', 'evt_2']),
      );
    });

    it('signs with both secrets during a rotation grace period, only the new one after it', async () => {
      let now = Date.now();
      const engine = await setup([50], { clock: () => now });
      const rx = await receiver();
      cleanups.push(rx.stop);
      const { key, webhookId, secret: oldSecret } = await v2Setup(engine, rx.url());
      const rotated = await call(engine, key, 'POST', `/v2/webhooks/${webhookId}/rotate_secret`, {
        grace_period_seconds: 60,
      });
      expect(rotated.status).toBe(200);
      const newSecret = rotated.body.secret as string;
      expect(newSecret).not.toBe(oldSecret);
      const w = worker(engine);
      await ingestEvents(engine, [event(1)]);
      await w.idle();
      const r = rx.received[0]!;
      verifyBoth(newSecret, r);
      new Webhook(oldSecret).verify(r.body, r.headers as Record<string, string>);
      expect(
        verifyXSignature(
          oldSecret,
          r.headers['x-timestamp'] as string,
          r.body,
          r.headers['x-signature-previous'] as string,
        ),
      ).toBe(true);

      now += 61_000;
      await ingestEvents(engine, [event(2)]);
      await w.idle();
      const late = rx.received[1]!;
      verifyBoth(newSecret, late);
      expect(() =>
        new Webhook(oldSecret).verify(late.body, late.headers as Record<string, string>),
      ).toThrow();
      expect(late.headers['x-signature-previous']).toBeUndefined();

      const check = await call(engine, key, 'POST', `/v2/webhooks/${webhookId}/check_connectivity`);
      expect(check.body).toMatchObject({
        webhook_id: webhookId,
        reachable: true,
        status_class: '2xx',
        events_sent: 1,
      });
      expect(JSON.parse(rx.received[2]!.body).data.simulated).toBe(true);
    });

    it('resumes pending deliveries after the process closes mid-delivery', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'webhooks-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      let hang = true;
      const rx = await receiver(() => (hang ? 0 : 200));
      cleanups.push(rx.stop);
      const state = await stateFor(kind);
      const file = kind === 'sqlite' ? join(dir, 'engine.db') : snapshotFile();
      const first = await fileEngine(file, state);
      await v2Setup(first, rx.url());
      const w1 = startDeliveryWorker(first, { timeoutMs: 10_000 });
      await ingestEvents(first, [event(1), event(2)]);
      await until(() => rx.received.length === 2); // both requests in flight, unanswered
      await w1.stop();
      first.close();

      hang = false;
      const second = await fileEngine(file, state);
      const w2 = worker(second);
      await until(() => rx.received.length === 4, 30_000); // a hang guard: generous on a loaded machine
      await w2.idle();
      const ids = rx.received.map((r) => JSON.parse(r.body).event_id as string);
      expect(ids.slice(2).sort()).toEqual(['evt_1', 'evt_2']);
      const webhookIds = rx.received.map((r) => r.headers['webhook-id']);
      expect(new Set(webhookIds).size).toBe(2);
      expect(await statuses(second)).toEqual(['delivered', 'delivered']);
    });
  });
});

describe.each(STATE_KINDS)('delivery across engines sharing one state (%s)', (kind: StateKind) => {
  /** The shared state: a SQLite file of its own, or a fresh PostgreSQL database. */
  const sharedState = async (): Promise<string> => {
    if (kind === 'postgres') return (await stateFor(kind))!;
    const dir = mkdtempSync(join(tmpdir(), 'webhooks-shared-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'state.db');
  };
  const engineOn = async (state: string, options: EngineOptions = {}) => {
    const engine = await webhookEngine(kind, { ...options, state });
    cleanups.push(() => engine.close());
    return engine;
  };

  it('sends each of 200 enrolled events exactly once while both engines deliver', async () => {
    const state = await sharedState();
    const a = await engineOn(state);
    const b = await engineOn(state);
    const rx = await receiver();
    cleanups.push(rx.stop);
    const acct = await createAccount(a, { name: 'fleet', partner_id: 'fleet-p' });
    const hook = await call(a, acct.api_key, 'POST', '/v2/webhooks', { url: rx.url() });
    const ids = Array.from({ length: 10 }, (_, i) => BIZ(100 + i));
    const enr = await call(a, acct.api_key, 'POST', '/v2/businesses/events/enrollments', {
      enrollment_key: 'fleet',
      event_types: ['new_office'],
      business_ids: ids,
      webhook_id: hook.body.webhook_id,
    });
    expect(enr.status).toBe(201);
    const events = Array.from({ length: 200 }, (_, i) => event(i, ids[i % 10]));
    const wa = worker(a);
    const wb = worker(b);
    // Each engine ingests half; then the other half too, which its own snapshot has not seen (as a
    // node that crashed after queuing would): nothing is queued twice.
    const reports = [
      await ingestEvents(a, events.slice(0, 100)),
      await ingestEvents(b, events.slice(100)),
      await ingestEvents(a, events.slice(100)),
      await ingestEvents(b, events.slice(0, 100)),
    ];
    expect(reports.map((r) => [r.ingested, r.deliveries])).toEqual([
      [100, 100],
      [100, 100],
      [100, 0],
      [100, 0],
    ]);
    const delivered = async () =>
      Number(await a.state.value("SELECT count(*) FROM deliveries WHERE status = 'delivered'"));
    await until(async () => (await delivered()) === 200, 30_000);
    await Promise.all([wa.idle(), wb.idle()]);
    expect(rx.received).toHaveLength(200);
    const eventIds = rx.received.map((r) => JSON.parse(r.body).event_id as string);
    expect(new Set(eventIds).size).toBe(200);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(200);
    expect(
      await a.state.value('SELECT count(*) FROM deliveries WHERE attempts = 1 AND lease_owner IS NULL'),
    ).toBe(200);
  });

  it("refuses a stalled owner's outcome once another worker took the delivery over", async () => {
    const state = await sharedState();
    const engine = await engineOn(state);
    await v2Setup(engine, 'http://127.0.0.1:9/hook');
    await ingestEvents(engine, [event(1)]);
    const t = Date.now();
    const [mine] = await claimDeliveries(engine, 'eng_slow', t, t + 100, 10);
    expect(mine).toMatchObject({ lease_owner: 'eng_slow', lease_until: t + 100, status: 'pending' });
    // While the lease holds nobody else gets the row; after it ends the next claimer does.
    expect(await claimDeliveries(engine, 'eng_other', t + 100, t + 1000, 10)).toEqual([]);
    const [taken] = await claimDeliveries(engine, 'eng_other', t + 101, t + 1000, 10);
    expect(taken!.rowid).toBe(mine!.rowid);
    expect(await markRetry(engine, 'eng_slow', mine!.rowid, t + 500, 500, 'http_500', t + 102)).toBe(false);
    expect(await markDelivered(engine, 'eng_other', taken!.rowid, 200, t + 103)).toBe(true);
    expect(await statuses(engine)).toEqual(['delivered']);
    expect(await claimDeliveries(engine, 'eng_third', t + 5000, t + 6000, 10)).toEqual([]);
  });

  it('takes over the deliveries of an owner killed mid-send once its lease ends', async () => {
    const state = await sharedState();
    const a = await engineOn(state);
    let hang = true;
    const rx = await receiver(() => (hang ? 0 : 200));
    cleanups.push(rx.stop);
    await v2Setup(a, rx.url());
    await ingestEvents(a, [event(1), event(2)]);
    // Another process (its own snapshot, the same state) claims both with a 30 s lease and sends them.
    const child = spawn(
      process.execPath,
      [
        fileURLToPath(new URL('./support/webhook-worker.mjs', import.meta.url)),
        state,
        '30000',
        snapshotFile(),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    cleanups.push(() => (child.exitCode === null && child.signalCode === null ? child.kill('SIGKILL') : 0));
    await until(() => rx.received.length === 2, 30_000);
    child.kill('SIGKILL');
    await exited;
    const leased = await a.state.all<{ lease_owner: string | null; attempts: number }>(
      'SELECT lease_owner, attempts FROM deliveries ORDER BY rowid',
    );
    expect(leased).toHaveLength(2);
    for (const d of leased) {
      expect(d.lease_owner).toMatch(/^eng_/);
      expect(d.lease_owner).not.toBe(a.instance);
      expect(d.attempts).toBe(0);
    }
    // While the dead owner's lease lasts, nobody takes the deliveries.
    const now = Date.now();
    expect(await claimDeliveries(a, 'eng_probe', now, now + 1000, 10)).toEqual([]);
    // Past it (this worker's clock runs 31 s ahead), they are taken over and sent again, same ids.
    hang = false;
    const w = worker(a, { clock: () => Date.now() + 31_000 });
    await until(() => rx.received.length === 4);
    await w.idle();
    const ids = (rs: Received[]) => rs.map((r) => r.headers['webhook-id'] as string).sort();
    expect(ids(rx.received.slice(2))).toEqual(ids(rx.received.slice(0, 2)));
    expect(await statuses(a)).toEqual(['delivered', 'delivered']);
  });
});

describe.each(STATE_KINDS)('webhooks migration (%s)', (kind: StateKind) => {
  it('adds the lease columns and the once-per-enrollment rule to a store made before them', async () => {
    // The outbox as versions before leases made it (no lease columns, no uniqueness, no version).
    const before = EVENTS_ACCOUNT_DDL.replace(/,\s*lease_owner TEXT,\s*lease_until INTEGER/, '').replace(
      /CREATE UNIQUE INDEX IF NOT EXISTS deliveries_once[^;]*;/,
      '',
    );
    expect(before).not.toMatch(/lease_/);
    let spec: string;
    if (kind === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'webhooks-migrate-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      spec = join(dir, 'old.db');
      const db = new Database(spec);
      db.exec(before);
      db.close();
    } else {
      spec = (await stateFor(kind))!;
      const client = new pg.Client({ connectionString: spec });
      await client.connect();
      for (const st of splitStatements(postgresDdl(before))) await client.query(st);
      await client.end();
    }
    const state = openState(spec, STATE_AREAS);
    cleanups.push(() => state.close());
    await state.ready();
    const insert = `INSERT INTO deliveries (delivery_id, webhook_rowid, event_id, enrollment_id, payload, status,
      next_attempt_at, created_at, updated_at) VALUES (?, 1, 'e1', 'en_1', '{}', 'pending', 0, 0, 0)
      ON CONFLICT (event_id, webhook_rowid, enrollment_id) DO NOTHING`;
    expect(await state.run(insert, ['msg_1'])).toBe(1);
    expect(await state.run(insert, ['msg_2'])).toBe(0);
    expect(await state.get('SELECT lease_owner, lease_until FROM deliveries')).toEqual({
      lease_owner: null,
      lease_until: null,
    });
    expect(await state.value("SELECT value FROM state_meta WHERE key = 'schema.webhooks'")).toBe('1');
  });
});
