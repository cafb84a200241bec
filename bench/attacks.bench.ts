/**
 * The hostile requests a public server must bound (each answered with a documented 422), timed one by one
 * through the facade on the demo snapshot. Each attack runs in its own child process under a time limit (a
 * pre-fix run may never answer), so one stall cannot hide the others. Prints status, milliseconds and RSS
 * growth per attack.
 *
 *   node --import tsx bench/attacks.bench.ts [--limit-seconds 30] [--only NAME]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'limit-seconds': { type: 'string', default: '30' },
    only: { type: 'string' },
    child: { type: 'string' },
  },
});

/** A facade request, or a library call that bypasses the facade's schemas. */
type Attack =
  | { method: 'GET' | 'POST'; path: string; body?: unknown }
  | { library: 'autocomplete'; query: string }
  | { library: 'matchProspects'; company_name: string };
const ID = 'a'.repeat(32);
const ATTACKS: Record<string, () => Attack> = {
  'autocomplete query 10 KB': () => ({
    method: 'GET',
    path: `/v1/businesses/autocomplete?field=job_title&query=${'a'.repeat(10_000)}`,
  }),
  'autocomplete query 50 KB': () => ({
    method: 'GET',
    path: `/v1/businesses/autocomplete?field=job_title&query=${'a'.repeat(50_000)}`,
  }),
  'prospect company_name 1,000 chars': () => ({
    method: 'POST',
    path: '/v1/prospects/match',
    body: { prospects_to_match: [{ full_name: 'Jane Doe', company_name: 'a'.repeat(1_000) }] },
  }),
  'prospect company_name 10,000 chars': () => ({
    method: 'POST',
    path: '/v1/prospects/match',
    body: { prospects_to_match: [{ full_name: 'Jane Doe', company_name: 'a'.repeat(10_000) }] },
  }),
  'prospect company_name İ × 3,000': () => ({
    method: 'POST',
    path: '/v1/prospects/match',
    body: { prospects_to_match: [{ full_name: 'Jane Doe', company_name: 'İ'.repeat(3_000) }] },
  }),
  'events 10,000 unknown types': () => ({
    method: 'POST',
    path: '/v1/businesses/events',
    body: {
      event_types: Array.from({ length: 10_000 }, (_, i) => `unknown_${i}`),
      business_ids: [ID],
    },
  }),
  'library autocomplete 50 KB': () => ({ library: 'autocomplete', query: 'a'.repeat(50_000) }),
  'library matchProspects company_name 10,000': () => ({
    library: 'matchProspects',
    company_name: 'a'.repeat(10_000),
  }),
  'library matchProspects İ × 3,000': () => ({ library: 'matchProspects', company_name: 'İ'.repeat(3_000) }),
  'library matchProspects ﬃ × 1,000': () => ({ library: 'matchProspects', company_name: 'ﬃ'.repeat(1_000) }),
};

async function runChild(name: string): Promise<void> {
  const { createAccount } = await import('../src/account/accounts.js');
  const { handle } = await import('../src/facade/handle.js');
  const { openEngine } = await import('../src/engine.js');
  const engine = openEngine({ rateLimit: false } as never);
  await engine.load(fileURLToPath(new URL('../fixtures/demo', import.meta.url)));
  const { api_key } = await createAccount(engine, { name: 'bench', credits: 1_000_000_000 });
  const { autocomplete } = await import('../src/core/autocomplete.js');
  const { matchProspects } = await import('../src/core/match/batch.js');
  const a = ATTACKS[name]!();
  // Warm the indexes the attack touches with a harmless call of the same kind.
  autocomplete(engine, { field: 'job_title', query: 'eng', semantic_search: false });
  matchProspects(engine, [{ full_name: 'x', company_name: 'y' }]);
  const rss = process.memoryUsage().rss;
  const t = performance.now();
  let status = 200;
  if ('library' in a) {
    if (a.library === 'autocomplete')
      autocomplete(engine, { field: 'job_title', query: a.query, semantic_search: false });
    else matchProspects(engine, [{ full_name: 'Jane Doe', company_name: a.company_name }]);
  } else {
    const res = await handle(engine, { method: a.method, path: a.path, headers: { api_key }, body: a.body });
    status = res.status;
  }
  const ms = performance.now() - t;
  const grown = (process.memoryUsage().rss - rss) / 2 ** 20;
  console.log(JSON.stringify({ status, ms: Math.round(ms), rss_mb: Math.round(grown) }));
}

if (values.child) {
  await runChild(values.child);
} else {
  const limit = Number(values['limit-seconds']) * 1000;
  for (const name of Object.keys(ATTACKS)) {
    if (values.only && !name.includes(values.only)) continue;
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', name],
      { timeout: limit + 5_000, encoding: 'utf8' },
    );
    const line = r.stdout.trim().split('\n').at(-1) ?? '';
    const out = r.error || r.signal ? `no answer within ${limit / 1000} s (killed)` : line;
    console.log(`${name.padEnd(38)} ${out}`);
  }
}
