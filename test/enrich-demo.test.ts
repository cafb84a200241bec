/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../src/account/accounts.js';
import { ENRICHMENTS } from '../src/core/enrich/table.js';
import type { Engine } from '../src/engine.js';
import { buildRouter, handle } from '../src/facade/handle.js';
import { routes } from '../src/facade/routes/enrich.js';
import { decodeDoc } from '../src/store/codec.js';
import { demoEngine } from './support/demo.js';
import { account } from './support/job-child.js';

/** v1 field → v2 field (null = removed), per the Versioning section. */
const V2_CHANGES: Record<string, Record<string, string | null>> = {
  webstack: { money_spend_on_website_technologies: 'money_spent_on_website_technologies', entity_id: null },
  funding_and_acquisition: { latest_funding_increase_in_percents: 'latest_funding_increase_percentage' },
  'business:linkedin_posts': { display_name: null },
  company_ratings_by_employees: Object.fromEntries(
    ['company_city', 'company_country_code', 'company_region', 'company_street', 'company_zip_code'].map(
      (k) => [k, null],
    ),
  ),
  contacts_information: { emails: null, professions_email: 'professional_email' },
};
const PARAMS: Record<string, unknown> = { company_website_keywords: { keywords: ['data'] } };

const router = buildRouter(routes);
let engine: Engine;
let key: string;
let accountId: string;
beforeAll(async () => {
  engine = await demoEngine();
  const a = await account(engine);
  key = a.api_key;
  accountId = a.account_id;
});
afterAll(() => engine.close());

const post = async (path: string, body: unknown) =>
  (await handle(engine, { method: 'POST', path, headers: { api_key: key }, body }, router)) as {
    status: number;
    body: any;
  };

/** The first demo entity whose stored record has data for the enrichment. */
function sampleId(entity: 'business' | 'prospect', name: string): string {
  const table = entity === 'business' ? 'businesses' : 'prospects';
  const idCol = `${entity}_id`;
  for (const row of engine.db
    .prepare(`SELECT ${idCol} AS id, wire, rest FROM ${table}`)
    .iterate() as Iterable<{
    id: string;
    wire: Buffer;
    rest: Buffer;
  }>) {
    const rec = decodeDoc(table, row.wire, row.rest) as {
      enrichments: Record<string, unknown>;
      emails?: unknown[];
    };
    // Profiles, firmographics and technographics are built from the record itself.
    if (['profiles', 'firmographics', 'technographics'].includes(name)) return row.id;
    if (name === 'contacts_information' ? (rec.emails?.length ?? 0) > 0 : rec.enrichments[name] !== undefined)
      return row.id;
  }
  throw new Error(`no demo ${entity} with ${name}`);
}

describe.each(ENRICHMENTS.map((d) => [`${d.entity}:${d.name}`, d] as const))('demo %s', (_label, def) => {
  it('answers v1 enrich, bulk_enrich and v2 enrich with the v2 renames applied, charging per the menu', async () => {
    const plural = def.entity === 'business' ? 'businesses' : 'prospects';
    const idKey = `${def.entity}_id`;
    const id = sampleId(def.entity, def.name);
    const parameters = PARAMS[def.name];
    const cost = def.name === 'contacts_information' ? 5 : 1;

    const before = await balance(engine, accountId);
    const v1 = await post(`/v1/${plural}/${def.name}/enrich`, { [idKey]: id, parameters });
    expect(v1.status).toBe(200);
    expect(v1.body.entity_id).toBe(id);
    const bulk = await post(`/v1/${plural}/${def.name}/bulk_enrich`, { [`${idKey}s`]: [id], parameters });
    expect(bulk.body.data.every((r: any) => r[idKey] === id)).toBe(true);
    const v2 = await post(`/v2/${plural}/${def.v2Name}/enrich`, { [`${idKey}s`]: [id], parameters });
    expect(v2.status).toBe(200);
    expect(v2.body).not.toHaveProperty('entity_id');
    expect(before - (await balance(engine, accountId))).toBe(3 * cost);

    const v1Payloads: Record<string, unknown>[] = def.shape === 'list' ? v1.body.data : [v1.body.data];
    const v2Payloads: Record<string, unknown>[] =
      def.shape === 'list' ? v2.body.data[0].data : [v2.body.data[0].data];
    expect(v2Payloads).toHaveLength(v1Payloads.length);
    const changes = V2_CHANGES[def.name] ?? V2_CHANGES[`${def.entity}:${def.name}`] ?? {};
    v1Payloads.forEach((p, i) => {
      const expectedKeys = Object.keys(p)
        .map((k) => (k in changes ? changes[k] : k))
        .filter((k): k is string => k !== null && k !== 'entity_id');
      const v2Keys = Object.keys(v2Payloads[i]!);
      for (const k of expectedKeys) expect(v2Keys).toContain(k);
      for (const [from, to] of Object.entries(changes)) {
        if (to === null || from !== to) expect(v2Keys).not.toContain(from);
      }
    });
  });
});
