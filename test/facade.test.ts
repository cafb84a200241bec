import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAccount, grantCredits, balance, revokeKey, listKeys } from '../src/account/accounts.js';
import type { openEngine } from '../src/engine.js';
import { type Engine } from '../src/engine.js';
import { allRoutes, buildRouter, handle } from '../src/facade/handle.js';
import type { FacadeRequest, Route } from '../src/facade/types.js';
import { openTestEngine, STATE_KINDS, type StateKind } from './support/state.js';
import { renderRouteTable, routeTable } from '../scripts/route-table-lib.js';
import { AREAS } from '../src/facade/routes/index.js';
import { ROUTE_TABLE } from '../src/facade/routes/table.generated.js';
import { SPEC_ROUTES } from '../src/facade/spec.js';

const NOW = Date.parse('2026-11-01T12:00:00Z');
const ROUTES = await allRoutes();

const opened: Engine[] = [];
afterEach(() => {
  for (const e of opened.splice(0)) e.close();
});

/** An engine on a fresh state store of `kind` with one trial account (partner `acme`). */
async function setup(options: Record<string, unknown> = {}, kind: StateKind = 'sqlite') {
  let n = 0;
  const engine = await openTestEngine(kind, {
    clock: () => NOW,
    // No background workers: their areas are not on the state port yet.
    jobs: { worker: false },
    webhooks: { worker: false },
    ...options,
    correlationId: () => `cid${++n}`,
  } as Parameters<typeof openEngine>[0]);
  opened.push(engine);
  const acct = await createAccount(engine, { name: 'Acme', partner_id: 'acme' });
  return { engine, ...acct };
}

const req = (engine: Engine, r: FacadeRequest) => handle(engine, r);

describe('operational routes', () => {
  it('answers healthcheck and version without a key, as bare JSON strings', async () => {
    const { engine } = await setup();
    expect(await req(engine, { method: 'GET', path: '/healthcheck/http' })).toMatchObject({
      status: 200,
      body: 'OK',
    });
    const v = await req(engine, { method: 'GET', path: '/version/' });
    expect(v).toMatchObject({ status: 200, body: '0.1.0' });
  });

  it('serves a payload of the requested size and refuses more than 1,000,000 bytes', async () => {
    const { engine, api_key } = await setup();
    const ok = await req(engine, {
      method: 'GET',
      path: '/healthcheck/http_payload/10',
      headers: { api_key },
    });
    expect(ok).toMatchObject({ status: 200, body: 'xxxxxxxxxx' });
    const big = await req(engine, {
      method: 'GET',
      path: '/healthcheck/http_payload/1000001',
      headers: { api_key },
    });
    expect(big.status).toBe(422);
    expect(big.body).toEqual({
      detail: [
        {
          loc: ['path', 'response_bytes'],
          msg: 'ensure this value is less than or equal to 1000000',
          type: 'value_error.number.not_le',
          ctx: { limit_value: 1000000 },
        },
      ],
    });
    const nan = await req(engine, {
      method: 'GET',
      path: '/healthcheck/http_payload/abc',
      headers: { api_key },
    });
    expect(nan.body).toEqual({
      detail: [
        { loc: ['path', 'response_bytes'], msg: 'value is not a valid integer', type: 'type_error.integer' },
      ],
    });
  });
});

describe('routing', () => {
  it('answers 404 with a body for paths outside the spec', async () => {
    const { engine } = await setup();
    const r = await req(engine, { method: 'GET', path: '/v1/nope' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ details: 'Not found: /v1/nope', correlation_id: 'cid1' });
  });

  it('answers 501 with the documented error body for spec routes without a handler', async () => {
    const { engine } = await setup();
    const router = buildRouter(ROUTES.filter((r) => !r.path.includes('webhooks')));
    const r = await handle(engine, { method: 'POST', path: '/v2/webhooks/abc/rotate_secret' }, router);
    expect(r.status).toBe(501);
    expect(r.body).toEqual({
      details: 'POST /v2/webhooks/{webhook_id}/rotate_secret is not implemented yet',
      correlation_id: 'cid1',
    });
  });

  it('answers 405 with Allow for a known path and the wrong method', async () => {
    const { engine } = await setup();
    const r = await req(engine, { method: 'DELETE', path: '/v1/credits' });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET');
  });
});

