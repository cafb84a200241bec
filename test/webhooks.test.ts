/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import { ingestEvents } from '../src/core/events.js';
import { openEngine, type Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/deliver.js';
import { verifyXSignature } from '../src/webhooks/signature.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1; `reply` decides each answer. */
async function receiver(
  reply: (n: number, r: Received) => number | [number, Record<string, string>] = () => 200,
) {
  const received: Received[] = [];
  let port = 0;
  let server: http.Server | null = null;
  const start = () =>
    new Promise<void>((resolve) => {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
          received.push(r);
          const out = reply(received.length, r);
          const [status, headers] = Array.isArray(out) ? out : [out, {}];
          if (status === 0) return; // hang: never answer
          res.writeHead(status, headers).end('secret body of the receiver');
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
      server = null;
    });
  await start();
  return { received, url: (p = '/hook') => `http://127.0.0.1:${port}${p}`, start, stop };
}

const BIZ = (i: number) => i.toString(16).padStart(32, '0');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(path = ':memory:', schedule = [50, 100, 200]) {
  const engine = openEngine({
    path,
    rateLimit: false,
    webhooks: { allowPrivateTargets: true, retrySchedule: schedule, worker: false },
  });
  cleanups.push(() => engine.close());
  return engine;
}
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
async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
function verifyBoth(secret: string, r: Received) {
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
  expect(
    verifyXSignature(secret, r.headers['x-timestamp'] as string, r.body, r.headers['x-signature'] as string),
  ).toBe(true);
}

describe('v1 delivery', () => {
  it('delivers each matching event once, signed for standardwebhooks and X-Signature, with custom headers', async () => {
    const engine = setup();
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
    const report = ingestEvents(engine, [
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
    expect(ingestEvents(engine, [event(1)]).deliveries).toBe(0);
    await w.idle();
    expect(rx.received).toHaveLength(3);
  });

  it('sends stringified_json bodies and re-registering issues a new secret', async () => {
    const engine = setup();
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
    ingestEvents(engine, [event(1)]);
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

describe('v2 webhooks', () => {
  it('manages up to 10 webhooks per tenant, with status filter, 409 on delete in use, force', async () => {
    const engine = setup();
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
    const strict = openEngine({ rateLimit: false });
    cleanups.push(() => strict.close());
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
    const engine = setup(':memory:', [50, 100, 200, 400, 800]);
    let down = true;
    const rx = await receiver(() => (down ? 503 : 200));
    cleanups.push(rx.stop);
    const { secret } = await v2Setup(engine, rx.url());
    const w = worker(engine);
    ingestEvents(engine, [
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
    const rows = engine.db.prepare('SELECT status FROM deliveries').pluck().all();
    expect(rows).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('honours Retry-After on 429 and does not retry other 4xx', async () => {
    const engine = setup(':memory:', [10, 10, 10]);
    const times: number[] = [];
    const rx = await receiver((n, r) => {
      times.push(Date.now());
      if (JSON.parse(r.body).event_id === 'evt_2') return 400;
      return n === 1 ? [429, { 'retry-after': '1' }] : 200;
    });
    cleanups.push(rx.stop);
    await v2Setup(engine, rx.url());
    const w = worker(engine, { concurrency: 1 });
    ingestEvents(engine, [event(1)]);
    await until(() => rx.received.length === 2, 4000);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
    ingestEvents(engine, [event(2)]);
    await w.idle();
    await new Promise((r) => setTimeout(r, 100));
    expect(rx.received).toHaveLength(3);
    expect(
      engine.db.prepare("SELECT status, last_status FROM deliveries WHERE event_id = 'evt_2'").get(),
    ).toEqual({
      status: 'failed',
      last_status: 400,
    });
  });

  it('disables the webhook when the schedule runs out; re-enabling delivers everything', async () => {
    const engine = setup(':memory:', [20, 20]);
    let up = false;
    const rx = await receiver(() => (up ? 200 : 500));
    cleanups.push(rx.stop);
    const { key, webhookId } = await v2Setup(engine, rx.url());
    const w = worker(engine);
    ingestEvents(engine, [event(1)]);
    await until(() => rx.received.length === 3);
    await w.idle();
    const hook = await call(engine, key, 'GET', `/v2/webhooks/${webhookId}`);
    expect(hook.body).toMatchObject({ status: 'disabled', disabled_reason: 'delivery_failures' });
    ingestEvents(engine, [event(2)]); // waits while the webhook is disabled
    await w.idle();
    expect(rx.received).toHaveLength(3);
    up = true;
    expect((await call(engine, key, 'PATCH', `/v2/webhooks/${webhookId}`, { status: 'active' })).status).toBe(
      200,
    );
    await until(() => rx.received.length === 5);
    await w.idle();
    expect(new Set(rx.received.slice(3).map((r) => JSON.parse(r.body).event_id))).toEqual(
      new Set(['evt_1', 'evt_2']),
    );
  });

  it('signs with both secrets during a rotation grace period, only the new one after it', async () => {
    let now = Date.now();
    const engine = openEngine({
      rateLimit: false,
      clock: () => now,
      webhooks: { allowPrivateTargets: true, retrySchedule: [50], worker: false },
    });
    cleanups.push(() => engine.close());
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
    ingestEvents(engine, [event(1)]);
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
    ingestEvents(engine, [event(2)]);
    await w.idle();
    const late = rx.received[1]!;
    verifyBoth(newSecret, late);
    expect(() => new Webhook(oldSecret).verify(late.body, late.headers as Record<string, string>)).toThrow();
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
    const file = join(dir, 'engine.db');
    let hang = true;
    const rx = await receiver(() => (hang ? 0 : 200));
    cleanups.push(rx.stop);
    const first = setup(file);
    await v2Setup(first, rx.url());
    const w1 = startDeliveryWorker(first, { timeoutMs: 10_000 });
    ingestEvents(first, [event(1), event(2)]);
    await until(() => rx.received.length === 2); // both requests in flight, unanswered
    await w1.stop();
    first.close();

    hang = false;
    const second = setup(file);
    const w2 = worker(second);
    await until(() => rx.received.length === 4);
    await w2.idle();
    const ids = rx.received.map((r) => JSON.parse(r.body).event_id as string);
    expect(ids.slice(2).sort()).toEqual(['evt_1', 'evt_2']);
    const webhookIds = rx.received.map((r) => r.headers['webhook-id']);
    expect(new Set(webhookIds).size).toBe(2);
    expect(second.db.prepare('SELECT status FROM deliveries').pluck().all()).toEqual([
      'delivered',
      'delivered',
    ]);
  });
});
