/**
 * Pure derivations from validated records to stored columns: normalised keys, buckets, and the company
 * fields a prospect inherits from its business. Shared by the loader and by anything that re-derives.
 */
import {
  companyKey,
  linkedinCompanySlug,
  linkedinPersonSlug,
  normaliseDomain,
  normaliseEmail,
  normalisePersonName,
} from '../normalise/index.js';
import type { CompanyAge, NumberOfLocations } from '../schemas/enums.js';
import type { BusinessRecord, ProspectRecord } from '../schemas/records.js';

/** Countries whose city labels carry the state or province, as clients write them ("Miami, FL, US"). */
const REGION_IN_LABEL = new Set(['us', 'ca', 'au']);

/**
 * The `city_region_country` label: "City, RR, CC" where the region is customary (US, CA, AU) and
 * "City, CC" elsewhere ("Paris, FR"), matching the values clients send.
 */
export function cityRegionCountry(
  city: string | null,
  regionCode: string | null,
  countryCode: string | null,
): string | null {
  if (!city || !countryCode) return null;
  const parts = [city];
  if (regionCode && REGION_IN_LABEL.has(countryCode)) {
    const dash = regionCode.indexOf('-');
    parts.push(regionCode.slice(dash + 1).toUpperCase());
  }
  parts.push(countryCode.toUpperCase());
  return parts.join(', ');
}

/** Years since founding at `asOfYear`, bucketed: `0-3` is under 3 years, `3-6` is 3 to under 6, … `20+`. */
export function ageBucket(foundedYear: number | null, asOfYear: number): CompanyAge | null {
  if (foundedYear === null) return null;
  const age = asOfYear - foundedYear;
  if (age < 0) return null;
  if (age < 3) return '0-3';
  if (age < 6) return '3-6';
  if (age < 10) return '6-10';
  if (age < 20) return '10-20';
  return '20+';
}

export function locationsBucket(n: number | null): NumberOfLocations | null {
  if (n === null) return null;
  if (n <= 1) return '0-1';
  if (n <= 5) return '2-5';
  if (n <= 20) return '6-20';
  if (n <= 50) return '21-50';
  if (n <= 100) return '51-100';
  if (n <= 1000) return '101-1000';
  return '1001+';
}

export interface BusinessColumns {
  business_id: string;
  name: string;
  name_key: string;
  domain: string | null;
  host: string | null;
  linkedin_slug: string | null;
  country_code: string | null;
  region_country_code: string | null;
  city_name: string | null;
  city_region: string | null;
  city_region_country: string | null;
  size: string | null;
  revenue: string | null;
  founded_year: number | null;
  age: string | null;
  number_of_locations: number | null;
  locations: string | null;
  naics: string | null;
  is_public: number;
  has_website: number;
}

export function businessColumns(b: BusinessRecord, asOfYear: number): BusinessColumns {
  const domain = normaliseDomain(b.domain) ?? normaliseDomain(b.website);
  return {
    business_id: b.business_id,
    name: b.name,
    name_key: companyKey(b.name),
    domain: domain?.registrable ?? null,
    host: domain?.host ?? null,
    linkedin_slug: linkedinCompanySlug(b.linkedin_profile),
    country_code: b.country_code,
    region_country_code: b.region_country_code,
    city_name: b.city_name,
    city_region: b.city_region,
    city_region_country: cityRegionCountry(b.city_name, b.region_country_code, b.country_code),
    size: b.number_of_employees_range,
    revenue: b.yearly_revenue_range,
    founded_year: b.founded_year,
    age: ageBucket(b.founded_year, asOfYear),
    number_of_locations: b.number_of_locations,
    locations: locationsBucket(b.number_of_locations),
    naics: b.naics === null ? null : String(b.naics),
    is_public: b.is_public_company ? 1 : 0,
    has_website: b.website || b.domain ? 1 : 0,
  };
}

/** The `company_website` a prospect shows: the business's website, else `https://` + its domain. */
export function companyWebsite(b: Pick<BusinessRecord, 'website' | 'domain'>): string | null {
  return b.website ?? (b.domain ? `https://${b.domain}` : null);
}

/** The company fields a prospect carries, copied from its business at load time. */
export interface CompanyColumns {
  business_rowid: number;
  company_name: string;
  company_website: string | null;
  company_linkedin: string | null;
  company_size: string | null;
  company_revenue: string | null;
  company_age: string | null;
  company_locations: string | null;
  company_country_code: string | null;
  company_region_country_code: string | null;
  company_city_region_country: string | null;
  company_naics: string | null;
  company_is_public: number;
  company_has_website: number;
}

export const NO_COMPANY: { [K in keyof CompanyColumns]: null } = {
  business_rowid: null,
  company_name: null,
  company_website: null,
  company_linkedin: null,
  company_size: null,
  company_revenue: null,
  company_age: null,
  company_locations: null,
  company_country_code: null,
  company_region_country_code: null,
  company_city_region_country: null,
  company_naics: null,
  company_is_public: null,
  company_has_website: null,
};

export interface ProspectColumns {
  prospect_id: string;
  business_id: string | null;
  full_name: string;
  name_key: string;
  linkedin_slug: string | null;
  country_code: string | null;
  region_country_code: string | null;
  job_title: string;
  job_level: string | null;
  job_department: string | null;
  total_experience_months: number | null;
  current_role_months: number | null;
  has_email: number;
  has_phone: number;
}

export function prospectFullName(p: ProspectRecord): string {
  return p.full_name || [p.first_name, p.last_name].filter(Boolean).join(' ');
}

export function prospectColumns(p: ProspectRecord): ProspectColumns {
  const fullName = prospectFullName(p);
  return {
    prospect_id: p.prospect_id,
    business_id: p.business_id,
    full_name: fullName,
    name_key: normalisePersonName(fullName).key,
    linkedin_slug: linkedinPersonSlug(p.linkedin) ?? firstSlug(p.linkedin_url_array),
    country_code: p.country_code,
    region_country_code: p.region_country_code,
    job_title: p.job_title,
    job_level: p.job_level_main,
    job_department: p.job_department_main,
    total_experience_months: p.total_experience_months,
    current_role_months: p.current_role_months,
    has_email: p.emails.length > 0 ? 1 : 0,
    has_phone: p.phone_numbers.length > 0 ? 1 : 0,
  };
}

function firstSlug(urls: string[]): string | null {
  for (const url of urls) {
    const slug = linkedinPersonSlug(url);
    if (slug) return slug;
  }
  return null;
}

/**
 * Exact match keys of a prospect: every personal e-mail that is not a role account, every phone in
 * E.164, every profile slug. Duplicates within one prospect are dropped.
 */
export function prospectKeys(p: ProspectRecord, slug: string | null): [kind: string, key: string][] {
  const seen = new Set<string>();
  const keys: [string, string][] = [];
  const add = (kind: string, key: string | null | undefined) => {
    if (!key) return;
    const id = kind + '\0' + key;
    if (seen.has(id)) return;
    seen.add(id);
    keys.push([kind, key]);
  };
  for (const e of p.emails) {
    const email = normaliseEmail(e.address);
    if (email && !email.role) add('email', email.key);
  }
  // Snapshot phones are already E.164 (the record schema checks the form); parsing each one again with
  // libphonenumber costs ~19 µs, most of a prospect's load time, so the stored form is the key.
  for (const ph of p.phone_numbers) add('phone', ph.phone_number);
  add('linkedin', slug);
  for (const url of p.linkedin_url_array) add('linkedin', linkedinPersonSlug(url));
  return keys;
}
