/**
 * `prospectdb serve --db FILE [--port N] [--host H] [--rate-limit N|off] [--public-url URL]
 * [--cors-origin URL …]`: the HTTP facade over a database, with the agent tool server at `/mcp`.
 */
import { parseArgs } from 'node:util';
import { openEngine, type EngineOptions } from '../../engine.js';
import type { FacadeOptions } from '../../facade/types.js';
import { serve } from '../../serve.js';
import { publicOrigin } from '../../mcp/http.js';

const HELP = `usage: prospectdb serve --db FILE [--port 8080] [--host 127.0.0.1] [--rate-limit N|off]
                        [--public-url URL] [--cors-origin URL ...]

Serves the v1/v2 API over HTTP from FILE (see prospectdb load). Requests need an api_key header
(prospectdb keys create). Indexes are built before the server listens. --cors-origin (repeatable) lets
browser pages from that origin call the API (no CORS by default). Ctrl-C stops accepting and lets
in-flight requests finish.

The agent tool server answers at /mcp (OAuth 2.0). --public-url https://data.example.com names the
origin remote agents use, typically a TLS-terminating proxy in front of this server: the OAuth issuer,
metadata, token audience (URL/mcp) and the accepted Host header derive from it. Without it /mcp serves
local agents only (Host localhost or 127.0.0.1).`;

/** Rate-limit option from `--rate-limit` text: a number per minute, or `off`. */
export function rateLimitOption(text: string | undefined): FacadeOptions['rateLimit'] {
  if (text === undefined) return undefined;
  if (text === 'off' || text === '0') return false;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new TypeError(`--rate-limit must be a positive integer or off`);
  return { perMinute: n };
}

/** Resolves when SIGINT or SIGTERM arrives. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'rate-limit': { type: 'string' },
      'public-url': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.db) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined) {
    try {
      publicOrigin(publicUrl);
    } catch (e) {
      console.error(`prospectdb serve: --public-url: ${(e as Error).message}`);
      return 2;
    }
  }
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  const options: EngineOptions & FacadeOptions = {
    path: values.db,
    rateLimit: rateLimitOption(values['rate-limit']),
  };
  const engine = openEngine(options);
  const origins = values['cors-origin'];
  const server = await serve(engine, {
    port,
    host: values.host,
    publicUrl,
    cors: origins ? { origins } : undefined,
    onWarm: (took) => {
      const ms = Object.values(took).reduce((a, b) => a + b, 0);
      console.error(`prospectdb: indexes ready (${Math.round(ms)} ms)`);
    },
  });
  console.error(`prospectdb: serving ${values.db} on ${server.url}`);
  if (publicUrl) console.error(`prospectdb: agent tools at ${publicOrigin(publicUrl)}/mcp`);
  await untilSignal();
  console.error('prospectdb: shutting down');
  await server.close();
  engine.close();
  return 0;
}
