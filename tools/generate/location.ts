/** Where a company or person is: a real city of a country, with its region and metro area. */
import { COUNTRY_NAME_BY_CODE, REGION_NAME_BY_CODE } from '../../src/schemas/enums.js';
import { COUNTRIES, type CityRow, type CountrySpec } from '../../src/schemas/places.js';
import type { Rng } from '../rng.js';
import { Weighted } from '../rng.js';

export interface Place {
  country: CountrySpec;
  city: CityRow;
}

const CITY_PICKS: ReadonlyMap<string, Weighted<CityRow>> = new Map(
  COUNTRIES.map((c) => [c.code, new Weighted(c.cities.map((city) => [city, city[4]] as const))]),
);
const BY_CODE: ReadonlyMap<string, CountrySpec> = new Map(COUNTRIES.map((c) => [c.code, c]));

export function countryByCode(code: string): CountrySpec {
  return BY_CODE.get(code) ?? COUNTRIES[0]!;
}

export function pickCity(rng: Rng, country: CountrySpec): CityRow {
  return CITY_PICKS.get(country.code)!.pick(rng);
}

export const countryName = (code: string): string => COUNTRY_NAME_BY_CODE.get(code) ?? code;
export const regionName = (code: string): string | null => REGION_NAME_BY_CODE.get(code) ?? null;

const UPPER = 'ABCDEFGHJKLMNPRSTUVWXYZ';

/** A postcode in the country's format, starting with the city's prefix. */
export function postcode(rng: Rng, country: CountrySpec, city: CityRow): string {
  return country.postal(
    city[3],
    (n) => rng.digits(n),
    (n) => {
      let s = '';
      for (let i = 0; i < n; i++) s += UPPER[rng.int(UPPER.length)];
      return s;
    },
  );
}

/** A mobile number in E.164: the city's area code in NANP and Brazil, a mobile prefix elsewhere. */
export function mobileNumber(rng: Rng, country: CountrySpec, city: CityRow | null): string {
  const areas = city?.[5] ?? country.cities[0]![5];
  if (country.dial === '1') {
    // NANP: exchange code 2-9XX, never N11.
    const exchange = `${rng.between(2, 9)}${rng.between(0, 9)}${rng.between(2, 9)}`;
    return `+1${rng.pick(areas!)}${exchange}${rng.digits(4)}`;
  }
  if (areas) return `+${country.dial}${rng.pick(areas)}9${rng.digits(country.mobile.digits)}`;
  return `+${country.dial}${rng.pick(country.mobile.prefixes)}${rng.digits(country.mobile.digits)}`;
}
