/**
 * The identity of a business — id, name, domain, place, size — drawn from its own generator. It is
 * what prospects, events, lookalikes and hierarchies need to know about a company, so it is cheap.
 */
import {
  COMPANY_REVENUES,
  COMPANY_SIZES,
  type CompanyRevenue,
  type CompanySize,
} from '../../src/schemas/enums.js';
import { INDUSTRIES, type Industry } from './data/industries.js';
import { COUNTRIES, type CityRow, type CountrySpec } from '../../src/schemas/places.js';
import { pickCity } from './location.js';
import { companyKey } from '../../src/normalise/index.js';
import { coreName, joinName, legalParts, type NameParts } from './naming.js';
import type { Plan } from './plan-types.js';
import { Rng, STREAM, Weighted } from '../rng.js';
import { ascii, slug } from './text.js';

export type EmailPattern = 'first.last' | 'flast' | 'first' | 'firstl' | 'first_last';
const EMAIL_PATTERN = new Weighted<EmailPattern>([
  ['first.last', 45],
  ['flast', 25],
  ['first', 10],
  ['firstl', 8],
  ['first_last', 12],
]);

export interface OperatingLocation {
  country_code: string;
  region_country_code: string;
  city_name: string;
}

export interface BusinessCore {
  index: number;
  id: string;
  name: string;
  domain: string;
  /** Company profile slug, unique across the snapshot. */
  linkedinSlug: string;
  country: CountrySpec;
  city: CityRow;
  industry: Industry;
  size: CompanySize;
  sizeIndex: number;
  revenue: CompanyRevenue;
  foundedYear: number;
  locations: number;
  operating: OperatingLocation[];
  isPublic: boolean;
  ticker: string | null;
  emailPattern: EmailPattern;
}

// Revenue bucket (index into COMPANY_REVENUES) around which each size bucket centres.
const REVENUE_CENTRE = [1, 2, 3, 4, 5, 7, 8, 9];
const LOCATIONS: readonly (readonly [number, number])[] = [
  [1, 1],
  [1, 2],
  [1, 4],
  [2, 8],
  [3, 15],
  [5, 60],
  [20, 200],
  [50, 2000],
];
const PUBLIC_SHARE = [0.001, 0.002, 0.005, 0.01, 0.04, 0.15, 0.4, 0.6];

function tldOf(rng: Rng, country: CountrySpec): string {
  let u = rng.next() * country.tlds.reduce((s, [, w]) => s + w, 0);
  for (const [tld, w] of country.tlds) if ((u -= w) < 0) return tld;
  return '.com';
}

/** The ASCII words of a core name that a domain or ticker is made of. */
function domainWords(core: string): string[] {
  return core
    .replace(/^The /, '')
    .split(/[\s&,]+/)
    .map(ascii)
    .filter((w) => w.length > 0);
}

function domainLabel(rng: Rng, core: string): string {
  const parts = domainWords(core);
  // One-word brands are rarely free as such: they become getacme.com or acmehq.com.
  if (parts.length === 1 && rng.chance(0.6))
    return rng.chance(0.4) ? `get${parts[0]}` : `${parts[0]}${rng.pick(['hq', 'app', 'labs', 'inc'])}`;
  // Long names keep their first two words, as real domains do.
  return (parts.join('').length > 22 ? parts.slice(0, 2) : parts).join('');
}

function tickerSymbol(core: string): string {
  const letters = domainWords(core).join('').toUpperCase();
  return letters.slice(0, letters.length > 6 ? 4 : 3);
}

/** Headquarters city and original core name of business `i` (its name may mention the city). */
function origin(plan: Plan, i: number): { city: CityRow; core: string } {
  const rng = new Rng(plan.seed, STREAM.name, i);
  const country = COUNTRIES[plan.country[i]!]!;
  const city = pickCity(rng, country);
  return { city, core: coreName(rng, country, INDUSTRIES[plan.industry[i]!]!, city) };
}

export function businessId(plan: Plan, i: number): string {
  return new Rng(plan.seed, STREAM.business, i).hex(32);
}

/** What a business is called and where it lives on the web, before uniqueness variants. */
interface Identity {
  rng: Rng;
  id: string;
  country: CountrySpec;
  city: CityRow;
  core: string;
  parts: NameParts;
  label: string;
  tld: string;
}

function identity(plan: Plan, i: number): Identity {
  const rng = new Rng(plan.seed, STREAM.business, i);
  const id = rng.hex(32);
  const country = COUNTRIES[plan.country[i]!]!;
  const large = plan.size[i]! >= 5;
  const own = origin(plan, i);
  // A few companies share a core name with an earlier one, usually in another country.
  const core = i > 0 && rng.chance(0.03) ? origin(plan, rng.int(i)).core : own.core;
  const parts = legalParts(rng, core, country, large);
  const label = domainLabel(rng, core);
  const tld = tldOf(rng, country);
  return { rng, id, country, city: own.city, core, parts, label, tld };
}

/** Words a registrant adds when the name is taken in the country ("Redwood Ventures LLC"). */
const DISTINCT = ['Ventures', 'Collective', 'Works', 'Labs', 'Studio', 'Associates', 'Partners', 'Group'];

/** The `variant`-th name: as drawn, then with a distinguishing word, the city, a number. */
function nameVariant(who: Identity, variant: number): string {
  if (variant === 0) return joinName(who.parts);
  if (variant <= DISTINCT.length) return joinName(who.parts, DISTINCT[variant - 1]);
  if (variant === DISTINCT.length + 1) return joinName(who.parts, who.city[0]);
  return joinName(who.parts, String(variant - DISTINCT.length));
}

