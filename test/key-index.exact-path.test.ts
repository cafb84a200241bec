/**
 * The exact-key path of the business matcher reads domains, URLs and company profiles straight from the
 * input (capitals folded on the fly, no slicing) and answers exactly what the parsers' keys give: a
 * property test over URL-shaped inputs, with the parsers and the key indexes as the oracle. Also: the
 * name bound's ASCII shortcut returns what folding the name would.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchBusinessRows, matchProspectRows } from '../src/core/match/index.js';
import { boundedName, MAX_NAME_CHARS, MAX_NAME_WORD } from '../src/core/match/limits.js';
import type { Engine } from '../src/engine.js';
import { businessIds, businessMatchIndex, type BusinessMatchIndex } from '../src/indexes/match/businesses.js';
import type { StringColumn } from '../src/indexes/format/strings.js';
import { prospectMatchIndex, type ProspectMatchIndex } from '../src/indexes/match/prospects.js';
import type { NullableStringColumn } from '../src/indexes/format/strings.js';
import { linkedinCompanySlug, normaliseDomain, normalisePhone, words } from '../src/normalise/index.js';
import { demoEngine } from './support/demo.js';

let engine: Engine;
let index: BusinessMatchIndex;
let ids: StringColumn;
let domains: string[];
let slugs: string[];
let people: ProspectMatchIndex;
let phones: string[];

beforeAll(async () => {
  engine = await demoEngine();
  index = businessMatchIndex(engine);
  ids = businessIds(engine.db, index);
  domains = list(index.domains)
    .filter((d): d is string => d !== null)
    .slice(0, 50);
  slugs = list(index.linkedin)
    .filter((s): s is string => s !== null)
    .slice(0, 50);
  people = prospectMatchIndex(engine);
  phones = [...people.byPhone.entries()].map(([k]) => k).slice(0, 80);
});
afterAll(() => engine.close());

/** The id of the prospect at match-index position `pos` (positions follow the rowids). */
const idAt = (pos: number) =>
  engine.db.prepare('SELECT prospect_id FROM prospects ORDER BY rowid LIMIT 1 OFFSET ?').pluck().get(pos);

/** A string column of a match index as an array. */
function list(column: NullableStringColumn): (string | null | undefined)[] {
  return Array.from({ length: column.length }, (_, i) => column.at(i));
}

/** Upper-cases the letters of `s` picked by the bits of `mask`. */
const recase = (s: string, mask: number) =>
  [...s].map((c, i) => ((mask >> (i % 31)) & 1 ? c.toUpperCase() : c)).join('');

const scheme = fc.constantFrom(
  '',
  'http://',
  'https://',
  'HTTPS://',
  'Http://',
  '//',
  'ftp://',
  'https:/',
  ' ',
);
const sub = fc.constantFrom('', 'www.', 'WWW.', 'uk.', 'www.www.', 'm.', 'wwwx', 'www-', 'ww.');
const tail = fc.constantFrom('', '/', '/about', '?q=1', '#x', ':8080/x', '/About/Us?x#y', ' x', '@x');

/** The one business a key names, -2 several, -1 none (through the parsers, not the fast paths). */
function expectedDomain(input: string): number {
  const d = normaliseDomain(input);
  if (d === null) return -1;
  if (d.host !== d.registrable) {
    const host = index.byHost.only(d.host);
    if (host !== -1) return host;
  }
  return index.byDomain.only(d.registrable);
}

