/**
 * `prospectdb request METHOD PATH [JSON] --db FILE --api-key KEY`: one request through the facade
 * without a socket, for scripts and notebooks. Prints the JSON body; the exit code is 0 for 2xx.
 */
import { parseArgs } from 'node:util';
import { openEngine, type EngineOptions } from '../../engine.js';
import { handle } from '../../facade/handle.js';
import type { FacadeOptions } from '../../facade/types.js';

const HELP = `usage: prospectdb request METHOD PATH [JSON] --db FILE --api-key KEY [--header 'name: value']… [--status]

  prospectdb request POST /v1/businesses/match '{"businesses_to_match":[{"name":"acme"}]}' --db db.sqlite --api-key $KEY
  prospectdb request GET '/v2/autocomplete?field=country&query=uni' --db db.sqlite --api-key $KEY

The key may also come from PROSPECTDB_API_KEY. JSON '-' reads the body from stdin.`;

async function stdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      'api-key': { type: 'string' },
      header: { type: 'string', multiple: true },
      status: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [method, path, json] = positionals;
  if (values.help || !values.db || !method || !path || positionals.length > 3) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
  const headers: Record<string, string> = {};
  for (const h of values.header ?? []) {
    const i = h.indexOf(':');
    if (i > 0) headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  const key = values['api-key'] ?? process.env.PROSPECTDB_API_KEY;
  if (key) headers.api_key = key;
  const options: EngineOptions & FacadeOptions = { path: values.db, rateLimit: false };
  const engine = openEngine(options);
  try {
    const body = json === '-' ? await stdin() : json;
    const res = await handle(engine, { method, path, headers, body });
    if (values.status) console.error(`HTTP ${res.status}`);
    console.log(JSON.stringify(res.body, null, 2));
    return res.status >= 200 && res.status < 300 ? 0 : 1;
  } finally {
    engine.close();
  }
}
