/**
 * Person matching: the ways people write names and phone numbers, a company of 20,000 people, one
 * decision per row whatever is asked for, and `min_confidence` on every surface (library batch and
 * stream, facade v1/v2 bodies, MCP tool schema, CLI).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import { run as runMatchCli } from '../src/cli/commands/match.js';
import {
  matchBusinesses,
  matchProspectRows,
  matchProspects,
  matchProspectStream,
  type ProspectRowInput,
} from '../src/core/match/index.js';
import {
  emailEvidence,
  localPartWords,
  personNameScore,
  personQuery,
} from '../src/core/match/person-score.js';
import { openEngine, type Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { inputJsonSchema, TOOLS_BY_NAME } from '../src/mcp/tools.js';
import { nameSkeleton, personTokens } from '../src/normalise/index.js';
import { writeSnapshotFiles } from '../fixtures/write-snapshot.js';
import { tempDir } from './support/temp.js';

const bid = (i: number) => `b${i.toString(16).padStart(31, '0')}`;
const pid = (i: number) => `a${i.toString(16).padStart(39, '0')}`;

/** A made-up family name per number: 8 letters drawn from a hash, so names are far apart. */
function familyName(n: number): string {
  let h = (n + 1) * 0x9e3779b1;
  let out = '';
  for (let k = 0; k < 8; k++) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    out += 'abcdefghijklmnopqrstuvwxyz'[h % 26];
  }
  return out;
}
const GIVEN = ['john', 'mary', 'david', 'sarah', 'michael', 'laura', 'peter', 'anna', 'james', 'emma'];
/** Employee `i` of the large company: ten given names, each family holds one of each. */
const bigName = (i: number) => `${GIVEN[i % 10]} ${familyName(Math.floor(i / 10))}`;

interface Person {
  name: string;
  company: number;
  phone?: string;
}

/** Three companies (GB, DE, US) and their people; company 3 has `big` generated employees. */
function writeSnapshot(dir: string, people: Person[], big: number): void {
  mkdirSync(dir, { recursive: true });
  const companies = [
    ['Brightwell Logistics Ltd', 'brightwell.co.uk', 'gb'],
    ['Kestrel Maschinenbau GmbH', 'kestrel.de', 'de'],
    ['Harbour Analytics Inc', 'harbouranalytics.com', 'us'],
    ['Megacorp Holdings Inc', 'megacorp.com', 'us'],
  ];
  const businesses = companies.map(([name, domain, cc], i) =>
    JSON.stringify({ business_id: bid(i), name, domain, website: `https://${domain}`, country_code: cc }),
  );
  const prospects = people.map((p, i) =>
    JSON.stringify({
      prospect_id: pid(i),
      business_id: bid(p.company),
      full_name: p.name,
      job_title: 'Engineer',
      emails: [],
      phone_numbers: p.phone ? [{ phone_number: p.phone, type: 'work', source: 'test' }] : [],
    }),
  );
  // A large company: surnames and given names from small lists, so many people share each word.
  for (let i = 0; i < big; i++) {
    prospects.push(
      JSON.stringify({
        prospect_id: pid(people.length + i),
        business_id: bid(3),
        full_name: bigName(i),
        job_title: 'Engineer',
        emails: [],
        phone_numbers: [],
      }),
    );
  }
  writeSnapshotFiles(dir, businesses, prospects);
}

const PEOPLE: Person[] = [
  { name: 'Jonathan Smith', company: 0, phone: '+442079460958' },
  { name: 'Margaret Thompson', company: 0 },
  { name: 'Thomas Müller', company: 1, phone: '+49301234567' },
  { name: 'Søren Großmann', company: 1 },
  { name: 'María García-López', company: 1 },
  { name: 'Robert Johnson Jr.', company: 2, phone: '+14155550123' },
  { name: 'Elizabeth Anne Warren', company: 2 },
  { name: 'Christopher Nguyen', company: 2 },
  { name: 'Sem de Jong', company: 2 },
  { name: 'Katherine Okafor', company: 0 },
];
const BIG = 20_000;
const CO = ['Brightwell Logistics', 'Kestrel Maschinenbau', 'Harbour Analytics', 'Megacorp Holdings'];

