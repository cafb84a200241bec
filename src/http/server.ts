/**
 * The HTTP adapter: node:http over the same facade (`handle`). It only reads the body (bounded),
 * writes the response as JSON and shuts down gracefully; the facade does everything else (JSON
 * decoding and its depth limit, validation, auth, rate limits, credits).
 *
 * @example
 * const server = await serve(engine, { port: 8080 });
 * // … later
 * await server.close();
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../engine.js';
import { handle } from '../facade/handle.js';
import { mcpHttpHandler, type McpHttpOptions } from '../mcp/http.js';

export interface ServeOptions {
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Largest request body in bytes; default 16 MiB (uploads of 10,000 ids fit easily). */
  maxBodyBytes?: number;
  /** How long `close()` waits for in-flight requests before cutting connections; default 5 s. */
  shutdownTimeoutMs?: number;
  /** The agent tool server (`/mcp` with its OAuth endpoints); on by default, `false` turns it off. */
  mcp?: McpHttpOptions | false;
  /**
   * Origin agents reach the server at, e.g. `https://data.example.com` behind a TLS-terminating proxy:
   * the tool server's issuer, metadata, token audience and allowed hosts derive from it (same as
   * `mcp.publicUrl`). Default: a local server, loopback hosts only.
   */
  publicUrl?: string;
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets in-flight requests finish, then closes every connection. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

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
export function createHttpServer(engine: Engine, options: ServeOptions = {}): Server {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const mcp =
    options.mcp === false
      ? undefined
      : mcpHttpHandler(engine, { publicUrl: options.publicUrl, ...options.mcp });
  const server = createServer((req, res) => {
    void (async () => {
      try {
        if (mcp && (await mcp(req, res))) return;
        const body = await readBody(req, limit);
        if (body === 'too_large') {
          res.setHeader('connection', 'close');
          send(
            res,
            413,
            { 'content-type': 'application/json' },
            { details: `Request body larger than ${limit} bytes` },
          );
          return;
        }
        const out = await handle(engine, {
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          body: body.length > 0 ? body : undefined,
        });
        send(res, out.status, out.headers, out.body);
      } catch {
        if (!res.headersSent)
          send(
            res,
            500,
            { 'content-type': 'application/json' },
            { details: 'An internal server error occurred' },
          );
        else res.destroy();
      }
    })();
  });
  if (mcp) server.on('close', () => void mcp.close());
  return server;
}

/** Starts serving the engine over HTTP. */
export async function serve(engine: Engine, options: ServeOptions = {}): Promise<RunningServer> {
  const server = createHttpServer(engine, options);
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
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
