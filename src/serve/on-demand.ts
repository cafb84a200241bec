/**
 * `serve` from the package entry, loaded on its first call. The server and the agent tool server (MCP SDK,
 * OAuth) cost about half a second to import, which a notebook that only queries should not pay; code
 * written before the `prospectdb/server` subpath existed still imports `serve` from `prospectdb`.
 */
import type { Engine } from '../engine.js';
import type { RunningServer, ServeOptions } from './index.js';

/**
 * Serves the engine over HTTP (the API, and the agent tool server unless `mcp: false`); loads the server
 * on the first call, so importing the package stays light. New code imports it from `prospectdb/server`.
 * @example const { url, close } = await serve(engine, { port: 8080 });
 */
export async function serve(engine: Engine, options: ServeOptions = {}): Promise<RunningServer> {
  const server = await import('./index.js');
  return server.serve(engine, options);
}
