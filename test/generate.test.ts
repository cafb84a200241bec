import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { unpackMultiple } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DEMO_DIR } from '../fixtures/generate.js';
import { JOB_TITLES } from '../tools/generate/data/jobs.js';
import { workLocalPart } from '../tools/generate/person.js';
import type { EmailPattern } from '../tools/generate/business-core.js';
import { generateSnapshot, makePlan, prospects } from '../tools/generate/index.js';
import { companyKey, normaliseEmail } from '../src/normalise/index.js';
import { BUSINESS_EVENT_TYPES, PROSPECT_EVENT_TYPES } from '../src/schemas/enums.js';
import { BusinessRecord, EventRecord, ProspectRecord } from '../src/schemas/records.js';

type Row = Record<string, unknown>;
const PATTERNS: EmailPattern[] = ['first.last', 'flast', 'first', 'firstl', 'first_last'];
const DAY = 86_400_000;

let work: string;
const read = (dir: string, name: string): string => {
  const gz = join(dir, `${name}.jsonl.gz`);
  try {
    return gunzipSync(readFileSync(gz)).toString('utf8');
  } catch {
    return readFileSync(join(dir, `${name}.jsonl`), 'utf8');
  }
};
const rows = (text: string): Row[] =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Row);

// The committed demo is the main subject: it is what people load and what must stay valid.
const demo = {
  businesses: rows(read(DEMO_DIR, 'businesses')),
  prospects: rows(read(DEMO_DIR, 'prospects')),
  events: rows(read(DEMO_DIR, 'events')),
};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'prospectdb-generate-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('generateSnapshot', () => {
  it('matches the committed demo snapshot byte for byte (fixtures/generate.ts regenerates it)', async () => {
    const dir = join(work, 'demo');
    await generateSnapshot({ dir, ...DEMO });
    for (const stream of ['businesses', 'prospects', 'events'])
      expect(read(dir, stream) === read(DEMO_DIR, stream)).toBe(true);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(
      readFileSync(join(DEMO_DIR, 'manifest.json'), 'utf8'),
    );
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toEqual({
      format_version: 1,
      as_of: '2026-11-01T00:00:00Z',
      counts: { businesses: 2000, prospects: 10000, events: 3000 },
      seed: 42,
    });
  });

  it('writes identical files for the same seed and different ones for another seed', async () => {
    const options = { businesses: 200, prospects: 800, events: 100, format: 'jsonl' } as const;
    await generateSnapshot({ dir: join(work, 'a'), seed: 5, ...options });
    await generateSnapshot({ dir: join(work, 'b'), seed: 5, ...options });
    await generateSnapshot({ dir: join(work, 'c'), seed: 6, ...options });
    for (const stream of ['businesses', 'prospects', 'events']) {
      const a = readFileSync(join(work, 'a', `${stream}.jsonl`));
      expect(a.equals(readFileSync(join(work, 'b', `${stream}.jsonl`)))).toBe(true);
      expect(a.equals(readFileSync(join(work, 'c', `${stream}.jsonl`)))).toBe(false);
    }
  });

  it('writes a MessagePack stream holding the same records as JSON Lines', async () => {
    const options = { businesses: 50, prospects: 200, events: 60, seed: 9 };
    await generateSnapshot({ dir: join(work, 'json'), format: 'jsonl', ...options });
    await generateSnapshot({ dir: join(work, 'mp'), format: 'msgpack', ...options });
    for (const stream of ['businesses', 'prospects', 'events']) {
      const packed = unpackMultiple(readFileSync(join(work, 'mp', `${stream}.msgpack`)));
      expect(packed).toEqual(rows(read(join(work, 'json'), stream)));
    }
  });

  it('rejects negative counts and an unparsable as_of', () => {
    expect(() => makePlan({ businesses: -1, prospects: 0, events: 0 })).toThrow(/businesses/);
    expect(() => makePlan({ businesses: 1, prospects: 0, events: 0, asOf: 'yesterday' })).toThrow(/as_of/);
  });
});