let engine: Engine;
let dbPath: string;
let apiKey: string;

beforeAll(async () => {
  const dir = tempDir('persons-');
  writeSnapshot(join(dir, 'snapshot'), PEOPLE, BIG);
  dbPath = join(dir, 'db.sqlite');
  engine = openEngine({ path: dbPath, rateLimit: false } as Parameters<typeof openEngine>[0]);
  await engine.load(join(dir, 'snapshot'), { strict: true });
  apiKey = (await createAccount(engine, { name: 'Tester' })).api_key;
}, 60_000);
afterAll(() => engine?.close());

const one = (row: ProspectRowInput, options = {}) => matchProspectRows(engine, [row], options)[0]!;
const idOf = (row: ProspectRowInput) => one(row).prospect_id;

describe('person names as people write them', () => {
  it('reads words the same way whatever the spelling', () => {
    expect(personTokens('Müller-Lüdenscheidt, Dr. Hans')).toEqual(['hans', 'muler', 'ludenscheidt']);
    expect(personTokens('Prof. María García López PhD')).toEqual(['maria', 'garcia', 'lopez']);
    expect(personTokens('SMITH, JOHN')).toEqual(['john', 'smith']);
    expect(nameSkeleton('mueller')).toBe(nameSkeleton('muller'));
    expect(personTokens('Søren Großmann')).toEqual(personTokens('Soren Grossman'));
  });

  it.each([
    ['Jonathan Smith', 0, 0],
    ['Smith, Jonathan', 0, 0],
    ['Smith Jonathan', 0, 0],
    ['J. Smith', 0, 0],
    ['Smith J', 0, 0],
    ['Mr. Jonathan Smith', 0, 0],
    ['Jonathon Smyth', 0, 0],
    ['Jonahtan Smith', 0, 0],
    ['Jon Smith', 0, 0],
    ['Maggie Thompson', 0, 1],
    ['Thomas Mueller', 1, 2],
    ['THOMAS MULLER', 1, 2],
    ['Soeren Grossmann', 1, 3],
    ['Maria Garcia Lopez', 1, 4],
    ['Maria Garcia', 1, 4],
    ['María Garcialopez', 1, 4],
    ['Bob Johnson', 2, 5],
    ['Robert Johnson III', 2, 5],
    ['Dr. Robert Johnson, PhD', 2, 5],
    ['Elizabeth Warren', 2, 6],
    ['Liz A. Warren', 2, 6],
    ['Chris Nguyen', 2, 7],
    ['Kathrine Okafor', 0, 9],
  ])('%s at company %i is prospect %i', (name, company, want) => {
    expect(idOf({ full_name: name, company_name: CO[company] })).toBe(pid(want));
    expect(idOf({ full_name: name, business_id: bid(company) })).toBe(pid(want));
  });

  it('keeps other people unmatched: another given name, another family name behind a shared particle', () => {
    expect(idOf({ full_name: 'Michael Smith', company_name: CO[0] })).toBeNull();
    expect(idOf({ full_name: 'Jonathan Smith', company_name: CO[2] })).toBeNull();
    expect(idOf({ full_name: 'Sem de Vries', company_name: CO[2] })).toBeNull();
    expect(idOf({ full_name: 'Margaret Smith', company_name: CO[0] })).toBeNull();
  });

  it('scores a name against itself 1 and unrelated names low', () => {
    const q = personQuery('Jonathan Smith')!;
    expect(personNameScore(q, 'jonathan smith')).toBe(1);
    expect(personNameScore(q, 'margaret thompson')).toBeLessThan(0.5);
  });
});

