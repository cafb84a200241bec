/**
 * Test and bench support: the heaviest requests the API takes on the demo data (50-row match batches
 * with typos, full-record fetch pages, stats without filters, 50-id bulk enrichments, research), built
 * from the engine's own rows so every one of them does real work.
 */
import type { Engine } from '../../src/engine.js';

export interface HeavyRequest {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** Swaps two neighbouring letters in the middle of a word: a typo the fuzzy matcher must undo. */
function typo(s: string): string {
  if (s.length < 4) return s;
  const i = Math.floor(s.length / 2);
  return s.slice(0, i - 1) + s[i] + s[i - 1] + s.slice(i + 1);
}

/** The heavy requests, one per route family. */
export function heavyRequests(engine: Engine): HeavyRequest[] {
  const businesses = engine.db
    .prepare('SELECT business_id, name, domain FROM businesses ORDER BY rowid DESC LIMIT 50')
    .all() as { business_id: string; name: string; domain: string | null }[];
  const prospects = engine.db
    .prepare('SELECT prospect_id FROM prospects ORDER BY rowid DESC LIMIT 50')
    .all() as { prospect_id: string }[];
  const people = prospects.map((p) => personOf(engine, p.prospect_id));
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'Company name' },
      technologies: { type: 'array', items: { type: 'string' } },
      employees: { type: 'integer', description: 'number of employees' },
    },
  };
  return [
    {
      name: 'match businesses ×50 (typos)',
      method: 'POST',
      path: '/v1/businesses/match',
      body: { businesses_to_match: businesses.map((b) => ({ name: typo(b.name) })) },
    },
    {
      name: 'match prospects ×50 (typos)',
      method: 'POST',
      path: '/v1/prospects/match',
      body: {
        prospects_to_match: people.map((p) => ({
          full_name: typo(p.full_name),
          company_name: typo(p.company_name),
        })),
      },
    },
    {
      name: 'fetch prospects page 500 (full)',
      method: 'POST',
      path: '/v1/prospects',
      body: { mode: 'full', page_size: 500, size: 500 },
    },
    {
      name: 'fetch businesses page 500 (full)',
      method: 'POST',
      path: '/v1/businesses',
      body: { mode: 'full', page_size: 500, size: 500 },
    },
    { name: 'stats prospects', method: 'POST', path: '/v1/prospects/stats', body: { filters: null } },
    { name: 'stats businesses', method: 'POST', path: '/v1/businesses/stats', body: { filters: null } },
    {
      name: 'bulk enrich firmographics ×50',
      method: 'POST',
      path: '/v1/businesses/firmographics/bulk_enrich',
      body: { business_ids: businesses.map((b) => b.business_id) },
    },
    {
      name: 'bulk enrich profiles ×50',
      method: 'POST',
      path: '/v1/prospects/profiles/bulk_enrich',
      body: { prospect_ids: prospects.map((p) => p.prospect_id) },
    },
    {
      name: 'research ×50',
      method: 'POST',
      path: '/v2/businesses/research/enrich',
      body: {
        parameters: { output_schema: schema, query: 'Profile {name}' },
        businesses: businesses.map((b) => ({ business_id: b.business_id })),
      },
    },
    {
      name: 'autocomplete',
      method: 'GET',
      path: '/v2/autocomplete?field=job_title&query=enginer',
    },
  ];
}

function personOf(engine: Engine, id: string): { full_name: string; company_name: string } {
  const row = engine.db
    .prepare(
      `SELECT p.full_name AS full_name, coalesce(b.name, '') AS company_name
         FROM prospects p LEFT JOIN businesses b ON b.business_id = p.business_id
        WHERE p.prospect_id = ?`,
    )
    .get(id) as { full_name: string; company_name: string };
  return row;
}
