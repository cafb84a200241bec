import fc from 'fast-check';
import { getPublicSuffix } from 'tldts';
import { describe, expect, it } from 'vitest';
import { buildPlaceLists, placeTables } from '../src/normalise/company-places.js';
import SAVED_PLACES from '../src/normalise/place-tables.generated.json' with { type: 'json' };
import {
  companyKey,
  foldText,
  givenNameVariants,
  linkedinCompanySlug,
  linkedinPersonSlug,
  normaliseCompanyName,
  normaliseDomain,
  normaliseEmail,
  normalisePersonName,
  normalisePhone,
  words,
} from '../src/normalise/index.js';

const wordArb = fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/);
const nameArb = fc.array(
  fc.oneof(wordArb, fc.constantFrom('inc', 'ltd', 'the', 'co', 'gmbh', 'and', 's', 'a')),
  {
    minLength: 1,
    maxLength: 6,
  },
);

describe('foldText / words', () => {
  it.each([
    ['  Müller & Söhne, GmbH ', 'muller and sohne gmbh'],
    ['AT&T', 'at and t'],
    ["Macy's", 'macys'],
    ['Straße Øresund Łódź — “Ltd”', 'strasse oresund lodz ltd'],
    ['Crème\u00a0Brûlée', 'creme brulee'],
    ['ＡＣＭＥ　Ｒｏｂｏｔｉｃｓ', 'acme robotics'],
    ['  ', ''],
  ])('folds %j to %j', (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  it('splits folded words and returns [] for empty text', () => {
    expect(words('Acme-Robotics, Inc.')).toEqual(['acme', 'robotics', 'inc']);
    expect(words(' .,- ')).toEqual([]);
  });

  it('is idempotent and insensitive to case', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
        const f = foldText(s);
        expect(foldText(f)).toBe(f);
        expect(foldText(s.toLowerCase())).toBe(f);
      }),
    );
    // A counterexample it found: the lunate sigma, whose NFKD form lower-cased as a final sigma.
    expect(foldText('Ϲ')).toBe(foldText('ϲ'));
    expect(foldText('ΟΔΥΣΣΕΥΣ')).toBe(foldText('οδυσσευς'));
    // Upper-casing can expand letters outside Latin scripts (Greek "ᾀ" → "ἈΙ"), so that half is Latin only.
    const latin = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x24f }).map((c) => String.fromCharCode(c)),
    });
    fc.assert(
      fc.property(latin, (s) => {
        expect(foldText(s.toUpperCase())).toBe(foldText(s));
      }),
    );
  });
});

describe('normaliseCompanyName', () => {
  it.each([
    ['Acme Holdings Ltd.', 'acme holdings', ['acme']],
    ['The Coca-Cola Company', 'coca cola', ['coca', 'cola']],
    ['Ltd Partners Inc', 'ltd partners', ['ltd']],
    ['AT&T Inc.', 'at and t', ['at', 'and', 't']],
    ['Müller GmbH & Co. KG', 'muller', ['muller']],
    ['Acme Pty Ltd', 'acme', ['acme']],
    ['The Company', 'company', ['company']],
    ['Smith & Co.', 'smith', ['smith']],
    ['Maersk A/S', 'maersk', ['maersk']],
    ['Nestlé S.A.', 'nestle', ['nestle']],
    ['Polska Sp. z o.o.', 'polska', ['polska']],
    ['Toyota K.K.', 'toyota', ['toyota']],
    ['Acme L.L.C.', 'acme', ['acme']],
    ['ÆON Co., Ltd.', 'aeon', ['aeon']],
    ['Sony Group Corporation', 'sony group', ['sony']],
    ["Int'l Business Machines Corp.", 'international business machines', ['business', 'machines']],
    ['Acme Mfg. Co.', 'acme manufacturing', ['acme', 'manufacturing']],
    [
      'Warner Bros. Entertainment Inc.',
      'warner brothers entertainment',
      ['warner', 'brothers', 'entertainment'],
    ],
    ['Global Solutions Inc', 'global solutions', ['global', 'solutions']],
    ['Inc', 'inc', ['inc']],
    ['Company Limited Group', 'company limited group', ['company', 'limited']],
    ['', '', []],
  ])('%j → key %j, core %j', (name, key, core) => {
    const n = normaliseCompanyName(name);
    expect(n.key).toBe(key);
    expect(n.core).toEqual(core);
    expect(n.tokens.join(' ')).toBe(key);
    expect(companyKey(name)).toBe(key);
  });

  it('strips legal forms only at the end', () => {
    expect(companyKey('Inc Robotics')).toBe('inc robotics');
    expect(companyKey('GmbH Solutions AG')).toBe('gmbh solutions');
  });

  it('is idempotent on its own keys', () => {
    fc.assert(
      fc.property(nameArb, (tokens) => {
        const key = companyKey(tokens.join(' '));
        expect(companyKey(key)).toBe(key);
      }),
    );
  });

  it('ignores case, spacing, punctuation and accents', () => {
    fc.assert(
      fc.property(nameArb, fc.constantFrom(' ', '  ', ' - ', ', ', '\t'), (tokens, sep) => {
        const key = companyKey(tokens.join(' '));
        expect(companyKey(`  ${tokens.join(sep).toUpperCase()} `)).toBe(key);
        const accented = tokens.join(' ').replaceAll('e', 'é').replaceAll('o', 'ö');
        expect(companyKey(accented)).toBe(key);
      }),
    );
  });
});

