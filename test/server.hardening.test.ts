/**
 * Server hardening against hostile clients: security headers on every answer, no stack trace in any
 * error body, CORS absent unless configured, a per-address limit on failed authentications (429, then
 * recovery), constant-time key checks that still accept valid keys, and a per-address connection cap.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import { generateKey, hashKey, keyMatches, sameSecret } from '../src/account/keys.js';
import { openEngine, type Engine } from '../src/engine.js';
import { serve, type RunningServer } from '../src/serve/index.js';
import { send, type Reply } from './support/http-client.js';

let now = Date.parse('2026-11-01T12:00:00Z');
let engine: Engine;
let server: RunningServer;
let apiKey: string;

beforeAll(async () => {
  engine = openEngine({ clock: () => now, rateLimit: false, authFailureLimit: { perMinute: 5 } });
  apiKey = (await createAccount(engine, { name: 'Hardening', credits: 1_000 })).api_key;
  server = await serve(engine, { port: 0, mcp: false });
});
afterAll(async () => {
  await server.close();
  engine.close();
});

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

/** No stack frames, file paths or error class names in an answer. */
function expectNoStack(r: Reply): void {
  expect(r.body).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+|node:internal|Error:|TypeError|SqliteError/);
}

describe('security headers and error bodies', () => {
  it('puts the security headers on every answer and never a stack trace in an error body', async () => {
    const replies = await Promise.all([
      send(server.port, '/healthcheck/http'),
      send(server.port, '/v1/credits', { headers: { api_key: apiKey } }),
      send(server.port, '/v1/credits', { headers: { api_key: 'nope' } }),
      send(server.port, '/v1/nothing-here'),
      send(server.port, '/v1/credits', { method: 'DELETE', headers: { api_key: apiKey } }),
      send(server.port, '/v1/businesses/match', {
        body: '{"businesses_to_match": [',
        headers: { api_key: apiKey },
      }),
      send(server.port, '/v1/businesses/match', {
        body: { businesses_to_match: 'x' },
        headers: { api_key: apiKey },
      }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 401, 404, 405, 422, 422]);
    for (const r of replies) {
      expect(r.headers).toMatchObject(SECURITY);
      expect(r.headers['x-powered-by']).toBeUndefined();
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
      expectNoStack(r);
    }
  });

  it('answers an internal failure 500 with the generic body only', async () => {
    const broken = openEngine({ rateLimit: false });
    const key = (await createAccount(broken, { name: 'Broken' })).api_key;
    broken.db.exec('DROP TABLE credit_ledger');
    const s = await serve(broken, { port: 0, mcp: false, warm: false });
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const r = await send(s.port, '/v1/credits', { headers: { api_key: key } });
      expect(r.status).toBe(500);
      expect(r.headers).toMatchObject(SECURITY);
      const body = JSON.parse(r.body) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['correlation_id', 'details']);
      expect(body.details).toBe('An internal server error occurred');
      expectNoStack(r);
    } finally {
      quiet.mockRestore();
      await s.close();
      broken.close();
    }
  });

  it('answers a header block past the limit without leaking anything', async () => {
    const r = await send(server.port, '/v1/credits', {
      headers: { api_key: apiKey, 'x-big': 'y'.repeat(20_000) },
    });
    expect(r.status).toBe(431);
    expectNoStack(r);
  });
});

