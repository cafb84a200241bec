/**
 * The HTTP adapter: node:http over the same facade (`handle`). It only reads the body (bounded),
 * writes the response as JSON and shuts down gracefully; the facade does everything else (JSON
 * decoding and its depth limit, validation, auth, rate limits, credits).
 *
 * It keeps the server responsive under heavy and hostile load: the indexes are built before it
 * listens (and again, between turns, after a data change); API requests start one per event-loop turn
 * (`turns.ts`), so the liveness routes, answered at once, never wait behind a queue of heavy requests;
 * slow clients are cut by header, request and keep-alive timeouts; one address holds a bounded number
 * of connections. Every answer carries the security headers, no answer carries a stack trace, and CORS
 * is off unless origins are configured.
 *
 * It knows nothing of the tool server: whoever starts it mounts extra handlers (`mount`), which is how
 * `serve/index.ts` composes the API and `/mcp` on one port.
 *
 * @example
 * const server = await startHttpServer(engine, { port: 8080 });
 * // … later
 * await server.close();
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Engine } from '../engine.js';
import { ERROR_CODES } from '../errors.js';
import { handle } from '../facade/handle.js';
import { errorBody } from '../facade/stages/respond.js';
import { warmEngine } from '../core/warm.js';
import { getMeta } from '../store/open.js';
import { corsHeaders, preflight, type CorsOptions } from './cors.js';
import { createTurns } from './turns.js';

/**
 * A handler served before the facade (the tool server at `/mcp`): resolves true when it answered the
 * request, false to let the facade answer. `close` runs when the server closes.
 */
export type MountedHandler = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & {
  close?(): Promise<void>;
};