describe('normaliseDomain', () => {
  it.each([
    ['acme.com', 'acme.com', 'acme.com'],
    ['WWW.Acme.COM', 'acme.com', 'acme.com'],
    ['https://www.acme.com/about?x=1', 'acme.com', 'acme.com'],
    ['http://shop.acme.co.uk:8080/', 'acme.co.uk', 'shop.acme.co.uk'],
    ['acme.com/', 'acme.com', 'acme.com'],
    ['//acme.com', 'acme.com', 'acme.com'],
    [' acme.com ', 'acme.com', 'acme.com'],
    ['acme.com.', 'acme.com', 'acme.com'],
    ['münchen.de', 'xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['https://acme.github.io/docs', 'acme.github.io', 'acme.github.io'],
    ['www.com', 'www.com', 'www.com'],
  ])('%j → %j (host %j)', (input, registrable, host) => {
    expect(normaliseDomain(input)).toEqual({ registrable, host });
  });

  it.each([
    '',
    '   ',
    'acme dot com',
    'acme .com',
    'acme',
    'localhost',
    'http://localhost:3000',
    '10.0.0.1',
    'http://[::1]/',
    'acme.notarealtld',
    'mailto:x@acme.com',
    'x@acme.com',
    'tel:+14155550123',
    'ftp://acme.com',
    null,
    undefined,
  ])('rejects %j', (input) => {
    expect(normaliseDomain(input)).toBeNull();
  });

  it('gives one registrable domain for scheme, www, path, query and case variants', () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/);
    fc.assert(
      fc.property(
        label,
        fc.constantFrom('com', 'co.uk', 'de', 'io', 'com.au'),
        fc.constantFrom('', 'http://', 'https://', '//'),
        fc.constantFrom('', 'www.', 'WWW.'),
        fc.constantFrom('', '/', '/about', '/a/b?x=1', '?q=2#top', ':8443/'),
        fc.boolean(),
        (name, tld, scheme, www, rest, upper) => {
          // Some such names are public suffixes themselves (de.com, uk.com …: no registrable domain).
          fc.pre(getPublicSuffix(`${name}.${tld}`, { allowPrivateDomains: true }) !== `${name}.${tld}`);
          const url = `${scheme}${www}${name}.${tld}${rest}`;
          const got = normaliseDomain(upper ? url.toUpperCase() : url);
          expect(got).toEqual({ registrable: `${name}.${tld}`, host: `${name}.${tld}` });
        },
      ),
    );
  });
});