describe('the demo records', () => {
  it('all pass the snapshot schemas', () => {
    const failures = [
      ...demo.businesses.map((b) => BusinessRecord.safeParse(b).error),
      ...demo.prospects.map((p) => ProspectRecord.safeParse(p).error),
      ...demo.events.map((e) => EventRecord.safeParse(e).error),
    ].filter((error) => error !== undefined);
    expect(failures).toEqual([]);
  });

  it('have unique ids, and prospects and events refer to generated ids', () => {
    const businessIds = new Set(demo.businesses.map((b) => b.business_id));
    const prospectIds = new Set(demo.prospects.map((p) => p.prospect_id));
    expect(businessIds.size).toBe(2000);
    expect(prospectIds.size).toBe(10000);
    expect(new Set(demo.events.map((e) => e.event_id)).size).toBe(3000);
    for (const p of demo.prospects)
      if (p.business_id !== null) expect(businessIds.has(p.business_id)).toBe(true);
    for (const e of demo.events) {
      expect(
        e.business_id === undefined ? prospectIds.has(e.prospect_id) : businessIds.has(e.business_id),
      ).toBe(true);
    }
    const unemployed = demo.prospects.filter((p) => p.business_id === null).length;
    expect(unemployed).toBe(300);
  });

  it('cover every event type, within the 90 days before as_of, with the name and time in data', () => {
    const names = new Set(demo.events.map((e) => e.event_name));
    expect([...names].sort()).toEqual([...BUSINESS_EVENT_TYPES, ...PROSPECT_EVENT_TYPES].sort());
    const asOf = Date.parse(DEMO.asOf);
    for (const e of demo.events) {
      const t = Date.parse(e.event_time as string);
      expect(t).toBeLessThan(asOf);
      expect(t).toBeGreaterThanOrEqual(asOf - 90 * DAY);
      const data = e.data as Row;
      expect(data.event_name).toBe(e.event_name);
      expect(data.event_time).toBe(e.event_time);
    }
    const funding = demo.events.find((e) => e.event_name === 'new_funding_round')!.data as Row;
    expect(Object.keys(funding)).toEqual(
      expect.arrayContaining(['founding_date', 'founding_stage', 'amount_raised', 'lead_investor']),
    );
  });

  it('never give two entities one domain, profile or mailbox, nor two companies of a country one name', () => {
    const unique = (keys: (string | null)[]) => {
      const present = keys.filter((k): k is string => k !== null);
      expect(new Set(present).size).toBe(present.length);
      return present.length;
    };
    expect(unique(demo.businesses.map((b) => b.domain as string))).toBe(2000);
    expect(unique(demo.businesses.map((b) => b.linkedin_profile as string | null))).toBeGreaterThan(1700);
    unique(demo.businesses.map((b) => `${b.country_code as string} ${companyKey(b.name as string)}`));
    expect(unique(demo.prospects.map((p) => p.linkedin as string | null))).toBeGreaterThan(9000);
    const mailboxes = demo.prospects.flatMap((p) => {
      const own = new Set<string>();
      for (const e of p.emails as { address: string }[]) own.add(normaliseEmail(e.address)!.key);
      return [...own];
    });
    expect(unique(mailboxes)).toBeGreaterThan(10000);
  });

  it('give each company one e-mail pattern on its own domain', () => {
    const domains = new Map(demo.businesses.map((b) => [b.business_id, b.domain as string]));
    const patterns = new Map<unknown, Set<EmailPattern>>();
    let checked = 0;
    for (const p of demo.prospects) {
      const domain = domains.get(p.business_id);
      for (const email of p.emails as { address: string; type: string }[]) {
        if (email.type === 'personal') continue;
        const [address, host] = email.address.split('@');
        expect(host).toBe(domain);
        // A namesake colleague's mailbox was taken first: "john.smith2@".
        const local = address!.replace(/[2-9]$|[1-9][0-9]+$/, '');
        const person = {
          first: p.first_name as string,
          last: p.last_name as string,
          gender: 'male' as const,
        };
        const fitting = PATTERNS.filter((pattern) => workLocalPart(pattern, person) === local);
        const known = patterns.get(p.business_id) ?? new Set(PATTERNS);
        patterns.set(p.business_id, new Set(fitting.filter((f) => known.has(f))));
        expect(patterns.get(p.business_id)!.size).toBeGreaterThan(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });

  it('give job titles that agree with level and department', () => {
    const byTitle = new Map(JOB_TITLES.map((t) => [t.title, t]));
    const disagreeing = demo.prospects.filter((p) => {
      const title = byTitle.get(p.job_title as string);
      return (
        title === undefined ||
        p.job_level_main !== title.level ||
        p.job_department_main !== title.department ||
        !(p.job_level_array as string[]).includes(title.level) ||
        !(p.job_department_array as string[]).includes(title.department)
      );
    });
    expect(disagreeing).toEqual([]);
    const vp = byTitle.get('VP of Engineering')!;
    expect([vp.level, vp.department]).toEqual(['vice president', 'engineering']);
    const ae = byTitle.get('Account Executive')!;
    expect(ae.department).toBe('sales');
  });

  it('keep experience, months and dates consistent', () => {
    const inconsistent = demo.prospects.filter((p) => {
      const experience = p.experience as { start_date: string; end_date: string | null }[];
      return (
        experience.length < 2 ||
        experience.length > 5 ||
        experience[0]!.end_date !== null ||
        experience.slice(1).some((item) => !/^\d{4}-\d{2}-\d{2}$/.test(item.end_date ?? '')) ||
        (p.total_experience_months as number) < (p.current_role_months as number)
      );
    });
    expect(inconsistent).toEqual([]);
  });

  it('spread headquarters over a realistic country mix', () => {
    const us = demo.businesses.filter((b) => b.country_code === 'us').length / demo.businesses.length;
    expect(us).toBeGreaterThan(0.45);
    expect(us).toBeLessThan(0.65);
    expect(new Set(demo.businesses.map((b) => b.country_code)).size).toBeGreaterThanOrEqual(15);
    expect(
      new Set(demo.businesses.filter((b) => b.country_code === 'us').map((b) => b.region_country_code)).size,
    ).toBeGreaterThan(25);
  });
});

describe('prospects()', () => {
  it('yields the requested number of records without writing files', () => {
    let n = 0;
    for (const _ of prospects(makePlan({ businesses: 10, prospects: 123, events: 0 }))) n++;
    expect(n).toBe(123);
  });
});