describe('exact-key business match reads keys straight from the input', () => {
  it('matches a domain written in any case, with or without scheme, www. and path, as its parsed key does', () => {
    fc.assert(
      fc.property(fc.nat(), scheme, sub, tail, fc.nat(), fc.boolean(), (d, sc, w, t, mask, asUrl) => {
        const domain = domains[d % domains.length] as string;
        const input = recase(`${sc}${w}${domain}${t}`, mask);
        const want = expectedDomain(input);
        fc.pre(want !== -2);
        const row = asUrl ? { url: input } : { domain: input };
        const [got] = matchBusinessRows(engine, [row]);
        expect(got?.business_id).toBe(want >= 0 ? ids.at(want) : null);
      }),
      { numRuns: 400 },
    );
  });

  it('matches a company profile URL in any case and shape as the parsed slug does', () => {
    const host = fc.constantFrom(
      'linkedin.com',
      'LinkedIn.com',
      'uk.linkedin.com',
      'linkedin.co',
      'linkedin.com:443',
    );
    const path = fc.constantFrom('/company/', '/COMPANY/', '//company/', '/company//', '/in/', '/company');
    const slugTail = fc.constantFrom('', '/', '/about/', '?trk=1', '#top', '%20', ' x', '.x', '_y');
    fc.assert(
      fc.property(fc.nat(), scheme, sub, host, path, slugTail, fc.nat(), (s, sc, w, h, p, t, mask) => {
        const slug = slugs[s % slugs.length] as string;
        const input = recase(`${sc}${w}${h}${p}${slug}${t}`, mask);
        const key = linkedinCompanySlug(input.trim());
        const want = key === null ? -1 : index.byLinkedin.only(key);
        fc.pre(want !== -2);
        const [got] = matchBusinessRows(engine, [{ linkedin_url: input }]);
        expect(got?.business_id).toBe(want >= 0 ? ids.at(want) : null);
      }),
      { numRuns: 400 },
    );
  });

  it('matches the common spellings of a known domain and profile', () => {
    const domains = list(index.domains);
    const i = domains.findIndex((d, pos) => d !== null && index.linkedin.at(pos) !== null);
    const domain = domains[i] as string;
    const slug = index.linkedin.at(i) as string;
    const rows = [
      { domain },
      { domain: `WWW.${domain.toUpperCase()}` },
      { url: `HTTPS://www.${domain}/About?x=1` },
      { linkedin_url: `https://www.linkedin.com/company/${slug.toUpperCase()}/about/` },
      { linkedin_url: `LinkedIn.com/company/${slug}?trk=x` },
      { domain, linkedin_url: `https://linkedin.com/company/${slug}` },
    ];
    expect(matchBusinessRows(engine, rows).map((r) => r.business_id)).toEqual(rows.map(() => ids.at(i)));
  });
});

describe('exact-key prospect match reads international numbers as their digits', () => {
  it('matches a number written with +, 00, spaces, dashes or dots (or not) as the parser does', () => {
    const sep = fc.constantFrom(' ', '-', '.', '', '  ', ' (0) ', '/', 'x');
    const lead = fc.constantFrom('+', '00', '+0', '', '0', '+ ', '011');
    const extra = fc.constantFrom('', '', '', ' ext 12', '#1', '0', ' ');
    fc.assert(
      fc.property(
        fc.nat(),
        lead,
        fc.array(sep, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        extra,
        (p, l, seps, at, x) => {
          const digits = (phones[p % phones.length] as string).slice(1);
          // Separators at random places; sometimes a trunk "0" after the country code.
          let body = digits;
          for (const [k, s] of seps.entries()) {
            const i = 1 + ((at >> (k * 3)) % (body.length - 1));
            body = body.slice(0, i) + s + body.slice(i);
          }
          const input = `${l}${body}${x}`;
          // A number led by + or 00 with only spaces, dashes and dots between its digits reads as those
          // digits when a stored number has them (even where a separator splits the country code: "+3 1…"
          // is +31…); otherwise as the parser reads it.
          const direct = /^(\+|00)[0-9 .-]*$/.test(input)
            ? `+${input.replace(/^(\+|00)/, '').replace(/[ .-]/g, '')}`
            : null;
          const key =
            direct !== null && people.byPhone.has(direct)
              ? direct
              : (normalisePhone(input) ?? normalisePhone(input, 'us'));
          const want = key === null ? -1 : people.byPhone.only(key);
          fc.pre(want !== -2);
          const [got] = matchProspectRows(engine, [{ phone_number: input }]);
          expect(got?.prospect_id).toBe(want >= 0 ? idAt(want) : null);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** Whether folding keeps the name as given (the shortcut's oracle: the rule before it). */
function keptByFolding(v: string): boolean {
  const ws = words(v);
  const total = ws.reduce((n, w) => n + w.length, ws.length - 1);
  const longest = ws.reduce((n, w) => Math.max(n, w.length), 0);
  return v.length <= MAX_NAME_CHARS && total <= MAX_NAME_CHARS && longest <= MAX_NAME_WORD;
}

describe('name bound shortcut', () => {
  it('keeps an ASCII name exactly when folding would keep it', () => {
    const ascii = fc.string({
      unit: fc.constantFrom('a', 'B', ' ', '&', "'", '-', '.', 'x'),
      maxLength: MAX_NAME_CHARS + 20,
    });
    const longWord = fc.integer({ min: 55, max: 70 }).map((n) => 'w'.repeat(n));
    const ampersands = fc.integer({ min: 40, max: 60 }).map((n) => 'a & '.repeat(n));
    fc.assert(
      fc.property(fc.oneof(ascii, longWord, ampersands, fc.string({ maxLength: 300 })), (v) => {
        expect(boundedName(v) === v).toBe(keptByFolding(v));
      }),
      { numRuns: 500 },
    );
  });
});