export interface HttpServerOptions {
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Largest request body in bytes; default 16 MiB (uploads of 10,000 ids fit easily). */
  maxBodyBytes?: number;
  /** How long `close()` waits for in-flight requests before cutting connections; default 5 s. */
  shutdownTimeoutMs?: number;
  /** Answers first when it claims the request (after the security and CORS headers). */
  mount?: MountedHandler;
  /** Browser origins allowed to call the API (CORS); none by default. `['*']` allows any origin. */
  cors?: CorsOptions;
  /**
   * Slow-client limits, ms: the whole header block (default 10 s), the whole request (default 60 s),
   * an idle keep-alive connection (default 5 s).
   */
  timeouts?: { headersMs?: number; requestMs?: number; keepAliveMs?: number };
  /** Open connections one client address may hold; beyond it new ones are closed. Default 512. */
  maxConnectionsPerAddress?: number;
  /**
   * Client address from the last `X-Forwarded-For` entry (the one the proxy in front of this server
   * added) instead of the socket's; only behind a proxy that sets it. Default false.
   */
  trustProxy?: boolean;
  /**
   * Build every index before listening and again after a data change (default true). `false` leaves
   * the builds to the first request that needs each index.
   */
  warm?: boolean;
  /**
   * Extra headers on every answer, e.g. which worker process answered (`serve --workers` sets
   * `x-prospectdb-pid` when `PROSPECTDB_DIAGNOSTICS=1`). None by default.
   */
  headers?: Record<string, string>;
  /** Called after each warm-up (before listening, then after each data change) with ms per index. */
  onWarm?: (took: Record<string, number>) => void;
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets in-flight requests finish, then closes every connection. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 16 * 1024 * 1024;
const DEFAULT_TIMEOUTS = { headersMs: 10_000, requestMs: 60_000, keepAliveMs: 5_000 };
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 512;
/** How often a served engine looks for a data change to re-warm its indexes after. */
const WARM_CHECK_MS = 1_000;

/** On every answer, the tool server's included. */
const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Routes that answer in constant time without the engine: served at once, never queued. */
const isLiveness = (method: string | undefined, url: string | undefined) =>
  method === 'GET' && (url === '/healthcheck/http' || url === '/version/');

function clientAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').pop()?.trim();
    if (last) return last;
  }
  return req.socket.remoteAddress;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  // Non-JSON bodies (the job results CSV) are already text.
  const json = (headers['content-type'] ?? 'application/json').includes('json');
  const text = body === undefined ? '' : !json && typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      resolve('too_large');
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A node:http server answering through the facade (not yet listening). */
export function createNodeServer(engine: Engine, options: HttpServerOptions = {}): Server {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const mount = options.mount;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const turn = createTurns();
  const extraHeaders = Object.entries(options.headers ?? {});
  const limits = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: Math.max(timeouts.requestMs, timeouts.headersMs),
    keepAliveTimeout: timeouts.keepAliveMs,
    // How often node looks for connections past those timeouts (its default is 30 s).
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
  };
  const server = createServer(limits, (req, res) => {
    void (async () => {
      try {
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
        for (const [name, value] of extraHeaders) res.setHeader(name, value);
        if (options.cors) {
          const pre = preflight(options.cors, req.method, req.headers);
          if (pre) {
            send(res, pre.status, pre.headers, undefined);
            return;
          }
          for (const [name, value] of Object.entries(corsHeaders(options.cors, req.headers.origin)))
            res.setHeader(name, value);
        }
        if (mount && (await mount(req, res))) return;
        const body = await readBody(req, limit);
        if (body === 'too_large') {
          res.setHeader('connection', 'close');
          send(
            res,
            ERROR_CODES.PAYLOAD_TOO_LARGE.status,
            { 'content-type': 'application/json' },
            errorBody('PAYLOAD_TOO_LARGE', `Request body larger than ${limit} bytes`),
          );
          return;
        }
        // One API request starts per event-loop turn: socket reads and the liveness routes run
        // between them, whatever the queue holds.
        if (!isLiveness(req.method, req.url)) await turn();
        if (res.destroyed) return;
        const out = await handle(engine, {
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          body: body.length > 0 ? body : undefined,
          clientAddress: clientAddress(req, options.trustProxy ?? false),
        });
        // Closing: the connection ends with this answer instead of idling until the shutdown timeout.
        if (!server.listening) res.setHeader('connection', 'close');
        send(res, out.status, out.headers, out.body);
      } catch {
        if (!res.headersSent)
          send(
            res,
            ERROR_CODES.INTERNAL.status,
            { 'content-type': 'application/json' },
            errorBody('INTERNAL'),
          );
        else res.destroy();
      }
    })();
  });
  limitConnections(server, options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
  if (mount?.close) server.on('close', () => void mount.close?.());
  return server;
}

/** Closes a new connection at once when its address already holds `max` open ones. */
function limitConnections(server: Server, max: number): void {
  if (!(max > 0) || !Number.isFinite(max)) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const n = open.get(address) ?? 0;
    if (n >= max) {
      socket.destroy();
      return;
    }
    open.set(address, n + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * Re-warms the engine's indexes after its data changes (a load or an event ingest by this or another
 * process), off the request path: the warm-up yields between indexes. Returns the stopper.
 */
function rewarmOnChange(engine: Engine, onWarm: HttpServerOptions['onWarm']): () => void {
  const version = () => (engine.closed ? undefined : getMeta(engine.db, 'data_version'));
  let warmed = version();
  let running = false;
  const timer = setInterval(() => {
    const now = version();
    if (running || now === undefined || now === warmed) return;
    running = true;
    warmEngine(engine)
      .then((took) => {
        warmed = now;
        onWarm?.(took);
      })
      .catch(() => {
        // A failed build surfaces in the request that needs the index; nothing to report here.
      })
      .finally(() => {
        running = false;
      });
  }, WARM_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Starts serving the engine over HTTP (the API only; `serve` in `serve/index.ts` adds `/mcp`). */
export async function startHttpServer(
  engine: Engine,
  options: HttpServerOptions = {},
): Promise<RunningServer> {
  const warm = options.warm !== false;
  if (warm) options.onWarm?.(await warmEngine(engine));
  const server = createNodeServer(engine, options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  if (warm) server.on('close', rewarmOnChange(engine, options.onWarm));
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), options.shutdownTimeoutMs ?? 5_000);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
