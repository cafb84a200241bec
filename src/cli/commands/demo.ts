/**
 * `prospectdb demo` (what `npm start` runs): loads the demo snapshot from fixtures/demo into a cached
 * database (reused while the fixture files are unchanged), makes sure a demo account exists, issues a
 * fresh demo key, serves on 127.0.0.1:8080 (or PORT) and prints the key and three curl commands.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createAccount,
  getAccountByPartner,
  issueKey,
  listKeys,
  revokeKey,
  setEntitlements,
} from '../../account/accounts.js';
import { openEngine, type Engine, type EngineOptions } from '../../engine.js';
import { serve } from '../../serve/index.js';
import { rateLimitOption, untilSignal, webhookOptions } from './serve.js';
import { SCHEMA_VERSION } from '../../store/schema.js';
import { DEMO_SQL } from '../../store/sql/meta.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/demo', import.meta.url));
const DEMO_PARTNER = 'demo';
const DEMO_CREDITS = 10_000;
/** The demo account may call every route (contact data included): it exists to try the whole interface. */
const DEMO_ENTITLEMENTS = ['*'];

const HELP = `usage: prospectdb demo [--port 8080] [--host 127.0.0.1] [--snapshot DIR] [--cache DIR] [--rate-limit N|off]
                      [--allow-private-webhooks]

Serves the demo snapshot with a demo account (every entitlement) and prints its API key and ready curl
commands. The database is cached in DIR (default: $PROSPECTDB_CACHE or the OS temp dir) and reused.
--allow-private-webhooks lets webhooks target http:// and private addresses such as http://127.0.0.1
(local development; off by default).`;

/** A fingerprint of the snapshot files: the cached database is reused while it is unchanged. */
function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) {
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(join(dir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function loadCached(snapshot: string, cacheDir: string, options: EngineOptions): Promise<Engine> {
  mkdirSync(cacheDir, { recursive: true });
  // The layout version in the name: a newer prospectdb loads its own copy instead of refusing an old one.
  const file = join(cacheDir, `demo-v${SCHEMA_VERSION}-${fingerprint(snapshot)}.db`);
  if (existsSync(file)) {
    const engine = openEngine({ ...options, path: file });
    if (engine.info().snapshotId) return engine;
    engine.close();
  }
  const building = `${file}.${process.pid}.tmp`;
  const staging = openEngine({ path: building });
  try {
    console.error(`prospectdb: loading ${snapshot} (first run only) …`);
    const report = await staging.load(snapshot);
    console.error(
      `prospectdb: snapshot ${report.snapshotId} loaded in ${(report.elapsedMs / 1000).toFixed(1)}s`,
    );
  } finally {
    staging.close();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
  renameSync(building, file);
  return openEngine({ ...options, path: file });
}

/** Creates the demo account once; every start revokes the previous demo key and issues a new one. */
async function demoKey(engine: Engine): Promise<string> {
  const existing = await getAccountByPartner(engine, DEMO_PARTNER);
  if (!existing) {
    const created = await createAccount(engine, {
      name: 'Demo',
      partner_id: DEMO_PARTNER,
      credits: DEMO_CREDITS,
      account_type: 'paid',
      key_name: 'demo',
      entitlements: DEMO_ENTITLEMENTS,
    });
    return created.api_key;
  }
  // A demo database cached by an older version has an account without them.
  await setEntitlements(engine, existing.account_id, DEMO_ENTITLEMENTS);
  for (const k of await listKeys(engine, existing.account_id))
    if (!k.revoked_at) await revokeKey(engine, k.key_id);
  return issueKey(engine, existing.account_id, 'demo');
}

function curlCommands(engine: Engine, url: string, key: string): string[] {
  const sample = engine.db.prepare(DEMO_SQL.sampleBusinesses).all() as { name: string; domain: string }[];
  const country = (engine.db.prepare(DEMO_SQL.commonestCountry).pluck().get() as string | undefined) ?? 'us';
  const match = { businesses_to_match: sample.map((b) => ({ name: b.name, domain: b.domain })) };
  const fetch = { mode: 'preview', page_size: 5, filters: { country_code: { values: [country] } } };
  const stats = {
    filters: { country_code: { values: [country] }, job_level: { values: ['director', 'c-suite'] } },
  };
  const curl = (path: string, body: unknown) =>
    `curl -s ${url}${path} -H 'api_key: ${key}' -H 'content-type: application/json' -d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`;
  return [
    curl('/v1/businesses/match', match),
    curl('/v1/businesses', fetch),
    curl('/v1/prospects/stats', stats),
  ];
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      snapshot: { type: 'string', default: FIXTURES },
      cache: { type: 'string' },
      'rate-limit': { type: 'string' },
      'allow-private-webhooks': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.error(HELP);
    return 0;
  }
  if (!existsSync(join(values.snapshot, 'manifest.json')) && !existsSync(values.snapshot)) {
    console.error(`prospectdb: demo snapshot not found at ${values.snapshot}`);
    return 1;
  }
  const cacheDir = values.cache ?? process.env.PROSPECTDB_CACHE ?? join(tmpdir(), 'prospectdb');
  const engine = await loadCached(values.snapshot, cacheDir, {
    rateLimit: rateLimitOption(values['rate-limit']),
    ...webhookOptions(values['allow-private-webhooks']),
  });
  const key = await demoKey(engine);
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  const server = await serve(engine, { port, host: values.host });
  const counts = engine.info().counts;
  console.log(
    `prospectdb demo: ${counts.businesses} businesses, ${counts.prospects} prospects, ${counts.events} events`,
  );
  console.log(`serving on ${server.url} (Ctrl-C to stop)\n`);
  console.log(
    `demo API key (${DEMO_CREDITS.toLocaleString('en-US')} credits, every entitlement; a new key each start):\n  ${key}\n`,
  );
  const [match, fetch, stats] = curlCommands(engine, server.url, key);
  console.log(
    `# match two businesses\n${match}\n\n# fetch businesses (1 credit per record)\n${fetch}\n\n# prospect statistics (free)\n${stats}\n`,
  );
  await untilSignal();
  await server.close();
  engine.close();
  return 0;
}
