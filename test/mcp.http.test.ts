import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueKey, revokeKey, listKeys } from '../src/account/accounts.js';
import { openEngine, type Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { mcpHttpHandler } from '../src/mcp/http.js';
import { run as runServe } from '../src/cli/commands/serve.js';
import { serve, type RunningServer as HttpServer } from '../src/serve/index.js';
import { mcpFixture, type McpFixture } from './support/mcp-engine.js';
import { STATE_KINDS, stateFor, type StateKind } from './support/state.js';
import {
  approve,
  proxyFetch,
  startMcpServer,
  TestOAuthClient,
  type RunningServer,
} from './support/mcp-http.js';

type Json = Record<string, unknown>;
let f: McpFixture;
let srv: RunningServer;
/** The state store's spec (a PostgreSQL URL with its password), for a second engine on the same state. */
let stateSpec: string | undefined;

const KINDS: readonly StateKind[] = STATE_KINDS;

const METADATA = (origin = srv.origin) => `${origin}/.well-known/oauth-protected-resource/mcp`;
/** RFC 6750 §3.1: a request with no credentials gets no error code. */
const NO_TOKEN_CHALLENGE = (origin = srv.origin) =>
  `Bearer realm="prospectdb", resource_metadata="${METADATA(origin)}"`;
const INVALID = 'The access token is invalid, expired or revoked';
const OTHER_AUDIENCE = 'The access token was issued for another resource';
const INVALID_TOKEN_CHALLENGE = (description = INVALID, origin = srv.origin) =>
  `Bearer realm="prospectdb", error="invalid_token", error_description="${description}", resource_metadata="${METADATA(origin)}"`;
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const postAuth = (authorization: string | undefined, url = srv.mcpUrl, fetchFn: typeof fetch = fetch) =>
  fetchFn(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify(INITIALIZE),
  });
const post = (token?: string) => postAuth(token === undefined ? undefined : `Bearer ${token}`);
async function expectChallenge(res: Response, description = INVALID, origin = srv.origin) {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe(INVALID_TOKEN_CHALLENGE(description, origin));
  expect(await res.json()).toEqual({ error: 'invalid_token', error_description: description });
}

