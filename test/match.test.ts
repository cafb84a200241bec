/** Match engine behaviour on the demo snapshot: shapes, order, documented rules, per-row errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  matchBusinesses,
  matchBusinessStream,
  matchProspects,
  matchProspectStream,
  type BusinessRowInput,
} from '../src/core/match/index.js';
import type { Engine } from '../src/engine.js';
import { BusinessesMatchRequest, ProspectsMatchRequest } from '../src/schemas/match.js';
import { KEY_KINDS, prospectKeysOfRecords } from '../src/store/load-keys.js';
import { demoEngine } from './support/demo.js';

let engine: Engine;

interface BizRow {
  business_id: string;
  name: string;
  name_key: string;
  domain: string;
  host: string;
  linkedin_slug: string | null;
}
interface ProRow {
  prospect_id: string;
  business_id: string;
  full_name: string;
  company_name: string;
}

/** A business whose domain and name key are both unique in the demo data. */
let biz: BizRow;
let other: BizRow;
let pro: ProRow;
let email: string;

beforeAll(async () => {
  engine = await demoEngine();
  const unique = engine.db
    .prepare(
      `SELECT business_id, name, name_key, domain, host, linkedin_slug FROM businesses b
       WHERE domain IS NOT NULL AND linkedin_slug IS NOT NULL
         AND (SELECT count(*) FROM businesses c WHERE c.name_key = b.name_key) = 1
         AND (SELECT count(*) FROM businesses c WHERE c.domain = b.domain) = 1
       ORDER BY rowid LIMIT 2`,
    )
    .all() as BizRow[];
  [biz, other] = unique as [BizRow, BizRow];
  // The first e-mail key of each prospect, derived from its stored record as the load derives it.
  const keys = prospectKeysOfRecords(engine.db);
  const emailOf = new Map<number, string>();
  keys.rows.forEach((row, i) => {
    if (KEY_KINDS[keys.kinds[i]!] === 'email' && !emailOf.has(row)) emailOf.set(row, keys.keys[i]!);
  });
  const candidates = engine.db
    .prepare(
      `SELECT p.rowid, p.prospect_id, p.business_id, p.full_name,
         (SELECT name FROM businesses WHERE rowid = p.business_rowid) AS company_name FROM prospects p
       WHERE p.business_id IS NOT NULL
         AND (SELECT count(*) FROM prospects q WHERE q.business_rowid = p.business_rowid AND q.name_key = p.name_key) = 1
         AND (SELECT count(*) FROM businesses c JOIN businesses d ON d.name_key = c.name_key
              WHERE c.rowid = p.business_rowid) = 1
       ORDER BY p.rowid`,
    )
    .all() as (ProRow & { rowid: number })[];
  const { rowid, ...first } = candidates.find((c) => emailOf.has(c.rowid))!;
  pro = first;
  email = emailOf.get(rowid)!;
});
afterAll(() => engine.close());

const nullBusiness = { name: null, domain: null, url: null, linkedin_url: null };
const nullProspect = {
  business_id: null,
  full_name: null,
  company_name: null,
  email: null,
  phone_number: null,
  linkedin: null,
};

