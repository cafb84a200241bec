/**
 * HTTP fuzz: starts the real HTTP server on 127.0.0.1 (loopback only) over the demo snapshot and sends
 * fuzzed requests to every route of the spec with bounded concurrency — mutated valid bodies, long
 * strings (10–100 KB), unicode edges (lone surrogates, combining marks, zero-width, RTL, ligatures and
 * dotted capitals that expand when folded), deep nesting, numeric edges, random JSON and broken bytes.
 * Reports the count of 5xx (501 stubs apart), the slowest answer, p50/p99, answers over 5 s and RSS
 * growth. Goals (a hostile client must not crash, stall or
 * bloat the server): zero 5xx, zero answers over 5 s, RSS growth under 1 GB.
 *
 *   node --import tsx bench/fuzz.bench.ts --requests 100000 [--concurrency 16] [--seed 17]
 */
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { createAccount } from '../src/account/accounts.js';
import { openEngine } from '../src/engine.js';
import { SPEC_ROUTES } from '../src/facade/spec.js';
import { serve } from '../src/serve/index.js';
import { hostileString } from '../test/support/hostile.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '16' },
    seed: { type: 'string', default: '17' },
  },
});
const TOTAL = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const SLOW_MS = 5_000;

const engine = openEngine({ rateLimit: false } as never);
await engine.load(fileURLToPath(new URL('../fixtures/demo', import.meta.url)));
const { api_key } = await createAccount(engine, { name: 'fuzz', partner_id: 'fuzz', credits: 1_000_000_000 });
const businessId = engine.db.prepare('SELECT business_id FROM businesses LIMIT 1').pluck().get() as string;
const prospectId = engine.db.prepare('SELECT prospect_id FROM prospects LIMIT 1').pluck().get() as string;
const server = await serve(engine, { port: 0, host: '127.0.0.1', mcp: false });

// ---------------------------------------------------------------------------------------------------
// Request generators

const numericEdge = fc.constantFrom(-0, 1e308, -1e308, 2 ** 53 + 1, Number.MIN_VALUE, 2 ** 31, -1, 0, 1.5);
const deep = fc
  .integer({ min: 1, max: 300 })
  .map((d) => JSON.parse('{"a":'.repeat(d) + '1' + '}'.repeat(d)) as unknown);
const nasty = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  hostileString,
  numericEdge,
  deep,
  fc.array(hostileString, { maxLength: 3 }),
  fc.integer({ min: 100, max: 12_000 }).map((n) => Array.from({ length: n }, (_, i) => `unknown_${i}`)),
);

const SEEDS: Record<string, unknown>[] = [
  { businesses_to_match: [{ name: 'acme', domain: 'acme.com' }] },
  { prospects_to_match: [{ full_name: 'Jane Doe', company_name: 'Acme', email: 'j@acme.com' }] },
  { mode: 'preview', page_size: 3, filters: { country_code: { values: ['us'] } } },
  {
    mode: 'full',
    page_size: 2,
    next_cursor: null,
    exclude: [businessId],
    filters: { job_level: { values: ['director'] } },
  },
  { filters: { has_email: { value: 'true' }, company_revenue: { values: ['10m-25m'] } } },
  { from_date: '2026-10-01', to_date: '2026-10-02', resolution: 'hour' },
  { event_types: ['new_product'], business_ids: [businessId] },
  { event_types: ['prospect_changed_role'], prospect_ids: [prospectId] },
  { enrollment_key: 'fuzz', event_types: ['new_product'], business_ids: [businessId] },
  { business_id: businessId, business_ids: [businessId], prospect_ids: [prospectId] },
  { partner_id: 'fuzz', webhook_url: 'http://127.0.0.1:9/hook' },
];
const KEYS = [
  'mode',
  'page_size',
  'filters',
  'values',
  'businesses_to_match',
  'prospects_to_match',
  '0',
  'name',
  'full_name',
  'company_name',
  'email',
  'next_cursor',
  'exclude',
  'event_types',
  'business_ids',
  'from_date',
  'resolution',
  'size',
  'value',
  'has_email',
  '__proto__',
  'extra',
];

