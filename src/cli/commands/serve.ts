/**
 * `prospectdb serve --db FILE [--state FILE|URL] [--workers N] [--watch] [--port N] [--host H]
 * [--rate-limit N|off] [--public-url URL] [--cors-origin URL …]`: the HTTP facade over a database, with
 * the agent tool server at `/mcp`, in one process or in N worker processes on one port
 * (`serve/cluster.ts`); SIGHUP (and, with `--watch`, a new file renamed over FILE) swaps the snapshot.
 */
import { parseArgs } from 'node:util';
import { openEngine, type EngineOptions } from '../../engine.js';
import type { FacadeOptions } from '../../facade/types.js';
import type { SettingsOptions } from '../../runtime/settings.js';
import { serve } from '../../serve/index.js';
import {
  isClusterWorker,
  leaveCluster,
  runPrimary,
  untilStopped,
  workersOption,
} from '../../serve/cluster.js';
import { publicOrigin } from '../../mcp/http.js';
import { snapshotTriggers, swapInPlaceRefusal } from '../snapshot-watch.js';

const HELP = `usage: prospectdb serve --db FILE [--state FILE|postgres://...] [--workers N] [--watch]
                        [--port 8080] [--host 127.0.0.1] [--rate-limit N|off] [--public-url URL]
                        [--cors-origin URL ...] [--allow-private-webhooks]

Serves the v1/v2 API over HTTP from FILE (see prospectdb load). Requests need an api_key header
(prospectdb keys create). Indexes are built before the server listens. --cors-origin (repeatable) lets
browser pages from that origin call the API (no CORS by default). Ctrl-C stops accepting and lets
in-flight requests finish. --allow-private-webhooks lets webhooks target http:// and private addresses
such as http://127.0.0.1 (local development; off by default, announced on stderr when on).

--workers N (default: the number of cores) serves from N processes on one port; each opens FILE and
the state store and builds its indexes before it takes requests; a worker that dies is restarted.
--workers 1 serves from this process. --state names the state store (accounts, keys, credits,
webhooks, jobs): a SQLite file (default: beside FILE, x.state.db for x.db, shared by the workers) or a
PostgreSQL URL shared by every process and machine serving the same snapshot.

The agent tool server answers at /mcp (OAuth 2.0). --public-url https://data.example.com names the
origin remote agents use, typically a TLS-terminating proxy in front of this server: the OAuth issuer,
metadata, token audience (URL/mcp) and the accepted Host header derive from it. Without it /mcp serves
local agents only (Host localhost or 127.0.0.1).

Snapshot swaps without downtime: build the next snapshot in another file (prospectdb load --db next.db
DIR), rename it over FILE (mv next.db FILE), then send SIGHUP, or let --watch see the new file. The new
file is opened read-only and its indexes are built while the old one keeps answering; requests already
running finish on the old snapshot. A file that fails to open keeps the old snapshot (said on stderr).
Needs the state in a file of its own (--state FILE or a postgres:// URL): accounts, keys and credits
are not touched by a swap.`;

/** Rate-limit option from `--rate-limit` text: a number per minute, or `off`. */
export function rateLimitOption(text: string | undefined): FacadeOptions['rateLimit'] {
  if (text === undefined) return undefined;
  if (text === 'off' || text === '0') return false;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new TypeError(`--rate-limit must be a positive integer or off`);
  return { perMinute: n };
}

/**
 * Engine options for `--allow-private-webhooks`: webhooks may then target http:// and private or
 * loopback addresses (a receiver on the developer's machine). Off by default, since on a server it would
 * let a key holder make the server call its own network; said on stderr when on.
 */
export function webhookOptions(
  allowPrivate: boolean | undefined,
  announce = true,
): Pick<SettingsOptions, 'webhooks'> {
  if (!allowPrivate) return {};
  if (announce)
    console.error('prospectdb: --allow-private-webhooks: webhooks may target http:// and private addresses');
  return { webhooks: { allowPrivateTargets: true } };
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
      state: { type: 'string' },
      watch: { type: 'boolean', default: false },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'rate-limit': { type: 'string' },
      'public-url': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      workers: { type: 'string' },
      'allow-private-webhooks': { type: 'boolean', default: false },
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
    state: values.state,
    rateLimit: rateLimitOption(values['rate-limit']),
    // Announced once: by the primary, or by the only process.
    ...webhookOptions(values['allow-private-webhooks'], !isClusterWorker()),
  };
  const workers = workersOption(values.workers);
  if (workers > 1 && !isClusterWorker()) {
    console.error(`prospectdb: serving ${values.db} on ${values.host}:${port} from ${workers} workers`);
    if (publicUrl) console.error(`prospectdb: agent tools at ${publicOrigin(publicUrl)}/mcp`);
    return runPrimary({ workers, log: (line) => console.error(`prospectdb: ${line}`) });
  }
  const worker = isClusterWorker() ? `worker ${process.pid}: ` : '';
  // Listening from the start: a stop asked while the indexes build ends the worker once it listens.
  const stopped = worker ? untilStopped() : untilSignal();
  try {
    const engine = openEngine(options);
    const refusal = values.watch ? swapInPlaceRefusal(engine, values.db) : undefined;
    if (refusal) {
      console.error(`prospectdb serve: --watch: ${refusal}`);
      engine.close();
      return 2;
    }
    const origins = values['cors-origin'];
    const server = await serve(engine, {
      port,
      host: values.host,
      publicUrl,
      cors: origins ? { origins } : undefined,
      // Which process answered, for tests and diagnostics only.
      headers: process.env.PROSPECTDB_DIAGNOSTICS === '1' ? { 'x-prospectdb-pid': String(process.pid) } : {},
      onWarm: (took) => {
        const ms = Object.values(took).reduce((a, b) => a + b, 0);
        console.error(`prospectdb: ${worker}indexes ready (${Math.round(ms)} ms)`);
      },
    });
    if (!worker) {
      console.error(`prospectdb: serving ${values.db} on ${server.url}`);
      if (publicUrl) console.error(`prospectdb: agent tools at ${publicOrigin(publicUrl)}/mcp`);
    }
    // SIGHUP (forwarded by the primary to every worker) and --watch swap the snapshot.
    const triggers = snapshotTriggers(engine, values.db, {
      watch: values.watch,
      log: (line) => console.error(`prospectdb: ${worker}${line.replace(/^prospectdb: /, '')}`),
    });
    if (values.watch && !worker) console.error(`prospectdb: watching ${values.db} for a new snapshot`);
    await stopped;
    triggers.stop();
    if (!worker) console.error('prospectdb: shutting down');
    await server.close();
    engine.close();
    return 0;
  } finally {
    leaveCluster();
  }
}