describe('business match', () => {
  it('keeps input order, echoes every input key and returns null for an unmatched row', () => {
    const res = matchBusinesses(engine, [
      { name: 'Qwxzv Plorbington Unmatchable' },
      { domain: biz.domain },
      { name: other.name, domain: other.domain },
    ]);
    expect(res).toEqual({
      total_results: 3,
      total_matches: 2,
      matched_businesses: [
        { input: { ...nullBusiness, name: 'Qwxzv Plorbington Unmatchable' }, business_id: null },
        { input: { ...nullBusiness, domain: biz.domain }, business_id: biz.business_id },
        {
          input: { ...nullBusiness, name: other.name, domain: other.domain },
          business_id: other.business_id,
        },
      ],
    });
  });

  it('lets the domain decide when name and domain are both given', () => {
    const res = matchBusinesses(engine, [{ name: other.name, domain: `https://www.${biz.domain}/about` }]);
    expect(res.matched_businesses[0]?.business_id).toBe(biz.business_id);
  });

  it('matches a name only, exactly and with typos, case and without its legal suffix', () => {
    const typo = biz.name.replace(/([a-z])([a-z])/i, '$2$1');
    const res = matchBusinesses(engine, [
      { name: biz.name },
      { name: biz.name.toUpperCase() },
      { name: biz.name_key },
      { name: typo },
    ]);
    expect(res.matched_businesses.map((r) => r.business_id)).toEqual([
      biz.business_id,
      biz.business_id,
      biz.business_id,
      biz.business_id,
    ]);
  });

  it('matches the only business of a name written with another legal form at a lower confidence, and says so', () => {
    // A name with a word few names hold: another legal form on a name of common words stays open.
    const keys = (engine.db.prepare('SELECT business_id, name_key FROM businesses').all() as BizRow[]).filter(
      (b) => b.name_key !== '',
    );
    const held = new Map<string, number>();
    for (const b of keys) for (const w of new Set(b.name_key.split(' '))) held.set(w, (held.get(w) ?? 0) + 1);
    const rare = keys.find(
      (b) =>
        keys.filter((c) => c.name_key === b.name_key).length === 1 &&
        Math.min(...b.name_key.split(' ').map((w) => held.get(w)!)) <= 5,
    )!;
    const rows = [{ name: `${rare.name_key} GmbH & Co. KG` }];
    const res = matchBusinesses(engine, rows, { explain: true });
    expect(res.matched_businesses[0]?.business_id).toBe(rare.business_id);
    expect(res.matched_businesses[0]?.matched_on).toEqual(['name', 'legal_form_differs']);
    expect(res.matched_businesses[0]?.match_confidence).toBeLessThan(0.9);
    // A caller who wants only confident answers leaves it open, with the candidate among the alternatives.
    const strict = matchBusinesses(engine, rows, { minConfidence: 0.9, alternatives: 1 });
    expect(strict.matched_businesses[0]?.business_id).toBeNull();
    expect(strict.matched_businesses[0]?.alternatives?.[0]?.id).toBe(rare.business_id);
  });

  it('returns no match for an invalid domain, even with a name', () => {
    const res = matchBusinesses(engine, [
      { name: biz.name, domain: 'not a domain' },
      { domain: 'localhost' },
    ]);
    expect(res.matched_businesses.map((r) => r.business_id)).toEqual([null, null]);
    expect(res.total_matches).toBe(0);
  });

  it('matches profile URL variants', () => {
    const res = matchBusinesses(engine, [
      { linkedin_url: `https://uk.linkedin.com/company/${biz.linkedin_slug}/about/?trk=x` },
      { linkedin_url: `LINKEDIN.COM/company/${biz.linkedin_slug}` },
    ]);
    expect(res.matched_businesses.map((r) => r.business_id)).toEqual([biz.business_id, biz.business_id]);
  });

  it('answers a row without any identifier with a per-row error and matches the others', () => {
    const res = matchBusinesses(engine, [{}, { name: '  ' }, { domain: biz.domain }]);
    expect(res.matched_businesses[0]).toEqual({
      input: nullBusiness,
      business_id: null,
      error: 'At least one identifier is required',
      error_type: 'missing_identifier',
    });
    expect(res.matched_businesses[1]?.error_type).toBe('missing_identifier');
    expect(res.matched_businesses[2]?.business_id).toBe(biz.business_id);
    expect(res).toMatchObject({ total_results: 3, total_matches: 1 });
  });

  it('explains and lists alternatives only when asked', () => {
    const plain = matchBusinesses(engine, [{ domain: biz.domain, name: biz.name }]);
    expect(Object.keys(plain.matched_businesses[0]!)).toEqual(['input', 'business_id']);
    const explained = matchBusinesses(engine, [{ domain: biz.domain, name: biz.name }], {
      explain: true,
      alternatives: 3,
    });
    expect(explained.matched_businesses[0]).toMatchObject({
      business_id: biz.business_id,
      match_confidence: 1,
      matched_on: ['domain', 'name'],
      alternatives: [],
    });
  });

  it('is deterministic and answers each row as it would alone', () => {
    const rows: BusinessRowInput[] = [
      { name: biz.name },
      { name: 'zzz' },
      {},
      { domain: other.domain },
      { name: other.name.slice(0, -1) },
    ];
    const batch = matchBusinesses(engine, rows, { explain: true }).matched_businesses;
    const alone = rows.map((r) => matchBusinesses(engine, [r], { explain: true }).matched_businesses[0]);
    expect(batch).toEqual(alone);
    expect(matchBusinesses(engine, rows, { explain: true }).matched_businesses).toEqual(batch);
  });

  it('streams any number of rows in order', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) =>
      i % 3 === 0 ? { domain: biz.domain } : i % 3 === 1 ? {} : { name: other.name },
    );
    async function* source() {
      yield* rows;
    }
    const out: (string | null)[] = [];
    for await (const r of matchBusinessStream(engine, source(), { chunkSize: 700 })) out.push(r.business_id);
    expect(out).toEqual(
      rows.map((_, i) => (i % 3 === 0 ? biz.business_id : i % 3 === 1 ? null : other.business_id)),
    );
  });
});