describe('e-mail local parts as evidence about a name', () => {
  it('reads the name words of a local part', () => {
    expect(localPartWords('J.Smith+news@example.com')).toEqual(['j', 'smith']);
    expect(localPartWords('maria_garcia-lopez2@example.com')).toEqual(['maria', 'garcia', 'lopez']);
    expect(localPartWords('Mueller.Thomas@example.de')).toEqual(['muler', 'thomas']);
    expect(localPartWords('1234@example.com')).toBeNull();
  });

  it.each([
    ['john.smith', 'jonathan smith', 2],
    ['john.smith', 'john smith', 1],
    ['j.smith', 'john smith', 1],
    ['jsmith', 'john smith', 1],
    ['smithj', 'john smith', 1],
    ['johnsmith', 'john smith', 1],
    ['smith.john', 'john smith', 1],
    ['john_a_smith', 'john smith', 1],
    ['john', 'john smith', 2],
    ['smith.j77', 'john smith', 1],
    ['mary.jones', 'john smith', 3],
    ['mjones', 'john smith', 3],
  ])('%s@ about %s: %i (1 agrees, 2 partial, 3 differs)', (local, stored, want) => {
    expect(emailEvidence(localPartWords(`${local}@example.com`), stored)).toBe(want);
  });

  it("an address written from one namesake's name settles between two people the name alone cannot", () => {
    const family = familyName(5); // employees 50 (john) and 58 (james) of the large company
    const john = pid(PEOPLE.length + 50);
    expect(idOf({ full_name: `J ${family}`, company_name: CO[3] })).toBeNull();
    expect(idOf({ full_name: `J ${family}`, email: `john.${family}@megacorp.com` })).toBe(john);
    expect(
      idOf({ full_name: `J ${family}`, email: `j${family}@megacorp.com`, company_name: CO[3] }),
    ).toBeNull();
    // A colleague's address is evidence against: the same name is trusted less beside it.
    const confidence = (email?: string) =>
      one({ full_name: `John ${family}`, email, company_name: CO[3] }, { minConfidence: 0, explain: true })
        .match_confidence!;
    expect(confidence(`mary.${family}@megacorp.com`)).toBeLessThan(confidence());
    expect(confidence()).toBeLessThanOrEqual(confidence(`john.${family}@megacorp.com`));
    expect(idOf({ full_name: `John ${family}`, email: `john.${family}@megacorp.com` })).toBe(john);
  });
});

describe('phone numbers in every common written form', () => {
  it.each([
    ['020 7946 0958', 0, 0],
    ['(020) 7946-0958', 0, 0],
    ['020.7946.0958', 0, 0],
    ['+44 (0)20 7946 0958', null, 0],
    ['0044 20 7946 0958', null, 0],
    ['020 7946 0958 ext. 12', 0, 0],
    ['030 1234567', 1, 2],
    ['0049 30 1234567', null, 2],
    ['(415) 555-0123', 2, 5],
    ['415.555.0123 x45', 2, 5],
    ['+1-415-555-0123', null, 5],
  ])('%s (company %s) is prospect %i', (phone, company, want) => {
    // Without a company, a national number is read as North American.
    if (company === null || company === 2) expect(idOf({ phone_number: phone })).toBe(pid(want));
    if (company !== null) {
      expect(idOf({ phone_number: phone, business_id: bid(company) })).toBe(pid(want));
      // The company named by name lends its country to a national number.
      expect(idOf({ phone_number: phone, full_name: 'x', company_name: CO[company] })).toBe(pid(want));
    }
  });
});

describe('a company of 20,000 people', () => {
  it('finds people by name among thousands who share each word, and leaves ambiguous names alone', () => {
    const i = 4322; // david: the only given name starting with d
    const q = (name: string) => idOf({ full_name: name, business_id: bid(3) });
    const g = GIVEN[i % 10] as string;
    const fam = familyName(Math.floor(i / 10));
    expect(q(`${g} ${fam}`)).toBe(pid(PEOPLE.length + i));
    expect(q(`${fam}, ${g}`)).toBe(pid(PEOPLE.length + i));
    expect(q(`${g[0]}. ${fam}`)).toBe(pid(PEOPLE.length + i));
    // "M. Family" could be mary or michael: no match.
    expect(q(`m. ${fam}`)).toBeNull();
    // Typos in the family name (a letter dropped, two letters swapped) still find the person.
    expect(q(`${g} ${fam.slice(0, 3)}${fam.slice(4)}`)).toBe(pid(PEOPLE.length + i));
    expect(q(`${g} ${fam.slice(0, 2)}${fam[3]}${fam[2]}${fam.slice(4)}`)).toBe(pid(PEOPLE.length + i));
    // 2,000 people share the given name, ten the family name: neither alone is a match.
    expect(q(`${g} zzzzqqqq`)).toBeNull();
    expect(q(fam)).toBeNull();
  });
});

