/**
 * `prospectdb/server`: the HTTP adapter over the facade, with the agent tool server (MCP over streamable
 * HTTP, behind OAuth) at `/mcp`. A subpath of its own so that `import 'prospectdb'` does not load
 * node:http handling, the MCP SDK and its OAuth stack (together ~0.5 s to import) for a notebook that
 * only queries.
 *
 * @example
 * import { openEngine } from 'prospectdb';
 * import { serve } from 'prospectdb/server';
 * const server = await serve(openEngine({ path: 'prospects.db' }), { port: 8080 });
 * // … later
 * await server.close();
 */
export {
  /**
   * Builds the indexes, then serves the engine over HTTP (the facade, and the MCP tools at `/mcp`).
   * @example const { url, close } = await serve(engine, { port: 0, publicUrl: 'https://data.example.com' });
   */
  serve,
  /**
   * A node:http server answering through the facade, not yet listening and not warmed (`serve` does both).
   * @example createHttpServer(engine, { mcp: false }).listen(8080, '127.0.0.1');
   */
  createHttpServer,
  type RunningServer,
  type ServeOptions,
} from './index.js';
export {
  /**
   * The MCP tool server's node:http handler (`/mcp`, OAuth endpoints); resolves true when it answered.
   * @example const mcp = mcpHttpHandler(engine, { publicUrl: 'https://data.example.com' }); if (!(await mcp(req, res))) next();
   */
  mcpHttpHandler,
  type McpHttpHandler,
  type McpHttpOptions,
} from '../mcp/http.js';
