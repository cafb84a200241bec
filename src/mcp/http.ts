/**
 * The tool server over HTTP: the streamable HTTP transport at `/mcp` behind OAuth 2.0, with the
 * authorization server beside it (RFC 9728 protected-resource metadata, RFC 8414 server metadata,
 * RFC 7591 registration, authorization code + PKCE with a sign-in page, refresh rotation, RFC 7009
 * revocation). The protocol endpoints are the MCP SDK's own handlers, over the provider of
 * `oauth/provider.ts`; this file routes, checks bearer tokens and keeps sessions.
 *
 * Behind a TLS-terminating proxy, `publicUrl` names the origin agents use (`https://…`): the issuer, the
 * metadata, the canonical resource URL tokens are bound to and the allowed Host headers all derive from it.
 * Without it the server is local: the origin is `http://` + the Host header, which must be a loopback name.
 *
 * @example
 * const mcp = mcpHttpHandler(engine, { publicUrl: 'https://data.example.com' });
 * http.createServer(async (req, res) => { if (await mcp(req, res)) return; … });
 *
 * Over 400 lines on purpose: the one router of the tool server's endpoints (transport, metadata, sign-in
 * page, bearer checks, sessions), kept together so every path's security checks read side by side.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine.js';
import { renderApprovalPage, renderMessagePage, APPROVE_PATH } from './oauth/page.js';
import {
  createOAuthProvider,
  MCP_SCOPE,
  RESOURCE_PATH,
  SCOPES_SUPPORTED,
  type ProspectOAuthProvider,
  type TokenLifetimes,
} from './oauth/provider.js';
import { callerFromToken, createToolServer } from './server.js';

export interface McpHttpOptions extends TokenLifetimes {
  /**
   * Public origin of the server as agents reach it, e.g. `https://data.example.com` behind a TLS proxy:
   * the issuer, the metadata, the resource URL tokens are bound to (`<publicUrl>/mcp`) and the allowed
   * hosts derive from it. An origin only (no path, query or credentials). Default: `http://<Host header>`
   * with loopback hosts only, which suits a local server.
   */
  publicUrl?: string;
  /**
   * Host names the server answers to (DNS-rebinding protection). Default: the `publicUrl` host, or
   * localhost names when there is no `publicUrl`.
   */
  allowedHosts?: string[];
  /** Rate limits of the SDK's OAuth endpoints; `false` disables them (tests). Default on. */
  rateLimit?: false;
  /** Sessions idle longer than this are closed; default 30 minutes. */
  sessionIdleMs?: number;
}

/** Node handler: true when it answered the request, false when the path is not its own. */
export type McpHttpHandler = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & {
  /** Closes every open session. */
  close(): Promise<void>;
  readonly provider: ProspectOAuthProvider;
};

const WELL_KNOWN_RESOURCE = '/.well-known/oauth-protected-resource';
const WELL_KNOWN_AS = '/.well-known/oauth-authorization-server';

/** The paths this handler owns. */
export function isMcpPath(pathname: string): boolean {
  return (
    pathname === RESOURCE_PATH ||
    pathname === WELL_KNOWN_AS ||
    pathname === WELL_KNOWN_RESOURCE ||
    pathname.startsWith(`${WELL_KNOWN_RESOURCE}/`) ||
    pathname.startsWith('/oauth/')
  );
}

interface Session {
  transport: StreamableHTTPServerTransport;
  accountId: string;
  lastSeen: number;
}

type Req = IncomingMessage & { body?: unknown; auth?: AuthInfo; query?: Record<string, unknown> };

/**
 * The bearer token of an Authorization header (RFC 6750 §2.1): `undefined` when the request carries no
 * Bearer credentials at all (no header, or another scheme), `null` when the Bearer header is malformed.
 */
export function bearerToken(header: string | undefined): string | undefined | null {
  if (header === undefined || !/^Bearer(\s|$)/i.test(header)) return undefined;
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return m ? m[1]! : null;
}

/** The origin of a public URL; a TypeError for anything but an http(s) origin. */
export function publicOrigin(url: string): string {
  const u = URL.canParse(url) ? new URL(url) : undefined;
  if (
    !u ||
    (u.protocol !== 'https:' && u.protocol !== 'http:') ||
    u.username !== '' ||
    u.password !== '' ||
    u.pathname !== '/' ||
    u.search !== '' ||
    u.hash !== ''
  ) {
    throw new TypeError(
      `public URL must be an http(s) origin such as https://data.example.com (no path, query or credentials), not ${JSON.stringify(url)}`,
    );
  }
  return u.origin;
}

/** `http://` + a Host header, normalised as URL origins are (lower case, default port dropped). */
function hostOrigin(host: string | undefined): string {
  const url = `http://${host ?? '127.0.0.1'}`;
  return URL.canParse(url) ? new URL(url).origin : 'http://127.0.0.1';
}

