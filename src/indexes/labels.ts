/**
 * Dense codes for the location and bucket columns that stats cross-tabulate, and the labels shown for
 * them ("California, US", "US").
 */
import { COUNTRY_CODES, COUNTRY_NAME_BY_CODE, REGION_CODES, REGION_NAME_BY_CODE } from '../schemas/enums.js';

const COUNTRY_ID = new Map(COUNTRY_CODES.map((c, i) => [c, i + 1]));
const REGION_ID = new Map(REGION_CODES.map((c, i) => [c, i + 1]));

/** 1-based code of a country (0 = none): fits a byte, the spec lists 250 countries (a test holds it). */
export function countryId(code: string | null | undefined): number {
  return (code && COUNTRY_ID.get(code)) || 0;
}
/** 1-based code of a region (0 = none). */
export function regionId(code: string | null | undefined): number {
  return (code && REGION_ID.get(code)) || 0;
}
export function countryCodeOf(id: number): string | null {
  return id > 0 ? (COUNTRY_CODES[id - 1] ?? null) : null;
}
export function regionCodeOf(id: number): string | null {
  return id > 0 ? (REGION_CODES[id - 1] ?? null) : null;
}

/** "united states" → "United States"; "tanzania, united republic of" → "Tanzania, United Republic Of". */
export function titleCase(s: string): string {
  return s.replace(/(^|[\s\-(/])(\p{L})/gu, (_m, pre: string, ch: string) => pre + ch.toUpperCase());
}

export function countryLabel(code: string): string {
  return titleCase(COUNTRY_NAME_BY_CODE.get(code) ?? code);
}

/** "us-ca" → "California, US". */
export function regionLabel(code: string): string {
  const name = REGION_NAME_BY_CODE.get(code) ?? code;
  const cc = code.slice(0, code.indexOf('-')).toUpperCase();
  return `${titleCase(name)}, ${cc}`;
}