describe('linkedin slugs', () => {
  it.each([
    ['https://www.linkedin.com/company/acme-robotics/about/', 'acme-robotics'],
    ['linkedin.com/company/acme-robotics', 'acme-robotics'],
    ['http://uk.linkedin.com/company/Acme-Robotics?trk=x', 'acme-robotics'],
    ['www.linkedin.com/company/12345', '12345'],
    ['https://www.linkedin.com/company/caf%C3%A9-inc#jobs', 'café-inc'],
    ['https://www.linkedin.com/in/acme', null],
    ['https://evil.com/company/acme', null],
    ['https://notlinkedin.com/company/acme', null],
    ['https://www.linkedin.com/company/', null],
    ['acme-robotics', null],
    [null, null],
  ])('company %j → %j', (url, slug) => {
    expect(linkedinCompanySlug(url)).toBe(slug);
  });

  it.each([
    ['https://www.linkedin.com/in/jane-doe-12ab/', 'jane-doe-12ab'],
    ['uk.linkedin.com/in/Jane-Doe?trk=x', 'jane-doe'],
    ['http://de.linkedin.com/in/j%C3%BCrgen-m%C3%BCller-1a2b3c', 'jürgen-müller-1a2b3c'],
    [
      'https://sy.linkedin.com/pub/krzysztof-marzec/a7/576/b50?trk=biz_employee_pub',
      'krzysztof-marzec-b50576a7',
    ],
    ['linkedin.com/pub/jane-doe', 'jane-doe'],
    ['https://www.linkedin.com/company/acme', null],
    ['linkedin.com/in/', null],
    ['https://www.linkedin.com/in/%E0%A4%A', null],
    [undefined, null],
  ])('person %j → %j', (url, slug) => {
    expect(linkedinPersonSlug(url)).toBe(slug);
  });
});

describe('normaliseEmail', () => {
  it.each([
    [' J.Smith+news@GoogleMail.com ', 'jsmith@gmail.com', false, true],
    ['info@acme.com', 'info@acme.com', true, false],
    ['sales.uk@acme.com', 'sales.uk@acme.com', true, false],
    ['info2@acme.com', 'info2@acme.com', true, false],
    ['no-reply@acme.com', 'no-reply@acme.com', true, false],
    ['dev.patel@acme.com', 'dev.patel@acme.com', false, false],
    ['jane.doe+x@acme.com', 'jane.doe+x@acme.com', false, false],
    ['john.doe+x@hotmail.co.uk', 'john.doe@hotmail.co.uk', false, true],
    ['john.doe+x@outlook.com', 'john.doe@outlook.com', false, true],
    ['jane+work@icloud.com', 'jane@icloud.com', false, true],
    ['jane+work@proton.me', 'jane@proton.me', false, true],
    ['jane-shop@yahoo.co.uk', 'jane@yahoo.co.uk', false, true],
    ['bob@gmx.de', 'bob@gmx.de', false, true],
    ['mailto:Hello@Acme.io', 'hello@acme.io', true, false],
    ['joe@münchen.de', 'joe@xn--mnchen-3ya.de', false, false],
  ])('%j → %j (role %j, personal %j)', (input, key, role, personal) => {
    const e = normaliseEmail(input);
    expect(e).not.toBeNull();
    expect(e?.key).toBe(key);
    expect(`${e?.local}@${e?.domain}`).toBe(key);
    expect(e?.role).toBe(role);
    expect(e?.personal).toBe(personal);
  });

  it.each([
    '',
    'not an email',
    'a@b',
    'x@localhost',
    '@acme.com',
    'jane@',
    'ja ne@acme.com',
    '.jane@acme.com',
    'ja..ne@acme.com',
    '+x@gmail.com',
    null,
  ])('rejects %j', (input) => {
    expect(normaliseEmail(input)).toBeNull();
  });

  it('is case-insensitive', () => {
    const local = fc
      .stringMatching(/^[a-zA-Z][a-zA-Z0-9._+-]{0,15}[a-zA-Z0-9]$/)
      .filter((s) => !s.includes('..'));
    const domain = fc.constantFrom('acme.com', 'gmail.com', 'Hotmail.co.uk', 'yahoo.fr', 'Shop.Example.org');
    fc.assert(
      fc.property(local, domain, (l, d) => {
        const addr = `${l}@${d}`;
        expect(normaliseEmail(addr.toUpperCase())).toEqual(normaliseEmail(addr.toLowerCase()));
        expect(normaliseEmail(` ${addr} `)).toEqual(normaliseEmail(addr));
      }),
    );
  });
});

