/**
 * The identity of a business — id, name, domain, place, size — drawn from its own generator. It is
 * what prospects, events, lookalikes and hierarchies need to know about a company, so it is cheap.
 */
import { COMPANY_REVENUES, COMPANY_SIZES, type CompanyRevenue, type CompanySize } from '../schemas/enums.js';
import { INDUSTRIES, type Industry } from './data/industries.js';
import { COUNTRIES, type CityRow, type CountrySpec } from './data/places.js';
import { pickCity } from './location.js';
import { coreName, legalName } from './naming.js';
import type { Plan } from './plan.js';
import { Rng, STREAM, Weighted } from './rng.js';
import { ascii } from './text.js';

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

export function businessCore(plan: Plan, i: number): BusinessCore {
  const rng = new Rng(plan.seed, STREAM.business, i);
  const id = rng.hex(32);
  const country = COUNTRIES[plan.country[i]!]!;
  const industry = INDUSTRIES[plan.industry[i]!]!;
  const sizeIndex = plan.size[i]!;
  const large = sizeIndex >= 5;
  const own = origin(plan, i);
  const city = own.city;
  // A few companies share a core name with an earlier one, usually in another country.
  const core = i > 0 && rng.chance(0.03) ? origin(plan, rng.int(i)).core : own.core;
  const name = legalName(rng, core, country, large);
  const domain = domainLabel(rng, core) + tldOf(rng, country);

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