describe('the route table', () => {
  it('holds every route of every area, in their order (node --import tsx scripts/route-table.ts)', async () => {
    const rows = await routeTable(AREAS);
    expect(ROUTE_TABLE).toEqual(rows);
    expect(rows.map(([, method, path]) => ({ method, path }))).toEqual(
      ROUTES.map(({ method, path }) => ({ method, path })),
    );
    expect(renderRouteTable(rows)).toBe(
      readFileSync(new URL('../src/facade/routes/table.generated.ts', import.meta.url), 'utf8'),
    );
  });

  it('answers every method of every spec path as a router over every area does', async () => {
    const { engine } = await setup();
    const eager = buildRouter(ROUTES);
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const paths = SPEC_ROUTES.flatMap(([, p]) => [p.replace(/\{[^}]+\}/g, 'x1'), `${p}/extra`]);
    const answer = (r: Awaited<ReturnType<typeof handle>>) => ({
      status: r.status,
      allow: r.headers.allow,
      body: { ...(r.body as object), correlation_id: undefined },
    });
    let compared = 0;
    for (const path of new Set(paths)) {
      for (const method of methods) {
        // No key: routed requests answer 401 unless their route is open (then 200, 422, 404 or 501).
        const lazy = await handle(engine, { method, path });
        expect(answer(lazy), `${method} ${path}`).toEqual(
          answer(await handle(engine, { method, path }, eager)),
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(700);
  });
});

describe.each(STATE_KINDS)('authentication (%s state)', (kind) => {
  it('answers 401 with WWW-Authenticate for a missing, malformed, unknown or revoked key', async () => {
    const { engine, account_id } = await setup({}, kind);
    const extra = await (await import('../src/account/accounts.js')).issueKey(engine, account_id);
    const cases: (string | undefined)[] = [undefined, 'nope', 'pdb_00000000_' + 'a'.repeat(43), extra];
    expect(await revokeKey(engine, extra.slice(0, 12))).toBe(true);
    expect((await listKeys(engine, account_id)).filter((k) => k.revoked_at !== null)).toHaveLength(1);
    for (const key of cases) {
      const r = await req(engine, {
        method: 'GET',
        path: '/v1/credits',
        headers: key ? { API_KEY: key } : {},
      });
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/api_key/);
      expect(Object.keys(r.body as object)).toEqual(['details', 'correlation_id']);
    }
  });

  it('accepts the header in any case and stores only a hash', async () => {
    const { engine, api_key } = await setup({}, kind);
    const r = await req(engine, { method: 'GET', path: '/v1/credits', headers: { Api_Key: api_key } });
    expect(r.status).toBe(200);
    const rows = await engine.state.all('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(api_key.slice(13));
  });

  it('answers 403 for another partner’s menu', async () => {
    const { engine, api_key } = await setup({}, kind);
    const r = await req(engine, { method: 'GET', path: '/v1/credits/menu/other', headers: { api_key } });
    expect(r.status).toBe(403);
  });
});

describe.each(STATE_KINDS)('credits (%s state)', (kind) => {
  it('reports a new trial account with 100 credits', async () => {
    const { engine, api_key } = await setup({}, kind);
    const r = await req(engine, { method: 'GET', path: '/v1/credits', headers: { api_key } });
    expect(r.body).toEqual({
      response_context: {
        correlation_id: 'cid1',
        request_status: 'success',
        time_took_in_seconds: expect.any(Number),
      },
      allocated_credits: 100,
      remaining_credits: 100,
      account_type: 'trial',
    });
    const v2 = await req(engine, { method: 'GET', path: '/v2/credits', headers: { api_key } });
    expect((v2.body as { response_context: object }).response_context).toHaveProperty(
      'time_taken_in_seconds',
    );
  });

  it('serves the charging menu of the caller’s partner', async () => {
    const { engine, api_key } = await setup({}, kind);
    const r = await req(engine, { method: 'GET', path: '/v1/credits/menu/acme', headers: { api_key } });
    expect(r.body).toMatchObject({
      partner_id: 'acme',
      charging_menu: {
        fetch: { credit_cost: 1 },
        contact_information_phone: { credit_cost: 5 },
        stats: { credit_cost: 0 },
      },
    });
  });

  const charging: Route = {
    method: 'POST',
    path: '/v1/test/charge',
    body: z.strictObject({ units: z.int().min(0), fail: z.boolean().optional() }),
    handler(ctx) {
      const { units, fail } = ctx.body as { units: number; fail?: boolean };
      ctx.charge('fetch', units);
      if (fail) throw new Error('boom');
      return { body: { units }, miss: units === 0 };
    },
  };
  const router = buildRouter([...ROUTES, charging]);
  const charge = (engine: Engine, api_key: string, body: unknown, headers: Record<string, string> = {}) =>
    handle(
      engine,
      { method: 'POST', path: '/v1/test/charge', headers: { api_key, ...headers }, body },
      router,
    );

  it('debits units × menu cost, refuses what the balance does not cover, and charges nothing then', async () => {
    const { engine, api_key, account_id } = await setup({}, kind);
    expect((await charge(engine, api_key, { units: 60 })).status).toBe(200);
    expect(await balance(engine, account_id)).toBe(40);
    const r = await charge(engine, api_key, { units: 41 });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      details: 'You have insufficient credits to perform this operation. Please purchase additional credits.',
      correlation_id: 'cid2',
    });
    expect(await balance(engine, account_id)).toBe(40);
    expect((await charge(engine, api_key, { units: 40 })).status).toBe(200);
    expect(await balance(engine, account_id)).toBe(0);
    await grantCredits(engine, account_id, 5);
    expect(await balance(engine, account_id)).toBe(5);
  });

  it('does not charge errors, empty results or rejected requests', async () => {
    const { engine, api_key, account_id } = await setup({}, kind);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect((await charge(engine, api_key, { units: 3, fail: true })).status).toBe(500);
      // The failure is logged (captured here), with its correlation id and the error.
      expect(logged).toHaveBeenCalledOnce();
      expect(logged.mock.calls[0]![0]).toMatch(/^prospectdb: internal error \[.+\]$/);
      expect((logged.mock.calls[0]![1] as Error).message).toBe('boom');
    } finally {
      logged.mockRestore();
    }
    const empty = await charge(engine, api_key, { units: 0 });
    expect(
      (empty.body as { response_context: { request_status: string } }).response_context.request_status,
    ).toBe('miss');
    expect((await charge(engine, api_key, { units: -1 })).status).toBe(422);
    expect(await balance(engine, account_id)).toBe(100);
  });

  it('adds credit_usage when the request opts in', async () => {
    const { engine, api_key } = await setup({}, kind);
    const r = await charge(engine, api_key, { units: 7 }, { 'Credit-Usage': 'TRUE' });
    expect((r.body as { credit_usage: unknown }).credit_usage).toEqual({
      total_credits: 7,
      total_results: 7,
    });
  });

  it('aggregates charges by day in the requested time zone', async () => {
    const { engine, api_key } = await setup({}, kind);
    await charge(engine, api_key, { units: 7 });
    const r = await req(engine, {
      method: 'POST',
      path: '/v1/credits/aggregation',
      headers: { api_key },
      body: {
        from_date: '2026-10-30',
        to_date: '2026-11-01',
        mode: 'timely',
        resolution: 'day',
        timezone: 'America/New_York',
      },
    });
    expect(r.status).toBe(200);
    const body = r.body as { total_credits: number; aggregations: unknown[] };
    expect(body.total_credits).toBe(7);
    expect(body.aggregations).toEqual([
      {
        timestamp: '2026-10-30T00:00:00-04:00',
        date: '2026-10-30',
        day_name: 'Friday',
        day_of_week: 5,
        credits: 0,
      },
      {
        timestamp: '2026-10-31T00:00:00-04:00',
        date: '2026-10-31',
        day_name: 'Saturday',
        day_of_week: 6,
        credits: 0,
      },
      {
        timestamp: '2026-11-01T00:00:00-04:00',
        date: '2026-11-01',
        day_name: 'Sunday',
        day_of_week: 0,
        credits: 7,
      },
    ]);
    const endpoints = await req(engine, {
      method: 'POST',
      path: '/v2/credits/aggregation',
      headers: { api_key },
      body: { from_date: '2026-10-30T00:00:00Z', to_date: '2026-11-02T00:00:00Z', mode: 'endpoints' },
    });
    expect((endpoints.body as { aggregations: unknown }).aggregations).toEqual([
      { endpoint: '/v1/test/charge', credits: 7, results: 7 },
    ]);
  });

  it('refuses aggregation ranges beyond the resolution limits', async () => {
    const { engine, api_key } = await setup({}, kind);
    const r = await req(engine, {
      method: 'POST',
      path: '/v1/credits/aggregation',
      headers: { api_key },
      body: { from_date: '2026-10-01', to_date: '2026-10-20', mode: 'timely', resolution: 'hour' },
    });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      detail: [
        {
          loc: ['body', '__root__'],
          msg: 'the range of a hour aggregation is at most 7 days',
          type: 'value_error.date_range',
          ctx: { limit_value: '7 days' },
        },
      ],
    });
  });
});

