/**
 * Test support for the tool server over HTTP: the handler mounted on a `node:http` server on 127.0.0.1,
 * and an in-memory `OAuthClientProvider` for the SDK client whose "browser" submits the sign-in form
 * with an API key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Engine } from '../../src/engine.js';
import { mcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from '../../src/mcp/http.js';

export interface RunningServer {
  origin: string;
  mcpUrl: URL;
  handler: McpHttpHandler;
  close(): Promise<void>;
}

/** Starts the handler on 127.0.0.1 (random port); other paths answer 404. */
export async function startMcpServer(engine: Engine, options: McpHttpOptions = {}): Promise<RunningServer> {
  const handler = mcpHttpHandler(engine, { rateLimit: false, ...options });
  const server: Server = createServer((req, res) => {
    void handler(req, res).then((handled) => {
      if (!handled) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"details":"Not found"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    mcpUrl: new URL('/mcp', origin),
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Submits the sign-in form the authorization URL shows; returns the redirect and the page status. */
export async function approve(
  authorizationUrl: URL | string,
  apiKey: string,
  decision: 'approve' | 'deny' = 'approve',
): Promise<{ status: number; location: string | null; html: string }> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!request) throw new Error(`no sign-in form (${page.status}): ${html.slice(0, 200)}`);
  const action = new URL('/oauth/approve', authorizationUrl);
  const res = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request, api_key: apiKey, decision }).toString(),
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

/** An MCP client's OAuth state, in memory; its "browser" approves with `apiKey`. */
export class TestOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** The code of the last approval (feed it to `transport.finishAuth`). */
  code: string | undefined;
  authorizationUrl: URL | undefined;

  constructor(private readonly apiKey: string) {}

  get redirectUrl() {
    return 'http://127.0.0.1:9/callback';
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    const { location } = await approve(url, this.apiKey);
    this.code = location ? (new URL(location).searchParams.get('code') ?? undefined) : undefined;
  }
}
