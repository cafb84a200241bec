/**
 * The tool server over stdio, for a local agent: no OAuth, the API key given at start-up identifies the
 * account. The key goes to the facade on every call, so revoking it ends access at the next call.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { authenticate } from '../account/accounts.js';
import type { Engine } from '../engine.js';
import { EngineError } from '../errors.js';
import { createToolServer } from './server.js';

/**
 * Serves the tools on stdin/stdout until the client disconnects. Refuses an unknown or revoked key up
 * front (a misconfigured client then fails at start, not on its first call).
 * @example await serveStdio(openEngine({ path: 'prospects.db' }), process.env.PROSPECTDB_API_KEY!);
 */
export async function serveStdio(engine: Engine, apiKey: string): Promise<void> {
  const auth = await authenticate(engine, apiKey.trim());
  if (!auth.ok) throw new EngineError('UNAUTHORIZED', `API key refused (${auth.reason})`);
  const server = createToolServer(engine, () => ({ kind: 'api_key', apiKey: apiKey.trim() }));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
  await closed;
}
