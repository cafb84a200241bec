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
export { createHttpServer, serve, type RunningServer, type ServeOptions } from './index.js';
export { mcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from '../mcp/http.js';
