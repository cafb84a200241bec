/**
 * Serving an engine: the node:http adapter (`http/server.ts`) with the agent tool server (`/mcp` and
 * its OAuth endpoints, `mcp/http.ts`) mounted on the same port. This is where the two adapters meet,
 * so neither imports the other; `prospectdb serve` and library users start servers here.
 *
 * @example
 * const server = await serve(engine, { port: 8080 });
 * // … later
 * await server.close();
 */
import type { Server } from 'node:http';
import type { Engine } from '../engine.js';
import {
  createNodeServer,
  startHttpServer,
  type HttpServerOptions,
  type MountedHandler,
  type RunningServer,
} from '../http/server.js';
import { mcpHttpHandler, type McpHttpOptions } from '../mcp/http.js';

export type { RunningServer } from '../http/server.js';

export interface ServeOptions extends Omit<HttpServerOptions, 'mount'> {
  /** The agent tool server (`/mcp` with its OAuth endpoints); on by default, `false` turns it off. */
  mcp?: McpHttpOptions | false;
  /**
   * Origin agents reach the server at, e.g. `https://data.example.com` behind a TLS-terminating proxy:
   * the tool server's issuer, metadata, token audience and allowed hosts derive from it (same as
   * `mcp.publicUrl`). Default: a local server, loopback hosts only.
   */
  publicUrl?: string;
}

function mcpMount(engine: Engine, options: ServeOptions): MountedHandler | undefined {
  if (options.mcp === false) return undefined;
  return mcpHttpHandler(engine, { publicUrl: options.publicUrl, ...options.mcp });
}

/**
 * A node:http server answering the API and `/mcp` through the facade, not yet listening and not warmed
 * (`serve` does both).
 * @example createHttpServer(engine, { mcp: false }).listen(8080, '127.0.0.1');
 */
export function createHttpServer(engine: Engine, options: ServeOptions = {}): Server {
  return createNodeServer(engine, { ...options, mount: mcpMount(engine, options) });
}

/**
 * Builds the indexes, then serves the engine over HTTP: the API, and the agent tool server at `/mcp`
 * unless `mcp: false`.
 * @example const { url, close } = await serve(engine, { port: 0, publicUrl: 'https://data.example.com' });
 */
export function serve(engine: Engine, options: ServeOptions = {}): Promise<RunningServer> {
  return startHttpServer(engine, { ...options, mount: mcpMount(engine, options) });
}
