/**
 * The functions the README shows library users are importable from the package entry and answer on the
 * demo snapshot: the core without accounts or credits, the match streams and the HTTP adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  autocomplete,
  businessStats,
  fetchBusinesses,
  fetchProspects,
  matchBusinesses,
  matchBusinessStream,
  matchProspects,
  openEngine,
  prospectStats,
  type Engine,
} from '../src/index.js';
import { serve } from '../src/server.js';
import { DEMO_DIR, DEMO_NOW } from './support/demo.js';

let engine: Engine;
let business: { business_id: string; name: string; domain: string };

beforeAll(async () => {
  engine = openEngine({ clock: () => DEMO_NOW });
  await engine.load(DEMO_DIR, { strict: true });
  business = engine.db
    .prepare('SELECT business_id, name, domain FROM businesses WHERE domain IS NOT NULL LIMIT 1')
    .get() as typeof business;
});
afterAll(() => engine.close());

describe('the package entry', () => {
  it('fetches a page and counts the same set as stats', () => {
    const request = { mode: 'preview', page_size: 5, filters: { country_code: { values: ['us'] } } } as const;
    const page = fetchProspects(engine, request as never, 1);
    const stats = prospectStats(engine, { filters: request.filters } as never);
    expect(page.data).toHaveLength(5);
    expect(page.total_results).toBe(stats.total_results);
    expect(fetchBusinesses(engine, { mode: 'preview', page_size: 2 } as never, 1).data).toHaveLength(2);
    expect(businessStats(engine, {} as never).total_results).toBe(engine.info().counts.businesses);
  });

  it('autocompletes a company name from its first letters', () => {
    const prefix = business.name.slice(0, 4);
    const items = autocomplete(engine, { field: 'company_name', query: prefix, semantic_search: false });
    expect(items.map((i) => i.value)).toContain(business.name);
  });

  it('matches in a batch and as a stream, with the same answers', async () => {
    const rows = [{ domain: business.domain }, { name: 'No Such Company Anywhere Zzqx' }];
    const batch = matchBusinesses(engine, rows);
    expect(batch.matched_businesses.map((r) => r.business_id)).toEqual([business.business_id, null]);
    const streamed = [];
    for await (const row of matchBusinessStream(engine, rows)) streamed.push(row.business_id);
    expect(streamed).toEqual([business.business_id, null]);
    expect(matchProspects(engine, [{ email: 'nobody@nowhere.invalid' }]).total_matches).toBe(0);
  });

  it('serves the facade over HTTP on loopback', async () => {
    const server = await serve(engine, { port: 0, host: '127.0.0.1', warm: false });
    try {
      const res = await fetch(`${server.url}/healthcheck/http`);
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