/** Runs the SDK client's whole flow: 401 → discovery → registration → sign-in form → code → tokens. */
async function connect(apiKey: string) {
  const oauth = new TestOAuthClient(apiKey);
  const first = new StreamableHTTPClientTransport(srv.mcpUrl, { authProvider: oauth });
  await expect(new Client({ name: 'agent', version: '1' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  expect(oauth.code).toBeTypeOf('string');
  await first.finishAuth(oauth.code!);
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(srv.mcpUrl, { authProvider: oauth }));
  return { client, oauth };
}

const token = async (oauth: TestOAuthClient, body: Record<string, string>) => {
  const res = await fetch(`${srv.origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: (oauth.info as { client_id: string }).client_id,
      ...body,
    }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

describe.each(KINDS)('tool server over HTTP (%s state)', (kind) => {
  beforeAll(async () => {
    stateSpec = await stateFor(kind);
    f = await mcpFixture(undefined, stateSpec);
    srv = await startMcpServer(f.engine);
  });
  afterAll(async () => {
    await srv.close();
    f.engine.close();
  });

  describe('discovery', () => {
    it('answers a request without credentials with a bare challenge (RFC 6750 §3.1: no error code)', async () => {
      for (const authorization of [undefined, 'Basic dXNlcjpwYXNz']) {
        const res = await postAuth(authorization);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(NO_TOKEN_CHALLENGE());
        expect(await res.json()).toEqual({
          detail: 'This resource needs an OAuth 2.0 access token (see the WWW-Authenticate header)',
        });
      }
    });

    it('answers a bad token, and an empty or malformed Bearer header, with a 401 invalid_token challenge', async () => {
      await expectChallenge(await post('not-a-jwt'));
      await expectChallenge(await post('eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl'));
      for (const authorization of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer <token>']) {
        const res = await postAuth(authorization);
        expect(res.status).toBe(401);
        const description = 'Malformed Authorization header: expected Bearer and one token';
        expect(res.headers.get('www-authenticate')).toBe(
          `Bearer realm="prospectdb", error="invalid_token", error_description="${description}", resource_metadata="${METADATA()}"`,
        );
        expect(await res.json()).toEqual({ error: 'invalid_token', error_description: description });
      }
    });

    it('serves protected-resource (RFC 9728) and authorization-server (RFC 8414) metadata', async () => {
      const resource = (await (
        await fetch(`${srv.origin}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as Json;
      expect(resource).toMatchObject({ resource: `${srv.origin}/mcp`, authorization_servers: [srv.origin] });
      const as = (await (await fetch(`${srv.origin}/.well-known/oauth-authorization-server`)).json()) as Json;
      expect(as).toMatchObject({
        issuer: srv.origin,
        authorization_endpoint: `${srv.origin}/oauth/authorize`,
        token_endpoint: `${srv.origin}/oauth/token`,
        registration_endpoint: `${srv.origin}/oauth/register`,
        revocation_endpoint: `${srv.origin}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      });
      expect(await srv.handler(...fakeReqRes('/v1/credits'))).toBe(false);
    });
  });

  /** A request/response pair the handler should decline without touching. */
  function fakeReqRes(url: string) {
    return [{ url, method: 'GET', headers: {} }, {}] as unknown as Parameters<RunningServer['handler']>;
  }

  describe('authorization code flow with PKCE', () => {
    it('connects the SDK client after a human approves with an API key, and serves the tools', async () => {
      const { client, oauth } = await connect(f.apiKey);
      expect(oauth.authorizationUrl!.pathname).toBe('/oauth/authorize');
      expect(oauth.saved).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'prospectdb' });
      const tools = await client.listTools();
      expect(tools.tools).toHaveLength(14);

      const credits = await client.callTool({ name: 'credits_balance', arguments: {} });
      const restCredits = await handle(f.engine, {
        method: 'GET',
        path: '/v2/credits',
        headers: { api_key: f.apiKey },
      });
      expect(credits.structuredContent).toMatchObject({
        remaining_credits: (restCredits.body as Json).remaining_credits,
      });

      const args = { mode: 'preview', page_size: 2, page: 1, filters: { has_website: { value: true } } };
      const fetched = await client.callTool({ name: 'fetch_businesses', arguments: args });
      const restFetched = await handle(f.engine, {
        method: 'POST',
        path: '/v1/businesses',
        headers: { api_key: f.apiKey },
        body: args,
      });
      expect((fetched.structuredContent as Json).data).toEqual((restFetched.body as Json).data);

      const bad = await client.callTool({
        name: 'fetch_prospects',
        arguments: { mode: 'full', page_size: 10, filters: { job_level: { values: ['wizard'] } } },
      });
      expect(bad.isError).toBe(true);
      expect((bad.structuredContent as { detail: Json[] }).detail[0]).toMatchObject({
        path: 'filters.job_level.values[0]',
      });
      await client.close();
    });

    it('refuses a wrong key on the sign-in page, and redirects a denial with access_denied', async () => {
      const oauth = new TestOAuthClient('pdb_00000000_' + 'x'.repeat(43));
      const transport = new StreamableHTTPClientTransport(srv.mcpUrl, { authProvider: oauth });
      await expect(new Client({ name: 'agent', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      expect(oauth.code).toBeUndefined();
      const wrong = await approve(oauth.authorizationUrl!, 'nope');
      expect(wrong.status).toBe(401);
      expect(wrong.html).toMatch(/not valid/);
      const denied = await approve(oauth.authorizationUrl!, f.apiKey, 'deny');
      expect(denied.status).toBe(302);
      expect(new URL(denied.location!).searchParams.get('error')).toBe('access_denied');
    });
  });

  describe('token lifetime and revocation', () => {
    it('redeems a code once when two requests race for it, and ends the grant like a replay', async () => {
      const oauth = new TestOAuthClient(f.apiKey);
      const transport = new StreamableHTTPClientTransport(srv.mcpUrl, { authProvider: oauth });
      await expect(new Client({ name: 'agent', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      const exchange = {
        grant_type: 'authorization_code',
        code: oauth.code!,
        code_verifier: oauth.verifier,
        redirect_uri: oauth.redirectUrl,
      };
      const results = await Promise.all([token(oauth, exchange), token(oauth, exchange)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
      await expectChallenge(await post(results.find((r) => r.status === 200)!.body.access_token as string));
    });

    it('answers an expired access token with the challenge; the refresh token rotates and works once', async () => {
      const { client, oauth } = await connect(f.apiKey);
      // Closed first: a live client would refresh on its own and race the test's use of the refresh token.
      await client.close();
      const access = oauth.saved!.access_token;
      const refresh = oauth.saved!.refresh_token!;
      f.advance(901_000);
      await expectChallenge(await post(access));

      const rotated = await token(oauth, { grant_type: 'refresh_token', refresh_token: refresh });
      expect(rotated.status).toBe(200);
      expect(rotated.body.refresh_token).not.toBe(refresh);
      expect((await post(rotated.body.access_token as string)).status).toBe(200);

      // Reusing the rotated refresh token ends the whole grant, the fresh access token included.
      const reused = await token(oauth, { grant_type: 'refresh_token', refresh_token: refresh });
      expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      await expectChallenge(await post(rotated.body.access_token as string));
    });

    it('ends access at once when the client disconnects through the revocation endpoint', async () => {
      const { client, oauth } = await connect(f.apiKey);
      const access = oauth.saved!.access_token;
      expect((await client.callTool({ name: 'credits_balance', arguments: {} })).isError).toBeUndefined();
      const revoke = await fetch(`${srv.origin}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: (oauth.info as { client_id: string }).client_id,
          token: oauth.saved!.refresh_token!,
        }).toString(),
      });
      expect(revoke.status).toBe(200);
      await expectChallenge(await post(access));
      await expect(client.callTool({ name: 'credits_balance', arguments: {} })).rejects.toThrow();
      expect(
        await token(oauth, { grant_type: 'refresh_token', refresh_token: oauth.saved!.refresh_token! }),
      ).toMatchObject({ status: 400 });
    });

    it('ends access at once when the approving API key is revoked', async () => {
      const key = await issueKey(f.engine, f.accountId, 'agent key');
      const { client, oauth } = await connect(key);
      expect((await client.callTool({ name: 'credits_balance', arguments: {} })).isError).toBeUndefined();
      const keyId = (await listKeys(f.engine, f.accountId)).find((k) => k.name === 'agent key')!.key_id;
      expect(await revokeKey(f.engine, keyId)).toBe(true);
      await expectChallenge(await post(oauth.saved!.access_token));
      expect(
        await token(oauth, { grant_type: 'refresh_token', refresh_token: oauth.saved!.refresh_token! }),
      ).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    });

    it('refuses a replayed authorization code and a wrong PKCE verifier', async () => {
      const oauth = new TestOAuthClient(f.apiKey);
      const transport = new StreamableHTTPClientTransport(srv.mcpUrl, { authProvider: oauth });
      await expect(new Client({ name: 'agent', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      const code = oauth.code!;
      const redirect_uri = oauth.redirectUrl;
      expect(
        await token(oauth, {
          grant_type: 'authorization_code',
          code,
          code_verifier: 'x'.repeat(43),
          redirect_uri,
        }),
      ).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      const ok = await token(oauth, {
        grant_type: 'authorization_code',
        code,
        code_verifier: oauth.verifier,
        redirect_uri,
      });
      expect(ok.status).toBe(200);
      const replay = await token(oauth, {
        grant_type: 'authorization_code',
        code,
        code_verifier: oauth.verifier,
        redirect_uri,
      });
      expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      await expectChallenge(await post(ok.body.access_token as string));
    });
  });

  /** A public client registered by hand, for requests the SDK client would never send. */
  async function register(redirect_uris: string[], origin = srv.origin, fetchFn: typeof fetch = fetch) {
    const res = await fetchFn(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Hand-made agent',
        redirect_uris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  /** An authorization URL with PKCE; `resource` omitted when undefined. */
  function authorizeUrl(client_id: string, redirect_uri: string, resource?: string, origin = srv.origin) {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL('/oauth/authorize', origin);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'st',
      ...(resource === undefined ? {} : { resource }),
    }).toString();
    return { url, verifier };
  }

  const tokenAt = async (origin: string, body: Record<string, string>, fetchFn: typeof fetch = fetch) => {
    const res = await fetchFn(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  describe('resource binding (RFC 8707)', () => {
    const REDIRECT = 'http://127.0.0.1:9/callback';
    const FOREIGN = 'https://other.example/mcp';

    it('refuses a foreign resource at authorize time with invalid_target, sent to the redirect URI', async () => {
      const client_id = await register([REDIRECT]);
      const { url } = authorizeUrl(client_id, REDIRECT, FOREIGN);
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_target');
      expect(location.searchParams.get('state')).toBe('st');
      // Same path on another origin, or another path here: foreign as well.
      for (const other of [`http://localhost:${srv.port}/mcp`, `${srv.origin}/other`]) {
        const r = await fetch(authorizeUrl(client_id, REDIRECT, other).url, { redirect: 'manual' });
        expect(new URL(r.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
      }
    });

    it('refuses a foreign resource at token time, and binds a grant made without one to this server', async () => {
      const client_id = await register([REDIRECT]);
      for (const resource of [undefined, `${srv.origin}/mcp/`]) {
        const { url, verifier } = authorizeUrl(client_id, REDIRECT, resource);
        const { location } = await approve(url, f.apiKey);
        const code = new URL(location!).searchParams.get('code')!;
        const exchange = { grant_type: 'authorization_code', client_id, code, code_verifier: verifier };
        const foreign = await tokenAt(srv.origin, {
          ...exchange,
          redirect_uri: REDIRECT,
          resource: FOREIGN,
        });
        expect(foreign.status).toBe(400);
        expect(foreign.body.error).toBe('invalid_target');
        const ok = await tokenAt(srv.origin, { ...exchange, redirect_uri: REDIRECT });
        expect(ok.status).toBe(200);
        const claims = JSON.parse(
          Buffer.from((ok.body.access_token as string).split('.')[1]!, 'base64url').toString(),
        ) as Json;
        expect(claims.aud).toBe(`${srv.origin}/mcp`);
        expect((await post(ok.body.access_token as string)).status).toBe(200);
        const refresh = {
          grant_type: 'refresh_token',
          client_id,
          refresh_token: ok.body.refresh_token as string,
        };
        expect(await tokenAt(srv.origin, { ...refresh, resource: FOREIGN })).toMatchObject({
          status: 400,
          body: { error: 'invalid_target' },
        });
        expect((await tokenAt(srv.origin, { ...refresh, resource: `${srv.origin}/mcp` })).status).toBe(200);
      }
    });

    it('refuses at /mcp a token minted for another audience (this server under another host name)', async () => {
      const { client, oauth } = await connect(f.apiKey);
      await client.close();
      const access = oauth.saved!.access_token;
      expect((await post(access)).status).toBe(200);
      // The same server and database reached as localhost: another origin, so another resource.
      const other = `http://localhost:${srv.port}`;
      const res = await postAuth(`Bearer ${access}`, new URL('/mcp', other), proxyFetch(srv.port, other));
      await expectChallenge(res, OTHER_AUDIENCE, other);
      // Nor can its refresh token be redeemed there.
      const refreshed = await tokenAt(
        other,
        {
          grant_type: 'refresh_token',
          client_id: (oauth.info as { client_id: string }).client_id,
          refresh_token: oauth.saved!.refresh_token!,
        },
        proxyFetch(srv.port, other),
      );
      expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    });

    it('answers 403 insufficient_scope for a token whose grant lacks the tool scope', async () => {
      const { client, oauth } = await connect(f.apiKey);
      await client.close();
      const access = oauth.saved!.access_token;
      const claims = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()) as {
        gid: string;
      };
      await f.engine.state.run('UPDATE oauth_grants SET scopes = ? WHERE grant_id = ?', [
        'profile',
        claims.gid,
      ]);
      const res = await post(access);
      expect(res.status).toBe(403);
      const description = 'The access token lacks the prospectdb scope';
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="prospectdb", error="insufficient_scope", error_description="${description}", scope="prospectdb", resource_metadata="${METADATA()}"`,
      );
      expect(await res.json()).toEqual({ error: 'insufficient_scope', error_description: description });
    });
  });

  describe('sign-in page', () => {
    it('names the host of the redirect URI of the pending request, not the first registered one', async () => {
      const client_id = await register(['https://first.example.test/cb', 'http://127.0.0.1:9/callback']);
      // Loopback redirect URIs may use any port (RFC 8252 §7.3): the code goes to 127.0.0.1:5555.
      const { url } = authorizeUrl(client_id, 'http://127.0.0.1:5555/callback');
      const page = await (await fetch(url)).text();
      expect(page).toContain('(returning to <code>127.0.0.1:5555</code>)');
      expect(page).not.toContain('first.example.test');
      const wrong = await approve(url, 'nope');
      expect(wrong.status).toBe(401);
      expect(wrong.html).toContain('(returning to <code>127.0.0.1:5555</code>)');
    });
  });

  describe('public URL behind a TLS-terminating proxy (serve({ publicUrl }))', () => {
    const PUBLIC = 'https://mcp.example.test';
    let pub: HttpServer;
    let viaProxy: typeof fetch;
    beforeAll(async () => {
      pub = await serve(f.engine, { port: 0, publicUrl: PUBLIC, mcp: { rateLimit: false } });
      viaProxy = proxyFetch(pub.port, PUBLIC);
    });
    afterAll(() => pub.close());

    it('derives the issuer, the metadata and the challenge from the public URL', async () => {
      const as = (await (await viaProxy(`${PUBLIC}/.well-known/oauth-authorization-server`)).json()) as Json;
      expect(as).toMatchObject({
        issuer: PUBLIC,
        authorization_endpoint: `${PUBLIC}/oauth/authorize`,
        token_endpoint: `${PUBLIC}/oauth/token`,
      });
      const resource = (await (
        await viaProxy(`${PUBLIC}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as Json;
      expect(resource).toMatchObject({ resource: `${PUBLIC}/mcp`, authorization_servers: [PUBLIC] });
      const res = await postAuth(undefined, new URL(`${PUBLIC}/mcp`), viaProxy);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(NO_TOKEN_CHALLENGE(PUBLIC));
    });

    it('refuses other Host headers (DNS rebinding), loopback included', async () => {
      const res = await fetch(`${pub.url}/mcp`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: Json }).error.message).toBe('Invalid Host header');
      const meta = await fetch(`${pub.url}/.well-known/oauth-authorization-server`);
      expect(meta.status).toBe(403);
      // The REST API is not the tool server's: its answer does not depend on the Host header.
      expect((await fetch(`${pub.url}/v1/credits`)).status).toBe(401);
    });

    it('connects the SDK client through the public URL, and binds its tokens to it', async () => {
      const oauth = new TestOAuthClient(f.apiKey, viaProxy);
      const url = new URL(`${PUBLIC}/mcp`);
      const first = new StreamableHTTPClientTransport(url, { authProvider: oauth, fetch: viaProxy });
      await expect(new Client({ name: 'agent', version: '1' }).connect(first)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      expect(oauth.authorizationUrl!.origin).toBe(PUBLIC);
      expect(oauth.authorizationUrl!.searchParams.get('resource')).toBe(`${PUBLIC}/mcp`);
      await first.finishAuth(oauth.code!);
      const client = new Client({ name: 'agent', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(url, { authProvider: oauth, fetch: viaProxy }));
      const credits = await client.callTool({ name: 'credits_balance', arguments: {} });
      expect(credits.isError).toBeUndefined();
      expect(credits.structuredContent).toHaveProperty('remaining_credits');
      await client.close();

      const access = oauth.saved!.access_token;
      const claims = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()) as Json;
      expect(claims.aud).toBe(`${PUBLIC}/mcp`);
      // The local server over the same database is another resource: the public token is no good there.
      await expectChallenge(await post(access), OTHER_AUDIENCE);
    });

    it('accepts only an http(s) origin as the public URL', () => {
      for (const bad of [
        'mcp.example.test',
        'ftp://mcp.example.test',
        'https://mcp.example.test/base',
        'https://mcp.example.test/?q=1',
        'https://u:p@mcp.example.test',
      ])
        expect(() => mcpHttpHandler(f.engine, { publicUrl: bad })).toThrow(
          /public URL must be an http\(s\) origin/,
        );
      expect(
        mcpHttpHandler(f.engine, { publicUrl: 'https://MCP.example.test:443/' }).provider.resourceUrl(),
      ).toBe('https://mcp.example.test/mcp');
    });

    it('prospectdb serve refuses a --public-url that is not an origin, before opening the database', async () => {
      const errors: string[] = [];
      const spy = vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m));
      try {
        expect(await runServe(['--db', '/nonexistent/x.db', '--public-url', 'https://x.test/base'])).toBe(2);
      } finally {
        spy.mockRestore();
      }
      expect(errors[0]).toMatch(/^prospectdb serve: --public-url: public URL must be an http\(s\) origin/);
    });
  });

  describe.runIf(kind === 'postgres')('two engines sharing one PostgreSQL state', () => {
    const PUBLIC = 'https://mcp.example.test';
    const REDIRECT = 'http://127.0.0.1:9/callback';
    let engineB: Engine;
    let a: RunningServer;
    let b: RunningServer;
    let viaA: typeof fetch;
    let viaB: typeof fetch;
    beforeAll(async () => {
      // A second node: its own engine (no snapshot needed for OAuth) on the same PostgreSQL state,
      // both behind one public URL as replicas behind a load balancer are.
      engineB = openEngine({ state: stateSpec, clock: () => f.engine.now(), rateLimit: false });
      await engineB.state.ready();
      a = await startMcpServer(f.engine, { publicUrl: PUBLIC });
      b = await startMcpServer(engineB, { publicUrl: PUBLIC });
      viaA = proxyFetch(a.port, PUBLIC);
      viaB = proxyFetch(b.port, PUBLIC);
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      engineB.close();
    });

    /** Approves a fresh authorization request through `fetchFn`'s node; returns its code and verifier. */
    const codeVia = async (fetchFn: typeof fetch, client_id: string) => {
      const { url, verifier } = authorizeUrl(client_id, REDIRECT, undefined, PUBLIC);
      const { location } = await approve(url, f.apiKey, 'approve', fetchFn);
      return { code: new URL(location!).searchParams.get('code')!, verifier };
    };
    const exchange = (client_id: string, c: { code: string; verifier: string }) => ({
      grant_type: 'authorization_code',
      client_id,
      code: c.code,
      code_verifier: c.verifier,
      redirect_uri: REDIRECT,
    });
    const initialize = (access: string, fetchFn: typeof fetch) =>
      postAuth(`Bearer ${access}`, new URL(`${PUBLIC}/mcp`), fetchFn);

    it('accepts on each node the tokens the other issued, signing keys first made on both at once', async () => {
      const client_id = await register([REDIRECT], PUBLIC, viaA);
      const c1 = await codeVia(viaA, client_id);
      const c2 = await codeVia(viaB, client_id);
      // Neither node has signed anything yet: both may make a signing key in the same moment.
      const [t1, t2] = await Promise.all([
        tokenAt(PUBLIC, exchange(client_id, c1), viaB),
        tokenAt(PUBLIC, exchange(client_id, c2), viaA),
      ]);
      expect([t1.status, t2.status]).toEqual([200, 200]);
      for (const t of [t1, t2])
        for (const via of [viaA, viaB])
          expect((await initialize(t.body.access_token as string, via)).status).toBe(200);
      // A refresh token issued by B rotates on A, and is then spent on both.
      const refresh = {
        grant_type: 'refresh_token',
        client_id,
        refresh_token: t1.body.refresh_token as string,
      };
      const rotated = await tokenAt(PUBLIC, refresh, viaA);
      expect(rotated.status).toBe(200);
      expect((await initialize(rotated.body.access_token as string, viaB)).status).toBe(200);
      expect(await tokenAt(PUBLIC, refresh, viaB)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    });

    it('redeems a code raced on both nodes exactly once', async () => {
      const client_id = await register([REDIRECT], PUBLIC, viaB);
      for (let i = 0; i < 6; i++) {
        const c = await codeVia(i % 2 === 0 ? viaA : viaB, client_id);
        const results = await Promise.all([
          tokenAt(PUBLIC, exchange(client_id, c), viaA),
          tokenAt(PUBLIC, exchange(client_id, c), viaB),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
        expect(results.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
        // The double redemption ends the grant on every node, the winner's token included.
        const won = results.find((r) => r.status === 200)!.body.access_token as string;
        for (const via of [viaA, viaB]) expect((await initialize(won, via)).status).toBe(401);
      }
      const unused = await f.engine.state.value(
        'SELECT count(*) FROM oauth_codes c JOIN oauth_grants g ON g.grant_id = c.grant_id WHERE g.client_id = ? AND c.used_at IS NULL',
        [client_id],
      );
      expect(unused).toBe(0);
    });
  });
});
