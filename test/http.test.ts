/**
 * The node:http adapter over a real loopback socket: body limits, JSON errors, headers, and the
 * concurrency property — 4,000 interleaved charging requests from several clients against a balance
 * of 2,000 credits succeed exactly as far as the balance goes, and the final balance is exact.
 */
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createAccount } from '../src/account/accounts.js';
import type { Engine } from '../src/engine.js';
import { serve, type RunningServer } from '../src/serve/index.js';
import { demoEngine } from './support/demo.js';

let engine: Engine;
let server: RunningServer;
let ids: string[];

beforeAll(async () => {
  engine = await demoEngine({ rateLimit: false } as never);
  server = await serve(engine, { port: 0, maxBodyBytes: 64 * 1024 });
  ids = engine.db
    .prepare('SELECT business_id FROM businesses ORDER BY rowid LIMIT 50')
    .pluck()
    .all() as string[];
});
afterAll(async () => {
  await server.close();
  engine.close();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  agent: Agent,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTP server', () => {
  const agent = new Agent({ keepAlive: true });

  it('serves the facade: open routes, auth headers, JSON bodies', async () => {
    const health = await send(agent, 'GET', '/healthcheck/http');
    expect(health).toMatchObject({ status: 200, body: '"OK"' });
    const denied = await send(agent, 'GET', '/v1/credits', undefined, { API_KEY: 'wrong' });
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toBeDefined();
  });

  it('answers 422 for malformed JSON and invalid UTF-8, and 413 past the body limit', async () => {
    const { api_key } = await createAccount(engine, { name: 'Http' });
    const bad = await send(agent, 'POST', '/v1/businesses/match', '{"businesses_to_match": [', { api_key });
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body).detail[0].type).toBe('value_error.jsondecode');
    const utf = await send(agent, 'POST', '/v1/businesses/match', Buffer.from([0xc3, 0x28]), { api_key });
    expect(JSON.parse(utf.body).detail[0].type).toBe('value_error.jsondecode');
    const big = await send(new Agent(), 'POST', '/v1/businesses/match', 'x'.repeat(70 * 1024), { api_key });
    expect(big.status).toBe(413);
  });

  // 32 requests in flight at any time, both routes interleaved: every charge races 31 others, and a
  // lost or doubled charge anywhere shows in the exact counts, balance and ledger. 10,000 requests
  // (~1.5 ms of CPU each) made the same races 2.5 times over.
  it('charges exactly the affordable requests among 4,000 interleaved ones (balance 2,000)', async () => {
    const { api_key, account_id } = await createAccount(engine, { name: 'Race', credits: 2_000 });
    const before = (await engine.state.value<number>('SELECT count(*) FROM credit_ledger'))!;
    const clients = Array.from({ length: 4 }, () => new Agent({ keepAlive: true, maxSockets: 8 }));
    const total = 4_000;
    let next = 0;
    const statuses = new Map<number, number>();
    const worker = async (agent: Agent) => {
      while (next < total) {
        const i = next++;
        const body = JSON.stringify({
          mode: 'preview',
          page_size: 1,
          filters: { business_id: { values: [ids[i % ids.length]] } },
        });
        const r = await send(
          agent,
          'POST',
          i % 2 ? '/v1/businesses' : '/v2/businesses',
          i % 2 ? body : body.replace('}}}', '}},"next_cursor":null}'),
          { api_key },
        );
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    };
    await Promise.all(clients.flatMap((agent) => Array.from({ length: 8 }, () => worker(agent))));
    for (const c of clients) c.destroy();
    expect(Object.fromEntries(statuses)).toEqual({ 200: 2_000, 403: 2_000 });
    expect(await balance(engine, account_id)).toBe(0);
    expect((await engine.state.value<number>('SELECT count(*) FROM credit_ledger'))! - before).toBe(2_000);
  }, 60_000);
});