/** RFC 6750 §3 outcomes of a request to the protected resource that cannot proceed. */
type Refusal = { error: undefined } | { error: 'invalid_token' | 'insufficient_scope'; description: string };
const REFUSAL_STATUS = { invalid_token: 401, insufficient_scope: 403 } as const;

/**
 * The MCP tool server's node:http handler (`/mcp` and its OAuth endpoints); resolves true when it
 * answered the request. Mount it before every other route of the HTTP server.
 * @example const mcp = mcpHttpHandler(engine, { publicUrl: 'https://data.example.com' }); if (!(await mcp(req, res))) next();
 */
export function mcpHttpHandler(engine: Engine, options: McpHttpOptions = {}): McpHttpHandler {
  const fixedOrigin = options.publicUrl === undefined ? undefined : publicOrigin(options.publicUrl);
  const originOf = (req: IncomingMessage) => fixedOrigin ?? hostOrigin(req.headers.host);
  // The origin of the request being served, for the provider (the SDK's handlers call it without the request).
  const requestOrigin = new AsyncLocalStorage<string>();
  const provider = createOAuthProvider(engine, {
    ...options,
    resourceUrl: () => `${fixedOrigin ?? requestOrigin.getStore() ?? 'http://127.0.0.1'}${RESOURCE_PATH}`,
  });
  const sessions = new Map<string, Session>();
  const idleMs = options.sessionIdleMs ?? 30 * 60 * 1000;
  const limit = options.rateLimit === false ? { rateLimit: false as const } : {};

  const resourceMetadata = (origin: string): OAuthProtectedResourceMetadata => ({
    resource: `${origin}${RESOURCE_PATH}`,
    authorization_servers: [origin],
    scopes_supported: SCOPES_SUPPORTED,
    bearer_methods_supported: ['header'],
    resource_name: 'prospectdb tools',
  });
  const serverMetadata = (origin: string): OAuthMetadata => ({
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: SCOPES_SUPPORTED,
  });

  const allowedHosts =
    options.allowedHosts ??
    (fixedOrigin ? [new URL(fixedOrigin).hostname] : ['localhost', '127.0.0.1', '[::1]']);
  const app = createMcpExpressApp({ host: '0.0.0.0', allowedHosts });
  app.disable('x-powered-by');

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  };
  const metadata = (build: (origin: string) => unknown) => (req: Req, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, OPTIONS',
      });
      res.end();
      return;
    }
    if (req.method !== 'GET')
      return json(res, 405, { error: 'method_not_allowed' }, { allow: 'GET, OPTIONS' });
    json(res, 200, build(originOf(req)), {
      'access-control-allow-origin': '*',
      'cache-control': 'max-age=300',
    });
  };
  app.all(WELL_KNOWN_AS, metadata(serverMetadata));
  app.all(WELL_KNOWN_RESOURCE, metadata(resourceMetadata));
  app.all(`${WELL_KNOWN_RESOURCE}${RESOURCE_PATH}`, metadata(resourceMetadata));

  app.use('/oauth/authorize', authorizationHandler({ provider, ...limit }));
  app.use('/oauth/token', tokenHandler({ provider, ...limit }));
  app.use('/oauth/register', clientRegistrationHandler({ clientsStore: provider.clientsStore, ...limit }));
  app.use('/oauth/revoke', revocationHandler({ provider, ...limit }));
  app.post(APPROVE_PATH, (req: Req, res: ServerResponse) => {
    readForm(req)
      .then(
        async (form) => {
          const requestId = form.get('request') ?? '';
          const decision = form.get('decision') === 'deny' ? 'deny' : 'approve';
          const outcome = await provider.decide(requestId, decision, form.get('api_key') ?? undefined);
          if (outcome.ok) {
            res.writeHead(302, { location: outcome.redirect, 'cache-control': 'no-store' });
            res.end();
          } else if (outcome.reason === 'bad_key') {
            renderApprovalPage(res, {
              requestId,
              client: outcome.client,
              redirectUri: outcome.redirectUri,
              error: 'That API key is not valid. Try again.',
            });
          } else {
            renderMessagePage(
              res,
              400,
              'This sign-in request has expired. Start the connection again from your application.',
            );
          }
        },
        () => renderMessagePage(res, 400, 'Unreadable form.'),
      )
      .catch((e: unknown) => {
        // The state store failed (e.g. PostgreSQL unreachable): the request stays pending, try again.
        console.error('prospectdb: oauth approval failed', e);
        if (!res.headersSent) renderMessagePage(res, 503, 'The sign-in could not be saved. Try again.');
      });
  });

  /**
   * The RFC 6750 §3 challenge: no error code when the request had no Bearer credentials (§3.1), else
   * `invalid_token` (401) or `insufficient_scope` (403, naming the scope). An empty or malformed Bearer
   * header is an `invalid_token` 401 rather than RFC 6750's `invalid_request` 400: the interface gives a
   * missing, malformed or expired credential 401, and clients re-run authorization only on a 401. Every
   * one points at the protected-resource metadata (RFC 9728 §5.1) so a client can start the flow.
   */
  const challenge = (req: IncomingMessage, res: ServerResponse, refusal: Refusal) => {
    const metadataUrl = `${originOf(req)}${WELL_KNOWN_RESOURCE}${RESOURCE_PATH}`;
    const realm = 'Bearer realm="prospectdb"';
    if (refusal.error === undefined) {
      return json(
        res,
        401,
        { detail: 'This resource needs an OAuth 2.0 access token (see the WWW-Authenticate header)' },
        { 'www-authenticate': `${realm}, resource_metadata="${metadataUrl}"` },
      );
    }
    const scope = refusal.error === 'insufficient_scope' ? `, scope="${MCP_SCOPE}"` : '';
    json(
      res,
      REFUSAL_STATUS[refusal.error],
      { error: refusal.error, error_description: refusal.description },
      {
        'www-authenticate': `${realm}, error="${refusal.error}", error_description="${refusal.description}"${scope}, resource_metadata="${metadataUrl}"`,
      },
    );
  };
  const rpcError = (res: ServerResponse, status: number, message: string, code = -32000) =>
    json(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });

  const sweep = () => {
    const now = engine.now();
    for (const [id, s] of sessions) {
      if (now - s.lastSeen > idleMs) {
        sessions.delete(id);
        void s.transport.close();
      }
    }
  };

  /** `/mcp`, outside express: the transport reads its own body, with a limit large enough for 10,000 ids. */
  async function serveMcp(req: Req, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, allowedHosts)) return rpcError(res, 403, 'Invalid Host header');
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) return challenge(req, res, { error: undefined });
    if (token === null)
      return challenge(req, res, {
        error: 'invalid_token',
        description: 'Malformed Authorization header: expected Bearer and one token',
      });
    const check = await provider.check(token);
    if (!check.ok) {
      return challenge(req, res, {
        error: 'invalid_token',
        description:
          check.reason === 'audience'
            ? 'The access token was issued for another resource'
            : 'The access token is invalid, expired or revoked',
      });
    }
    if (!check.auth.scopes.includes(MCP_SCOPE)) {
      return challenge(req, res, {
        error: 'insufficient_scope',
        description: `The access token lacks the ${MCP_SCOPE} scope`,
      });
    }
    req.auth = check.auth;
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJson(req);
      if (!read.ok) return rpcError(res, read.status, read.message, read.code);
      body = read.value;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      // A session belongs to the account that opened it; another account's token cannot use it.
      if (!session || session.accountId !== check.account.account_id)
        return rpcError(res, 404, 'Session not found');
      session.lastSeen = engine.now();
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return rpcError(res, 400, 'Bad Request: no valid session id; send initialize first');
    }
    sweep();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, accountId: check.account.account_id, lastSeen: engine.now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = createToolServer(engine, callerFromToken);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const handler = (async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (!isMcpPath(pathname)) return false;
    return requestOrigin.run(originOf(req), async () => {
      if (pathname === RESOURCE_PATH) {
        await serveMcp(req, res).catch((e: unknown) => {
          console.error('prospectdb: mcp request failed', e);
          if (!res.headersSent) rpcError(res, 500, 'Internal server error');
        });
        return true;
      }
      await new Promise<void>((resolve) => {
        app(req, res, (err?: unknown) => {
          if (err) console.error('prospectdb: oauth request failed', err);
          if (!res.headersSent) json(res, err ? 500 : 404, { error: err ? 'server_error' : 'not_found' });
          resolve();
        });
        // The express app answers asynchronously; the request is ours either way.
        resolve();
      });
      return true;
    });
  }) as McpHttpHandler;
  handler.close = async () => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map((s) => s.transport.close()));
  };
  Object.defineProperty(handler, 'provider', { value: provider });
  return handler;
}

const MAX_FORM_BYTES = 16 * 1024;
/** Largest JSON-RPC body on `/mcp` (a fetch may carry 10,000 business ids). */
const MAX_JSON_BYTES = 4 * 1024 * 1024;

function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  if (!host) return false;
  try {
    return allowed.includes(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

type JsonRead = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

/** Reads and parses a JSON body, refusing more than `MAX_JSON_BYTES`. */
function readJson(req: IncomingMessage): Promise<JsonRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_JSON_BYTES) {
        resolve({ ok: false, status: 413, code: -32600, message: 'Request body too large' });
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ ok: false, status: 400, code: -32700, message: 'Parse error: invalid JSON' });
      }
    });
    req.on('error', () =>
      resolve({ ok: false, status: 400, code: -32600, message: 'Unreadable request body' }),
    );
  });
}

/** Reads an `application/x-www-form-urlencoded` body (the sign-in form). */
function readForm(req: Req): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_FORM_BYTES) {
        req.destroy();
        reject(new Error('form too large'));
      } else chunks.push(c);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}