function mutate(seed: Record<string, unknown>, path: string[], value: unknown): unknown {
  const copy = structuredClone(seed);
  let node: Record<string, unknown> = copy;
  for (const p of path.slice(0, -1)) {
    const next = Object.hasOwn(node, p) ? node[p] : undefined;
    if (next === null || typeof next !== 'object') break;
    node = next as Record<string, unknown>;
  }
  Object.defineProperty(node, path.at(-1) ?? 'x', {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** A body as sent on the wire. */
const bodyArb: fc.Arbitrary<Buffer | undefined> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...SEEDS),
        fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 4 }),
        nasty,
      )
      .map(([s, p, v]) => Buffer.from(JSON.stringify(mutate(s, p, v)) ?? 'null')),
  },
  { weight: 2, arbitrary: fc.constantFrom(...SEEDS).map((s) => Buffer.from(JSON.stringify(s))) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v))) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 64 })
      .map((b) =>
        Buffer.concat([Buffer.from('{"a":"'), Buffer.from(b), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom(undefined, Buffer.from(''), Buffer.from('[[[[[[[[')) },
);

const safeEncode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as UTF-8 bytes
  }
};
const queryArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('country', 'job_title', 'company_name', 'business_intent_topics', 'COUNTRY', 'nope'),
        fc.oneof(
          hostileString.map((s) => s.slice(0, 2_000)),
          fc.constantFrom('unit', 'sofware eng', 'cloude'),
        ),
        fc.constantFrom('false', 'true', 'TRUE', 'maybe'),
      )
      .map(([f, q, sem]) => `?field=${f}&query=${safeEncode(q)}&semantic_search=${sem}`),
  },
);

const requestArb = fc.record({
  route: fc.constantFrom(...SPEC_ROUTES),
  param: fc.oneof(fc.constant('1'), fc.string({ maxLength: 12 }), fc.constantFrom('fuzz', '-5', businessId)),
  query: queryArb,
  body: bodyArb,
  withKey: fc.boolean().chain((b) => (b ? fc.constant(true) : fc.boolean())),
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'text/plain',
    'multipart/form-data; boundary=x',
  ),
});

// ---------------------------------------------------------------------------------------------------
// Driver

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
interface Answer {
  status: number;
  ms: number;
}

function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        agent,
        headers: { ...headers, 'content-length': String(body?.length ?? 0) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    // A socket error (the server refused a malformed request line) is no answer of the facade.
    req.on('error', () => resolve({ status: -1, ms: performance.now() - started }));
    req.end(body);
  });
}

const BATCH = 1_000;
let seed = Number(values.seed);
const latencies = new Float64Array(TOTAL);
const statuses = new Map<number, number>();
let done = 0;
let fiveXX = 0;
let slow = 0;
let slowest = { ms: 0, what: '' };
const rssStart = process.memoryUsage().rss;
let rssPeak = rssStart;
const t0 = performance.now();

while (done < TOTAL) {
  const n = Math.min(BATCH, TOTAL - done);
  const batch = fc.sample(requestArb, { numRuns: n, seed: seed++ });
  let next = 0;
  const worker = async () => {
    while (next < batch.length) {
      const r = batch[next++]!;
      const [method, template] = r.route;
      const path = template.replace(/\{[^}]+\}/g, safeEncode(r.param)) + r.query;
      const headers: Record<string, string> = { 'content-type': r.contentType };
      if (r.withKey) headers.api_key = api_key;
      const a = await send(method, path, headers, method === 'GET' ? undefined : r.body);
      latencies[done++] = a.ms;
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      if (a.status >= 500 && a.status !== 501) fiveXX++;
      if (a.ms > SLOW_MS) slow++;
      if (a.ms > slowest.ms) slowest = { ms: a.ms, what: `${method} ${path.slice(0, 80)} (${a.status})` };
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  if (done % 10_000 === 0) console.log(`${done} requests, ${Math.round((performance.now() - t0) / 1000)} s`);
}

const sorted = Float64Array.from(latencies.subarray(0, done)).sort();
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const mb = (b: number) => `${Math.round(b / 2 ** 20)} MB`;
console.log(
  `\nrequests        ${done} over HTTP, ${CONCURRENCY} in flight, ${Math.round((performance.now() - t0) / 1000)} s`,
);
console.log(
  `statuses        ${[...statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([s, c]) => `${s}: ${c}`)
    .join(', ')}`,
);
console.log(`5xx (not 501)   ${fiveXX}`);
console.log(`answers > 5 s   ${slow}`);
console.log(
  `latency         p50 ${pct(0.5).toFixed(1)} ms, p99 ${pct(0.99).toFixed(1)} ms, max ${slowest.ms.toFixed(1)} ms`,
);
console.log(`slowest         ${slowest.what}`);
console.log(
  `RSS             start ${mb(rssStart)}, peak ${mb(rssPeak)}, end ${mb(process.memoryUsage().rss)}, growth ${mb(rssPeak - rssStart)}`,
);
agent.destroy();
await server.close();
engine.close();