/**
 * The `variant`-th domain of a business: its own label and TLD first; a twin (a name or label another
 * company already holds) takes its country's TLD, then a country or brand suffix, then a number, the
 * way real registrants settle on a free domain.
 */
function domainVariant(who: Identity, variant: number): string {
  const { label, tld, country } = who;
  switch (variant) {
    case 0:
      return label + tld;
    case 1: {
      const cc = country.tlds.find(([t]) => t !== '.com' && t !== tld)?.[0];
      return label + (cc ?? `-${country.code}${tld}`);
    }
    case 2:
      return `${label}-${country.code}${tld}`;
    case 3:
      return `${label}group${tld}`;
    case 4:
      return `get${label}${tld}`;
    case 5:
      return `${label}hq${tld}`;
    default:
      return `${label}${variant - 4}${tld}`;
  }
}

/** The company profile slug base: the name without a US/UK suffix ("acme-robotics"). */
function slugBase(name: string): string {
  return slug(name.replace(/,? (Inc\.|LLC|Ltd\.?)$/, ''));
}

/** The `variant`-th company profile slug: the name, then with its legal form, its country, a number. */
function slugVariant(who: Identity, name: string, variant: number): string {
  const base = slugBase(name);
  if (variant === 0) return base;
  if (variant === 1) {
    const full = slug(name);
    return full !== base ? full : `${base}-${who.country.code}`;
  }
  if (variant === 2) return `${base}-${who.country.code}`;
  return `${base}-${variant - 1}`;
}

/**
 * Picks, business by business in index order, the first free name, domain and profile slug variant:
 * no two businesses share a registrable domain or a profile slug (a registry never hands one out
 * twice), and no two in one country share a normalised name (company registries refuse a name already
 * registered; namesakes abroad stay, as they do in real data). The chosen variants go into the plan;
 * everything else is still rebuilt from the index alone.
 */
export function uniqueWebKeys(plan: Plan): { name: Uint16Array; domain: Uint16Array; slug: Uint16Array } {
  const names = new Uint16Array(plan.businesses);
  const domain = new Uint16Array(plan.businesses);
  const slugs = new Uint16Array(plan.businesses);
  const usedNames = new Set<string>();
  const usedDomains = new Set<string>();
  const usedSlugs = new Set<string>();
  for (let i = 0; i < plan.businesses; i++) {
    const who = identity(plan, i);
    let n = 0;
    const nameKey = (v: number) => `${who.country.code} ${companyKey(nameVariant(who, v))}`;
    while (usedNames.has(nameKey(n))) n++;
    usedNames.add(nameKey(n));
    names[i] = n;
    const name = nameVariant(who, n);
    let v = 0;
    while (usedDomains.has(domainVariant(who, v))) v++;
    usedDomains.add(domainVariant(who, v));
    domain[i] = v;
    let s = 0;
    while (usedSlugs.has(slugVariant(who, name, s))) s++;
    usedSlugs.add(slugVariant(who, name, s));
    slugs[i] = s;
  }
  return { name: names, domain, slug: slugs };
}

export function businessCore(plan: Plan, i: number): BusinessCore {
  const who = identity(plan, i);
  const { rng, id, country, city, core } = who;
  const name = nameVariant(who, plan.nameVariant[i] ?? 0);
  const industry = INDUSTRIES[plan.industry[i]!]!;
  const sizeIndex = plan.size[i]!;
  const domain = domainVariant(who, plan.domainVariant[i] ?? 0);
  const linkedinSlug = slugVariant(who, name, plan.slugVariant[i] ?? 0);

  const centre = REVENUE_CENTRE[sizeIndex]!;
  const revenue = COMPANY_REVENUES[Math.max(0, centre + rng.between(-1, 1))]!;
  const asOfYear = Math.floor(plan.asOfMonth / 12);
  const age = sizeIndex <= 1 && rng.chance(0.5) ? rng.between(0, 12) : rng.between(3, 12 + sizeIndex * 12);
  const [fewest, most] = LOCATIONS[sizeIndex]!;
  const locations = rng.between(fewest, most);
  const operating: OperatingLocation[] = [];
  for (let n = Math.min(locations - 1, sizeIndex >= 3 ? rng.between(1, 2 + sizeIndex) : 0); n > 0; n--) {
    const abroad = sizeIndex >= 5 && rng.chance(0.4) ? COUNTRIES[rng.int(COUNTRIES.length)]! : country;
    const where = pickCity(rng, abroad);
    if (operating.some((o) => o.city_name === where[0]) || where === city) continue;
    operating.push({ country_code: abroad.code, region_country_code: where[1], city_name: where[0] });
  }
  const isPublic = rng.chance(PUBLIC_SHARE[sizeIndex]!);
  const ticker = isPublic && sizeIndex >= 4 ? `${rng.pick(country.exchanges)}:${tickerSymbol(core)}` : null;
  return {
    index: i,
    id,
    name,
    domain,
    linkedinSlug,
    country,
    city,
    industry,
    size: COMPANY_SIZES[sizeIndex]!,
    sizeIndex,
    revenue,
    foundedYear: asOfYear - age,
    locations,
    operating,
    isPublic,
    ticker,
    emailPattern: EMAIL_PATTERN.pick(rng),
  };
}