describe('validation', () => {
  const post = (engine: Engine, api_key: string, body: unknown, headers: Record<string, string> = {}) =>
    req(engine, { method: 'POST', path: '/v1/credits/aggregation', headers: { api_key, ...headers }, body });

  it('reports missing fields, enums and extra fields the pydantic way', async () => {
    const { engine, api_key } = await setup();
    const r = await post(engine, api_key, { mode: 'weekly', extra: 1 });
    expect(r.body).toEqual({
      detail: [
        { loc: ['body', 'from_date'], msg: 'field required', type: 'value_error.missing' },
        { loc: ['body', 'to_date'], msg: 'field required', type: 'value_error.missing' },
        {
          loc: ['body', 'mode'],
          msg: "value is not a valid enumeration member; permitted: 'timely', 'endpoints'",
          type: 'type_error.enumeration',
          ctx: { enum_values: ['timely', 'endpoints'] },
        },
        { loc: ['body', 'extra'], msg: 'extra fields not permitted', type: 'value_error.extra' },
      ],
    });
  });

  it('reports malformed JSON, wrong content types, missing bodies and invalid UTF-8', async () => {
    const { engine, api_key } = await setup();
    expect((await post(engine, api_key, '{"mode": ')).body).toEqual({
      detail: [
        {
          loc: ['body', 9],
          msg: 'Invalid JSON: line 1 column 10 (char 9)',
          type: 'value_error.jsondecode',
          ctx: { msg: 'Invalid JSON', pos: 9, lineno: 1, colno: 10 },
        },
      ],
    });
    expect((await post(engine, api_key, '{}', { 'content-type': 'text/plain' })).body).toEqual({
      detail: [{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }],
    });
    expect((await post(engine, api_key, undefined)).body).toEqual({
      detail: [{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }],
    });
    const bad = await post(engine, api_key, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    expect((bad.body as { detail: { type: string }[] }).detail[0]!.type).toBe('value_error.jsondecode');
    const deep = await post(engine, api_key, '['.repeat(10_000) + ']'.repeat(10_000));
    expect(deep.status).toBe(422);
  });
});

describe.each(STATE_KINDS)('rate limiting (%s state)', (kind) => {
  it('answers 429 with Retry-After and X-RateLimit headers past the per-minute limit', async () => {
    const { engine, api_key } = await setup({ rateLimit: { perMinute: 3 } }, kind);
    for (let i = 0; i < 3; i++) {
      const ok = await req(engine, { method: 'GET', path: '/v1/credits', headers: { api_key } });
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(2 - i));
    }
    const r = await req(engine, { method: 'GET', path: '/v1/credits', headers: { api_key } });
    expect(r.status).toBe(429);
    expect(r.headers).toMatchObject({
      'retry-after': '60',
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NOW / 1000 + 60),
    });
    expect(r.body).toEqual({
      error: 'rate_limit_exceeded',
      message: 'API rate limit exceeded. Please retry after 60 seconds.',
      retry_after: 60,
      correlation_id: 'cid4',
    });
  });
});