/** Rows drawn from the people above, written several ways. */
const rowArb = fc
  .record({
    p: fc.integer({ min: 0, max: PEOPLE.length - 1 }),
    big: fc.integer({ min: 0, max: BIG - 1 }),
    useBig: fc.boolean(),
    form: fc.constantFrom('as_is', 'swapped', 'initial', 'typo', 'upper', 'comma', 'only_last'),
    by: fc.constantFrom('company_name', 'business_id'),
    company: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ p, big, useBig, form, by, company }): ProspectRowInput => {
    const name = useBig ? bigName(big) : PEOPLE[p]!.name;
    const words = name.split(' ');
    const first = words[0]!;
    const last = words[words.length - 1]!;
    const written = {
      as_is: name,
      swapped: `${last} ${first}`,
      initial: `${first[0]}. ${last}`,
      typo: name.slice(0, 2) + name.slice(3),
      upper: name.toUpperCase(),
      comma: `${last}, ${first}`,
      only_last: last,
    }[form];
    return by === 'company_name'
      ? { full_name: written, company_name: CO[company] }
      : { full_name: written, business_id: bid(company) };
  });

describe('one decision per row', () => {
  it('plain, explained, alternatives and min_confidence-0.8-like runs answer the same ids', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 20 }), (rows) => {
        const plain = matchProspectRows(engine, rows).map((r) => r.prospect_id);
        expect(matchProspectRows(engine, rows, { explain: true }).map((r) => r.prospect_id)).toEqual(plain);
        expect(matchProspectRows(engine, rows, { alternatives: 3 }).map((r) => r.prospect_id)).toEqual(plain);
        expect(
          matchProspectRows(engine, rows, { explain: true, alternatives: 1 }).map((r) => r.prospect_id),
        ).toEqual(plain);
      }),
      { numRuns: 60 },
    );
  });
});