describe('CORS', () => {
  it('sends no CORS header and answers no preflight by default', async () => {
    const origin = 'https://app.example.com';
    const r = await send(server.port, '/v1/credits', { headers: { api_key: apiKey, origin } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const pre = await send(server.port, '/v1/credits', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(405);
    expect(Object.keys(pre.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('allows exactly the configured origins', async () => {
    const s = await serve(engine, {
      port: 0,
      mcp: false,
      warm: false,
      cors: { origins: ['https://app.example.com'] },
    });
    try {
      const ok = await send(s.port, '/v1/credits', {
        headers: { api_key: apiKey, origin: 'https://app.example.com' },
      });
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(ok.headers.vary).toBe('Origin');
      expect(ok.headers['access-control-expose-headers']).toContain('x-correlation-id');
      const pre = await send(s.port, '/v1/businesses/match', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'api_key, content-type',
        },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-methods']).toContain('POST');
      expect(pre.headers['access-control-allow-headers']).toContain('api_key');
      expect(pre.headers).toMatchObject(SECURITY);
      const other = await send(s.port, '/v1/credits', {
        headers: { api_key: apiKey, origin: 'https://evil.example' },
      });
      expect(other.status).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const otherPre = await send(s.port, '/v1/credits', {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(otherPre.status).toBe(405);
      expect(otherPre.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});

describe('failed authentications per address', () => {
  it('answers 429 with Retry-After past the limit, for any key, then recovers; other addresses are unaffected', async () => {
    const wrong = `${apiKey.slice(0, -1)}${apiKey.endsWith('A') ? 'B' : 'A'}`;
    const from = '127.0.0.3';
    for (let i = 0; i < 5; i++) {
      const r = await send(server.port, '/v1/credits', {
        headers: { api_key: i % 2 ? wrong : 'garbage' },
        localAddress: from,
      });
      expect(r.status).toBe(401);
    }
    const blocked = await send(server.port, '/v1/credits', {
      headers: { api_key: apiKey },
      localAddress: from,
    });
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBe('60');
    expect(JSON.parse(blocked.body)).toEqual({
      error: 'rate_limit_exceeded',
      message: 'Too many failed authentications. Please retry after 60 seconds.',
      retry_after: 60,
      correlation_id: blocked.headers['x-correlation-id'],
    });
    // The open routes stay open; another address is not blocked.
    expect((await send(server.port, '/healthcheck/http', { localAddress: from })).status).toBe(200);
    expect(
      (await send(server.port, '/v1/credits', { headers: { api_key: apiKey }, localAddress: '127.0.0.4' }))
        .status,
    ).toBe(200);

    now += 30_000;
    const later = await send(server.port, '/v1/credits', {
      headers: { api_key: apiKey },
      localAddress: from,
    });
    expect(later.status).toBe(429);
    expect(later.headers['retry-after']).toBe('30');
    now += 30_001;
    const recovered = await send(server.port, '/v1/credits', {
      headers: { api_key: apiKey },
      localAddress: from,
    });
    expect(recovered.status).toBe(200);
  });

  it('does not limit in-process callers (no client address)', async () => {
    for (let i = 0; i < 8; i++) {
      const r = await engine.handle({ method: 'GET', path: '/v1/credits', headers: { api_key: 'garbage' } });
      expect(r.status).toBe(401);
    }
    const ok = await engine.handle({ method: 'GET', path: '/v1/credits', headers: { api_key: apiKey } });
    expect(ok.status).toBe(200);
  });
});

describe('constant-time key comparison', () => {
  it('accepts the key and refuses every other, whatever differs', () => {
    const { key, hash } = generateKey();
    expect(keyMatches(key, hash)).toBe(true);
    const flipped = key.slice(0, -1) + (key.endsWith('x') ? 'y' : 'x');
    expect(keyMatches(flipped, hash)).toBe(false);
    expect(keyMatches(`${key}x`, hash)).toBe(false);
    expect(keyMatches('', hash)).toBe(false);
    expect(keyMatches(key, hashKey(flipped))).toBe(false);
    expect(keyMatches(key, Buffer.alloc(0))).toBe(false);
    expect(sameSecret('a1b2c3', 'a1b2c3')).toBe(true);
    for (const other of ['a1b2c4', 'a1b2c', 'a1b2c3 ', '', 'A1B2C3'])
      expect(sameSecret(other, 'a1b2c3')).toBe(false);
  });

  it('authenticates valid keys and refuses a wrong secret, an unknown prefix and a revoked key over HTTP', async () => {
    const { api_key, account_id } = await createAccount(engine, { name: 'Keys' });
    const prefix = api_key.slice(0, 12);
    const secret = api_key.slice(13);
    const wrongSecret = `${prefix}_${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const unknownPrefix = `pdb_ffffffff_${secret}`;
    const at = '127.0.0.5';
    expect((await send(server.port, '/v1/credits', { headers: { api_key }, localAddress: at })).status).toBe(
      200,
    );
    expect(
      (await send(server.port, '/v1/credits', { headers: { api_key: wrongSecret }, localAddress: at }))
        .status,
    ).toBe(401);
    expect(
      (await send(server.port, '/v1/credits', { headers: { api_key: unknownPrefix }, localAddress: at }))
        .status,
    ).toBe(401);
    await engine.accounts.revokeKey(prefix);
    expect((await send(server.port, '/v1/credits', { headers: { api_key }, localAddress: at })).status).toBe(
      401,
    );
    expect(await engine.accounts.get(account_id)).toBeDefined();
  });
});

describe('connections per address', () => {
  it('closes connections past the per-address cap and accepts again once some close', async () => {
    const s = await serve(engine, { port: 0, mcp: false, warm: false, maxConnectionsPerAddress: 3 });
    const sockets: Socket[] = [];
    const open = (): Promise<{ socket: Socket; closedEarly: boolean }> =>
      new Promise((resolve) => {
        const socket = connect(s.port, '127.0.0.1');
        sockets.push(socket);
        socket.on('error', () => {});
        let settled = false;
        socket.once('close', () => !settled && ((settled = true), resolve({ socket, closedEarly: true })));
        socket.once('connect', () =>
          setTimeout(() => !settled && ((settled = true), resolve({ socket, closedEarly: false })), 150),
        );
      });
    try {
      const first = await Promise.all([open(), open(), open()]);
      expect(first.map((c) => c.closedEarly)).toEqual([false, false, false]);
      expect((await open()).closedEarly).toBe(true);
      first[0]!.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const r = await send(s.port, '/healthcheck/http', { agent: false });
      expect(r.status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
      await s.close();
    }
  });
});
