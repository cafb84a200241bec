/**
 * Two nodes, one PostgreSQL: two engine processes, each serving its own copy of the snapshot file over
 * HTTP, share one state store (a fresh database on the run's throwaway server). Through the public HTTP
 * API only: credits stay exact when 4,000 charging requests race across the nodes; each enrolled event
 * is delivered once across the nodes; a job whose node is SIGKILLed mid-run finishes on the other with
 * every row once and credits exact.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openEngine, type Engine } from '../src/engine.js';
import { send } from './support/http-client.js';
import { businessId, prospectId, syntheticEngine } from './support/job-child.js';
import { freePort, freshDatabase } from './support/postgres.js';
import { startChild, type ServeChild } from './support/serve-child.js';

const NODE = fileURLToPath(new URL('./support/scaleout-node.mjs', import.meta.url));
const BUSINESSES = 300;
const PROSPECTS = 2_000;

let dir: string;
let snapshot: string;
let state: string;
/** An engine of the test's own over the shared state (accounts set up, balances read). */
let admin: Engine;
const nodes: ServeChild[] = [];

async function startNode(name: string, batchDelayMs = 0): Promise<ServeChild> {
  const copy = join(dir, `${name}.db`);
  copyFileSync(snapshot, copy);
  const port = await freePort();
  const config = { snapshot: copy, state, port, batchSize: 50, batchDelayMs };
  const node = await startChild([NODE, JSON.stringify(config)], port, /listening \d+/);
  nodes.push(node);
  return node;
}

const json = (r: { body: string }) => JSON.parse(r.body) as any;