describe('min_confidence', () => {
  const rows: ProspectRowInput[] = [
    { full_name: 'Jonathan Smith', company_name: CO[0] },
    { full_name: 'Jonahtan Smith', company_name: CO[0] },
    { full_name: 'J. Smith', business_id: bid(0) },
    { full_name: 'Michael Smith', company_name: CO[0] },
    { full_name: 'Smith', company_name: CO[0] },
    { phone_number: '020 7946 0958', business_id: bid(0) },
  ];

  it('absent leaves the default answer byte for byte', () => {
    const a = JSON.stringify(matchProspects(engine, rows));
    expect(JSON.stringify(matchProspects(engine, rows, {}))).toBe(a);
    expect(JSON.stringify(matchProspects(engine, rows, { minConfidence: undefined }))).toBe(a);
  });

  it('matches a row iff its best candidate reaches the threshold; below it, the candidate is an alternative', () => {
    const all = matchProspectRows(engine, rows, { explain: true, minConfidence: 0 });
    for (const t of [0, 0.3, 0.5, 0.8, 0.9, 0.99, 1]) {
      const out = matchProspectRows(engine, rows, { explain: true, alternatives: 2, minConfidence: t });
      out.forEach((r, i) => {
        const best = all[i]!;
        if (best.prospect_id !== null && best.match_confidence! >= t) {
          expect(r.prospect_id).toBe(best.prospect_id);
          expect(r.match_confidence).toBe(best.match_confidence);
        } else {
          expect(r.prospect_id).toBeNull();
          if (best.prospect_id !== null) expect(r.alternatives![0]!.id).toBe(best.prospect_id);
        }
      });
    }
    // Lowering the threshold never loses a match.
    const count = (t: number) =>
      matchProspectRows(engine, rows, { minConfidence: t }).filter((r) => r.prospect_id !== null).length;
    expect(count(0)).toBeGreaterThanOrEqual(count(0.5));
    expect(count(0.5)).toBeGreaterThanOrEqual(count(0.99));
    expect(count(0)).toBeGreaterThan(count(1));
  });

  it('rejects a threshold outside 0–1 in the batch and stream APIs', () => {
    expect(() => matchProspects(engine, rows, { minConfidence: 1.5 })).toThrow(RangeError);
    expect(() => matchBusinesses(engine, [{ name: 'x' }], { minConfidence: -0.1 })).toThrow(RangeError);
    expect(() => matchProspectStream(engine, rows, { minConfidence: Number.NaN })).toThrow(RangeError);
  });

  it('streams with the threshold', async () => {
    const out = [];
    for await (const r of matchProspectStream(engine, rows, { minConfidence: 1, chunkSize: 2 })) out.push(r);
    expect(out.map((r) => r.prospect_id)).toEqual(
      matchProspectRows(engine, rows, { minConfidence: 1 }).map((r) => r.prospect_id),
    );
  });

  it.each(['/v1', '/v2'])('is an optional body field of %s match routes, 422 outside 0–1', async (v) => {
    const post = (path: string, body: unknown) =>
      handle(engine, { method: 'POST', path: `${v}${path}`, headers: { api_key: apiKey }, body });
    const plain = await post('/prospects/match', { prospects_to_match: rows });
    const withMin = await post('/prospects/match', { prospects_to_match: rows, min_confidence: 0 });
    const strict = await post('/prospects/match', { prospects_to_match: rows, min_confidence: 1 });
    expect(plain.status).toBe(200);
    const ids = (r: typeof plain) =>
      (r.body as { matched_prospects: { prospect_id: string | null }[] }).matched_prospects.map(
        (x) => x.prospect_id,
      );
    expect(ids(plain)).toEqual(matchProspectRows(engine, rows).map((r) => r.prospect_id));
    expect(ids(withMin)).toEqual(
      matchProspectRows(engine, rows, { minConfidence: 0 }).map((r) => r.prospect_id),
    );
    expect(ids(strict)).toEqual(
      matchProspectRows(engine, rows, { minConfidence: 1 }).map((r) => r.prospect_id),
    );
    const biz = await post('/businesses/match', {
      businesses_to_match: [{ name: 'Brightwell' }],
      min_confidence: 0.5,
    });
    expect(biz.status).toBe(200);
    for (const bad of [1.5, -0.1, 'high', true]) {
      for (const [path, key] of [
        ['/prospects/match', 'prospects_to_match'],
        ['/businesses/match', 'businesses_to_match'],
      ] as const) {
        const r = await post(path, { [key]: [{ full_name: 'x' }].map(() => ({})), min_confidence: bad });
        expect(r.status).toBe(422);
        const detail = (r.body as { detail: { loc: unknown[] }[] }).detail;
        expect(detail.some((d) => JSON.stringify(d.loc) === JSON.stringify(['body', 'min_confidence']))).toBe(
          true,
        );
      }
    }
  });

  it('appears in the MCP match tools input schemas (derived from the route schemas)', () => {
    for (const name of ['match_prospects', 'match_businesses']) {
      const schema = inputJsonSchema(TOOLS_BY_NAME.get(name)!) as unknown as {
        properties: Record<string, unknown>;
      };
      expect(schema.properties).toHaveProperty('min_confidence');
    }
  });

  it('is a CLI flag: prospectdb match --min-confidence X', async () => {
    const dir = tempDir('persons-cli-');
    const input = join(dir, 'rows.jsonl');
    writeFileSync(input, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const runCli = async (args: string[]) => {
      let out = '';
      const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
        out += String(chunk);
        return true;
      });
      const err = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const code = await runMatchCli(['--db', dbPath, '--prospects', input, '-q', ...args]);
        return {
          code,
          rows:
            out.trim() === ''
              ? []
              : out
                  .trim()
                  .split('\n')
                  .map((l) => JSON.parse(l)),
        };
      } finally {
        write.mockRestore();
        err.mockRestore();
      }
    };
    const strict = await runCli(['--min-confidence', '1', '--alternatives', '1']);
    expect(strict.code).toBe(0);
    expect(strict.rows.map((r: { prospect_id: string | null }) => r.prospect_id)).toEqual(
      matchProspectRows(engine, rows, { minConfidence: 1 }).map((r) => r.prospect_id),
    );
    expect((await runCli(['--min-confidence', '2'])).code).toBe(2);
    expect((await runCli(['--min-confidence', 'x'])).code).toBe(2);
  });
});
