import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey, revokeKey, listKeys } from '../src/account/accounts.js';
import { handle } from '../src/facade/handle.js';
import { mcpFixture, type McpFixture } from './support/mcp-engine.js';
import { approve, startMcpServer, TestOAuthClient, type RunningServer } from './support/mcp-http.js';

type Json = Record<string, unknown>;
let f: McpFixture;
let srv: RunningServer;

beforeAll(async () => {
  f = await mcpFixture();
  srv = await startMcpServer(f.engine);
});
afterAll(async () => {
  await srv.close();
  f.engine.close();
});

const CHALLENGE = () =>
  `Bearer realm="OAuth", error="invalid_token", error_description="Missing or invalid access token", resource_metadata="${srv.origin}/.well-known/oauth-protected-resource/mcp"`;
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const post = (token?: string, body: unknown = INITIALIZE) =>
  fetch(srv.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
async function expectChallenge(res: Response) {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe(CHALLENGE());
  expect(await res.json()).toEqual({
    error: 'invalid_token',
    error_description: 'Missing or invalid access token',
  });
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

describe('discovery', () => {
  it('answers an unauthenticated initialize with 401 and a Bearer challenge naming the resource metadata', async () => {
    await expectChallenge(await post());
    await expectChallenge(await post('not-a-jwt'));
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
    const key = issueKey(f.engine, f.accountId, 'agent key');
    const { client, oauth } = await connect(key);
    expect((await client.callTool({ name: 'credits_balance', arguments: {} })).isError).toBeUndefined();
    const keyId = listKeys(f.engine, f.accountId).find((k) => k.name === 'agent key')!.key_id;
    expect(revokeKey(f.engine, keyId)).toBe(true);
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
