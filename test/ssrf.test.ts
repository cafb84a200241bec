/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import { ingestEvents } from '../src/core/events.js';
import { openEngine, type Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { startDeliveryWorker } from '../src/webhooks/deliver.js';
import { checkUrl, guardedPost, isBlockedAddress, type Resolver } from '../src/webhooks/ssrf.js';

/** Counts TCP connections on 127.0.0.1 (and ::1 when the host has it): any would be a breach. */
let connections = 0;
let port = 0;
const servers: net.Server[] = [];

const NAMES: Record<string, string[]> = {
  'loopback.test.example': ['127.0.0.1'],
  'mixed.test.example': ['93.184.216.34', '127.0.0.1'],
  'v6.test.example': ['::1'],
  'meta.test.example': ['169.254.169.254'],
  'private.test.example': ['10.1.2.3'],
  'mapped.test.example': ['::ffff:127.0.0.1'],
};
let resolverCalls = 0;
const resolver: Resolver = async (host) => {
  resolverCalls++;
  const found = NAMES[host];
  if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: net.isIP(address) }));
};

beforeAll(async () => {
  const v4 = net.createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => v4.listen(0, '127.0.0.1', r));
  port = (v4.address() as AddressInfo).port;
  servers.push(v4);
  const v6 = net.createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => v6.once('error', () => r()).listen(port, '::1', r));
  servers.push(v6);
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

const attacks = () => [
  `https://127.0.0.1:${port}/`,
  `https://localhost:${port}/`,
  `https://LOCALHOST:${port}/`,
  `https://foo.localhost:${port}/`,
  `https://127.0.0.1.:${port}/`,
  `https://2130706433:${port}/`,
  `https://0x7f000001:${port}/`,
  `https://0x7f.0.0.1:${port}/`,
  `https://0177.0.0.1:${port}/`,
  `https://127.1:${port}/`,
  `https://127.0.1:${port}/`,
  `https://0:${port}/`,
  `https://0.0.0.0:${port}/`,
  `https://[::1]:${port}/`,
  `https://[::]:${port}/`,
  `https://[::ffff:127.0.0.1]:${port}/`,
  `https://[0:0:0:0:0:ffff:7f00:1]:${port}/`,
  `https://[64:ff9b::127.0.0.1]:${port}/`,
  `https://[2002:7f00:1::]:${port}/`,
  'https://10.0.0.1/',
  'https://0x0a000001/',
  'https://172.16.5.4/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://100.100.100.200/latest/meta-data/',
  'https://169.254.169.254/latest/meta-data/iam/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[fd00:ec2::254]/',
  'https://[fe80::1]/',
  'https://[fc00::1]/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://metadata/',
  'https://intranet/',
  `http://example.com:${port}/`,
  'https://user:pass@example.com/',
  'ftp://example.com/',
  `https://loopback.test.example:${port}/`,
  `https://mixed.test.example:${port}/`,
  `https://v6.test.example:${port}/`,
  `https://mapped.test.example:${port}/`,
  'https://meta.test.example/',
  'https://private.test.example/',
];

describe('SSRF guard (allowPrivateTargets off)', () => {
  it('refuses every attack URL and never opens a connection to a blocked address', async () => {
    const list = attacks();
    expect(list.length).toBeGreaterThanOrEqual(40);
    for (const url of list) {
      const outcome = await guardedPost(url, {
        headers: {},
        body: '{}',
        timeoutMs: 500,
        policy: { allowPrivateTargets: false },
        resolver,
      });
      expect(outcome.kind, url).toBe('blocked');
    }
    expect(connections).toBe(0);
  });

  it('classifies public addresses as allowed and embedded private ones as blocked', () => {
    for (const ip of [
      '8.8.8.8',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(false);
    }
    for (const ip of [
      '127.0.0.1',
      '::1',
      '::ffff:10.0.0.1',
      '2002:c0a8:0101::1',
      '::ffff:169.254.169.254',
      'not-an-ip',
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    expect(checkUrl('https://api.example.com/hook', { allowPrivateTargets: false }).ok).toBe(true);
    expect(checkUrl('http://127.0.0.1:1/', { allowPrivateTargets: true }).ok).toBe(true);
  });

  it('refuses, through the whole stack, a registered name that resolves to loopback', async () => {
    const engine = openEngine({
      rateLimit: false,
      webhooks: { allowPrivateTargets: false, resolver, retrySchedule: [10] },
    } as never);
    try {
      const a = await createAccount(engine, { name: 'x' });
      const call = (method: string, path: string, body?: unknown) =>
        handle(engine, { method, path, headers: { api_key: a.api_key }, body }) as Promise<{
          status: number;
          body: any;
        }>;
      const hook = await call('POST', '/v2/webhooks', { url: `https://loopback.test.example:${port}/hook` });
      expect(hook.status).toBe(201);
      const check = await call('POST', `/v2/webhooks/${hook.body.webhook_id}/check_connectivity`, {});
      expect(check.body).toMatchObject({ reachable: false, error: 'blocked_target', status_class: null });
      await call('POST', '/v2/businesses/events/enrollments', {
        enrollment_key: 'abcd',
        event_types: ['new_office'],
        business_ids: ['c'.repeat(32)],
        webhook_id: hook.body.webhook_id,
      });
      const worker = startDeliveryWorker(engine);
      await ingestEvents(engine, [
        {
          event_id: 'x1',
          event_name: 'new_office',
          business_id: 'c'.repeat(32),
          event_time: new Date().toISOString(),
        },
      ]);
      await worker.idle();
      await worker.stop();
      expect(engine.db.prepare('SELECT status, last_error FROM deliveries').get()).toEqual({
        status: 'failed',
        last_error: 'blocked_target: target address is not allowed',
      });
      expect(connections).toBe(0);
    } finally {
      engine.close();
    }
  });
});

describe('connecting to the checked address, never following redirects', () => {
  it('resolves once and connects to the address it checked', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const p = (server.address() as AddressInfo).port;
      resolverCalls = 0;
      const outcome = await guardedPost(`http://loopback.test.example:${p}/`, {
        headers: {},
        body: '{}',
        timeoutMs: 1000,
        policy: { allowPrivateTargets: true },
        resolver,
      });
      expect(outcome).toMatchObject({ kind: 'response', status: 200 });
      expect(resolverCalls).toBe(1);
      expect(hits).toBe(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('reports a redirect as an answer and never requests its target', async () => {
    let targetHits = 0;
    const target = http.createServer((_req, res) => {
      targetHits++;
      res.end();
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const tp = (target.address() as AddressInfo).port;
    const redirector = http.createServer((_req, res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${tp}/` }).end(),
    );
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const rp = (redirector.address() as AddressInfo).port;
    const engine: Engine = openEngine({ rateLimit: false, webhooks: { allowPrivateTargets: true } } as never);
    try {
      const a = await createAccount(engine, { name: 'r' });
      const hook = (await handle(engine, {
        method: 'POST',
        path: '/v2/webhooks',
        headers: { api_key: a.api_key },
        body: { url: `http://127.0.0.1:${rp}/` },
      })) as { body: any };
      const check = (await handle(engine, {
        method: 'POST',
        path: `/v2/webhooks/${hook.body.webhook_id}/check_connectivity`,
        headers: { api_key: a.api_key },
      })) as { body: any };
      expect(check.body).toMatchObject({
        reachable: false,
        status_class: '3xx',
        error: 'redirect_not_followed',
      });
      expect(targetHits).toBe(0);
    } finally {
      engine.close();
      await new Promise((r) => redirector.close(r));
      await new Promise((r) => target.close(r));
    }
  });
});
