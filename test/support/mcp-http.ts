/**
 * Test support for the tool server over HTTP: the handler mounted on a `node:http` server on 127.0.0.1,
 * an in-memory `OAuthClientProvider` for the SDK client whose "browser" submits the sign-in form with an
 * API key, and a fetch that plays a TLS-terminating proxy for a public URL without leaving loopback.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
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
  port: number;
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
    port,
    mcpUrl: new URL('/mcp', origin),
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A fetch standing for a TLS-terminating proxy in front of the server on `127.0.0.1:port`: a request to
 * `publicOrigin` (e.g. `https://mcp.example.test`) goes to the loopback port over plain HTTP with the
 * public host in `Host` and `X-Forwarded-Proto`, as a proxy forwards it; any other origin is refused,
 * so nothing leaves the loopback interface and no name is resolved.
 */
export function proxyFetch(port: number, publicOrigin: string): typeof fetch {
  const pub = new URL(publicOrigin);
  return async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (url.origin !== pub.origin) throw new TypeError(`no route to ${url.origin} from this test`);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const headers: Record<string, string> = Object.fromEntries(req.headers);
    headers.host = pub.host;
    headers['x-forwarded-proto'] = pub.protocol.slice(0, -1);
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const out = request(
        { host: '127.0.0.1', port, method: req.method, path: url.pathname + url.search, headers },
        (res) => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            for (const one of v === undefined ? [] : [v].flat()) h.append(k, one);
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 304 || req.method === 'HEAD';
          if (empty) res.resume();
          const stream = empty ? null : (Readable.toWeb(res) as WebReadableStream<Uint8Array>);
          resolve(new Response(stream as ReadableStream<Uint8Array> | null, { status, headers: h }));
        },
      );
      out.on('error', reject);
      req.signal.addEventListener('abort', () => out.destroy(new Error('aborted')));
      out.end(body);
    });
  };
}

/** Submits the sign-in form the authorization URL shows; returns the redirect and the page status. */
export async function approve(
  authorizationUrl: URL | string,
  apiKey: string,
  decision: 'approve' | 'deny' = 'approve',
  fetchFn: typeof fetch = fetch,
): Promise<{ status: number; location: string | null; html: string; page: string }> {
  const page = await fetchFn(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!request) throw new Error(`no sign-in form (${page.status}): ${html.slice(0, 200)}`);
  const action = new URL('/oauth/approve', authorizationUrl);
  const res = await fetchFn(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request, api_key: apiKey, decision }).toString(),
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text(), page: html };
}

/** An MCP client's OAuth state, in memory; its "browser" approves with `apiKey`. */
export class TestOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** The code of the last approval (feed it to `transport.finishAuth`). */
  code: string | undefined;
  authorizationUrl: URL | undefined;

  constructor(
    private readonly apiKey: string,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

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
    const { location } = await approve(url, this.apiKey, 'approve', this.fetchFn);
    this.code = location ? (new URL(location).searchParams.get('code') ?? undefined) : undefined;
  }
}