describe('prospect match', () => {
  it('matches exact e-mail keys, whatever the case', () => {
    const res = matchProspects(engine, [
      { email: email.toUpperCase() },
      { email: 'nobody-at-all@example.org' },
    ]);
    expect(res).toEqual({
      total_results: 2,
      total_matches: 1,
      matched_prospects: [
        { input: { ...nullProspect, email: email.toUpperCase() }, prospect_id: pro.prospect_id },
        { input: { ...nullProspect, email: 'nobody-at-all@example.org' }, prospect_id: null },
      ],
    });
  });

  it('matches a full name within a company given by name or by business_id', () => {
    const res = matchProspects(engine, [
      { full_name: pro.full_name, company_name: pro.company_name },
      { full_name: pro.full_name.toLowerCase(), business_id: pro.business_id },
    ]);
    expect(res.matched_prospects.map((r) => r.prospect_id)).toEqual([pro.prospect_id, pro.prospect_id]);
  });

  it('answers a full name without a company (and the reverse) with a per-row error unless an exact key is given', () => {
    const res = matchProspects(engine, [
      { full_name: pro.full_name },
      { company_name: pro.company_name },
      { business_id: pro.business_id, email },
      { email },
      {},
      { full_name: pro.full_name, email },
      { company_name: pro.company_name, email: 'nobody@example.invalid' },
    ]);
    expect(res.matched_prospects.map((r) => [r.prospect_id, r.error_type ?? null])).toEqual([
      [null, 'missing_company'],
      [null, 'missing_full_name'],
      [pro.prospect_id, null],
      [pro.prospect_id, null],
      [null, 'missing_identifier'],
      [pro.prospect_id, null],
      [null, null],
    ]);
    expect(res.matched_prospects[0]?.error).toBe(
      'full_name must be accompanied by company_name or business_id',
    );
    expect(res.total_matches).toBe(3);
  });

  it('restricts a name match to the given business_id', () => {
    const elsewhere = engine.db
      .prepare(
        `SELECT business_id FROM businesses b WHERE NOT EXISTS (SELECT 1 FROM prospects p WHERE p.business_rowid = b.rowid
           AND p.name_key = (SELECT name_key FROM prospects WHERE prospect_id = ?)) ORDER BY rowid LIMIT 1`,
      )
      .get(pro.prospect_id) as { business_id: string };
    const res = matchProspects(engine, [{ full_name: pro.full_name, business_id: elsewhere.business_id }]);
    expect(res.matched_prospects[0]?.prospect_id).toBeNull();
  });

  it('streams prospect rows in order', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => (i % 2 ? { email } : { email: 'x@y.org' }));
    const out: (string | null)[] = [];
    for await (const r of matchProspectStream(engine, rows, { chunkSize: 256 })) out.push(r.prospect_id);
    expect(out).toEqual(rows.map((_, i) => (i % 2 ? pro.prospect_id : null)));
  });
});

describe('match request schemas', () => {
  it('take 1 to 50 strict rows with nullable fields', () => {
    expect(
      BusinessesMatchRequest.safeParse({ businesses_to_match: [{ name: 'x', domain: null }] }).success,
    ).toBe(true);
    expect(BusinessesMatchRequest.safeParse({ businesses_to_match: [] }).success).toBe(false);
    expect(BusinessesMatchRequest.safeParse({ businesses_to_match: Array(51).fill({}) }).success).toBe(false);
    expect(BusinessesMatchRequest.safeParse({ businesses_to_match: [{ nam: 'x' }] }).success).toBe(false);
    expect(
      BusinessesMatchRequest.safeParse({ businesses_to_match: [{ name: 'x'.repeat(257) }] }).success,
    ).toBe(false);
    expect(
      ProspectsMatchRequest.safeParse({
        request_context: {},
        prospects_to_match: [{ full_name: null, email: 'a@b.co' }],
      }).success,
    ).toBe(true);
    expect(
      ProspectsMatchRequest.safeParse({ prospects_to_match: [{ email: 'a@b.co' }], extra: 1 }).success,
    ).toBe(false);
  });
});