describe('two nodes, one PostgreSQL', () => {
  let a: ServeChild;
  let b: ServeChild;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prospectdb-scaleout-'));
    snapshot = join(dir, 'snapshot.db');
    const built = await syntheticEngine(dir, { businesses: BUSINESSES, prospects: PROSPECTS }, snapshot);
    built.close();
    state = await freshDatabase(inject('postgresUrl'));
    admin = openEngine({ path: snapshot, state, jobs: { worker: false }, webhooks: { worker: false } });
    await admin.state.ready();
    [a, b] = await Promise.all([startNode('a', 40), startNode('b', 40)]);
  });

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop('SIGKILL')));
    admin?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Up to 128 requests in flight on the two nodes at once: every charge races others on both, and a
  // lost or doubled charge anywhere shows in the exact counts and balance. 10,000 requests (each a
  // PostgreSQL transaction in a child) made the same races 2.5 times over.
  it('4,000 concurrent one-credit requests split across the nodes against 2,000 credits: exactly 2,000 succeed', async () => {
    const { account_id, api_key } = await admin.accounts.create({ name: 'race', credits: 2_000 });
    const agents = [
      new Agent({ keepAlive: true, maxSockets: 64 }),
      new Agent({ keepAlive: true, maxSockets: 64 }),
    ];
    const body = { mode: 'full', page_size: 1, size: 1 };
    const replies = await Promise.all(
      Array.from({ length: 4_000 }, (_, i) =>
        send([a, b][i % 2]!.port, '/v1/businesses', {
          body,
          headers: { api_key },
          agent: agents[i % 2],
          timeoutMs: 50_000,
        }),
      ),
    );
    const statuses = new Map<number, number>();
    for (const r of replies) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 200: 2_000, 403: 2_000 });
    for (const r of replies.filter((x) => x.status === 403))
      expect(json(r).details).toMatch(/insufficient credits/);
    // Both nodes charged some of them.
    const okPids = new Set(replies.filter((r) => r.status === 200).map((r) => r.headers['x-prospectdb-pid']));
    expect(okPids.size).toBe(2);
    expect(await admin.accounts.balance(account_id)).toBe(0);
    for (const agent of agents) agent.destroy();
  });

  it('200 enrolled events: each delivered exactly once across the nodes', async () => {
    const received: string[] = [];
    const receiver: Server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        received.push(JSON.parse(text).event_id as string);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    try {
      const { api_key } = await admin.accounts.create({ name: 'hooks', credits: 1_000 });
      const hook = await send(a.port, '/v2/webhooks', { body: { url, name: 'main' }, headers: { api_key } });
      expect(hook.status, hook.body).toBe(201);
      const ids = Array.from({ length: 20 }, (_, i) => businessId(i));
      const enrol = await send(b.port, '/v2/businesses/events/enrollments', {
        body: {
          enrollment_key: 'watch',
          event_types: ['new_office'],
          business_ids: ids,
          webhook_id: json(hook).webhook_id,
        },
        headers: { api_key },
      });
      expect(enrol.status, enrol.body).toBe(201);
      // Events arrive the way an operator ingests them: a third process over the shared state.
      const events = Array.from({ length: 200 }, (_, i) => ({
        event_id: `evt_scaleout_${i}`,
        event_name: 'new_office',
        business_id: ids[i % ids.length],
        event_time: new Date().toISOString(),
        data: { office_location: `City ${i}` },
      }));
      await admin.ingestEvents(events);
      const deadline = Date.now() + 30_000;
      while (new Set(received).size < 200 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      // A little longer: a second delivery of any event would show up here.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(received.length).toBe(200);
      expect(new Set(received)).toEqual(new Set(events.map((e) => e.event_id)));
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });

  it('a job whose node is SIGKILLed mid-run completes on the other: every row once, credits exact', async () => {
    const { account_id, api_key } = await admin.accounts.create({
      name: 'jobs',
      credits: 1_000_000,
      entitlements: ['contacts'],
    });
    const before = await admin.accounts.balance(account_id);
    const ids = Array.from({ length: PROSPECTS }, (_, i) => prospectId(i));
    const boundary = '----prospectdb-scaleout';
    const upload = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="entity_type"\r\n\r\nprospect\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nlist\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nscale-out\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ids.csv"\r\nContent-Type: text/csv\r\n\r\nprospect_id\n${ids.join('\n')}\r\n` +
        `--${boundary}--\r\n`,
    );
    const list = await send(a.port, '/v2/async/entity-id-datasets/upload', {
      body: upload,
      headers: { api_key, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(list.status, list.body).toBeLessThan(300);
    const submitted = await send(a.port, '/v2/prospects/contact_information/job', {
      body: { list_id: json(list).list_id },
      headers: { api_key },
    });
    expect(submitted.status, submitted.body).toBe(202);
    const jobId = json(submitted).job_id as string;

    // Whichever node runs it is killed once it has committed a few batches.
    const running = new RegExp(`job ${jobId} cursor (\\d+)`);
    const owner = await Promise.race(
      [a, b].map((n) =>
        n.waitFor(new RegExp(`job ${jobId} cursor ([2-9]\\d\\d|1\\d{3})`), 30_000).then(() => n),
      ),
    );
    const survivor = owner === a ? b : a;
    await owner.stop('SIGKILL');
    expect(survivor.log()).not.toMatch(running);

    let status: any;
    const deadline = Date.now() + 45_000;
    do {
      await new Promise((r) => setTimeout(r, 200));
      status = json(await send(survivor.port, `/v2/jobs/status/${jobId}`, { headers: { api_key } }));
    } while (status.status !== 'succeeded' && status.status !== 'failed' && Date.now() < deadline);
    expect(status.status).toBe('succeeded');
    expect(survivor.log()).toMatch(running);

    const download = new URL(status.results.download_url as string, 'http://x');
    const csv = await send(survivor.port, download.pathname + download.search, { headers: { api_key } });
    expect(csv.status).toBe(200);
    const rows = csv.body
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]!.replace(/"/g, ''));
    expect(rows).toHaveLength(PROSPECTS);
    expect(new Set(rows)).toEqual(new Set(ids));
    const spent = before - (await admin.accounts.balance(account_id));
    expect(spent).toBe(status.credit_usage.total_credits);
    expect(spent).toBeGreaterThan(0);
  });
});