describe('normalisePhone', () => {
  it.each([
    ['+1 (415) 555-0123', undefined, '+14155550123'],
    ['001 415 555 0123', undefined, '+14155550123'],
    ['415-555-0123', 'us', '+14155550123'],
    ['(415) 555-0123', 'US', '+14155550123'],
    ['+44 20 7946 0958', undefined, '+442079460958'],
    ['020 7946 0958', 'gb', '+442079460958'],
    ['020 7946 0958', 'uk', '+442079460958'],
    ['0044 20 7946 0958', 'us', '+442079460958'],
    ['+1 415 555 0123 ext. 7', undefined, '+14155550123'],
    ['tel:+1-415-555-0123', undefined, '+14155550123'],
    ['(415) 555-0123', undefined, null],
    ['12345', 'us', null],
    ['+1 111 111 1111', undefined, null],
    ['not a phone', 'us', null],
    ['', 'us', null],
    [null, 'us', null],
  ])('%j (%s) → %j', (input, country, expected) => {
    expect(normalisePhone(input, country)).toBe(expected);
  });

  it('maps formatting variants of one number to one E.164', () => {
    const formats = [
      (a: string, b: string, c: string) => `+1 (${a}) ${b}-${c}`,
      (a: string, b: string, c: string) => `+1.${a}.${b}.${c}`,
      (a: string, b: string, c: string) => `001 ${a} ${b} ${c}`,
      (a: string, b: string, c: string) => `${a}-${b}-${c}`,
      (a: string, b: string, c: string) => `(${a}) ${b} ${c}`,
      (a: string, b: string, c: string) => `1${a}${b}${c}`,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom('415', '212', '617', '312', '206'),
        fc.integer({ min: 200, max: 999 }),
        fc.integer({ min: 0, max: 9999 }),
        (area, exchange, line) => {
          const b = String(exchange);
          const c = String(line).padStart(4, '0');
          const results = new Set(formats.map((f) => normalisePhone(f(area, b, c), 'us')));
          expect(results.size).toBe(1);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('normalisePersonName', () => {
  it.each([
    [
      'Dr. Bob García-López Jr.',
      'robert garcialopez',
      'bob',
      'garcialopez',
      'robert',
      'bg',
      ['bob', 'garcialopez'],
    ],
    ['Smith, John', 'john smith', 'john', 'smith', 'john', 'js', ['john', 'smith']],
    ['John Smith, Ph.D.', 'john smith', 'john', 'smith', 'john', 'js', ['john', 'smith']],
    ['Smith, J.', 'j smith', 'j', 'smith', 'j', 'js', ['j', 'smith']],
    [
      'Mr. William H. Gates III',
      'william gates',
      'william',
      'gates',
      'william',
      'wg',
      ['william', 'h', 'gates'],
    ],
    ["Seán O'Brien", 'sean obrien', 'sean', 'obrien', 'sean', 'so', ['sean', 'obrien']],
    ['  KATIE   HOLMES ', 'katherine holmes', 'katie', 'holmes', 'katherine', 'kh', ['katie', 'holmes']],
    ['Steven King', 'stephen king', 'steven', 'king', 'stephen', 'sk', ['steven', 'king']],
    ['Madonna', 'madonna', 'madonna', '', 'madonna', 'm', ['madonna']],
    ['', '', '', '', '', '', []],
  ])('%j → key %j', (full, key, first, last, given, initials, tokens) => {
    expect(normalisePersonName(full)).toEqual({ key, first, last, given, initials, tokens });
  });

  it('maps nicknames and formal names to one key', () => {
    const key = normalisePersonName('Robert Smith').key;
    for (const n of ['Bob Smith', 'Rob Smith', 'bobby smith', 'Mr Robbie Smith']) {
      expect(normalisePersonName(n).key).toBe(key);
    }
  });

  it('lists every name of a nickname group, union for ambiguous nicknames', () => {
    expect(givenNameVariants('Bob')).toEqual(['bob', 'bobby', 'rob', 'robbie', 'robby', 'robert']);
    expect(givenNameVariants('chris')).toEqual(expect.arrayContaining(['christopher', 'christina']));
    expect(givenNameVariants('Zed')).toEqual(['zed']);
    expect(givenNameVariants('')).toEqual([]);
  });
});

describe('place tables', () => {
  it('are saved as this Node builds them from CLDR (node --import tsx scripts/place-tables.ts)', () => {
    const built = buildPlaceLists();
    expect(built.countryWords.length).toBeGreaterThan(1500);
    expect(built.places.length).toBeGreaterThan(4000);
    // A Node with another CLDR builds its own lists (the saved ones are used only with theirs).
    if (SAVED_PLACES.cldr === process.versions.cldr) expect(SAVED_PLACES).toEqual(built);
    const tables = placeTables();
    expect([...tables.countryWords]).toEqual(built.countryWords);
    expect([...tables.places]).toEqual(built.places);
    expect(tables.countryWords.get('pays bas')).toBe('netherlands');
    expect(tables.placeLast.get('york')).toBeGreaterThanOrEqual(2); // "new york"
  });
});
