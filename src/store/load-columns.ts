/**
 * The column lists of the bulk INSERTs: what `load-insert.ts` binds, in the order `load-worker.ts`
 * builds each row's values. A change here is a change there.
 */
import type { StreamName } from '../snapshot/files.js';
import type { CompanyColumns } from './derive.js';

/**
 * The fields a prospect takes from its employer (`derive.ts` `CompanyColumns`): its fetch record shows
 * some; they are not stored with the prospect (reads join the business by `business_rowid`).
 */
export const COMPANY_COLUMNS = [
  'company_name',
  'company_website',
  'company_linkedin',
  'company_size',
  'company_revenue',
  'company_age',
  'company_locations',
  'company_country_code',
  'company_region_country_code',
  'company_city_region_country',
  'company_naics',
  'company_is_public',
  'company_has_website',
] as const satisfies readonly (keyof CompanyColumns)[];

/**
 * The columns of `LOAD_SQL.companies` in order, as the prospects stream's workers receive them:
 * `business_id` first, then what each prospect of the business takes.
 */
export const COMPANY_FIELDS = ['business_id', 'business_rowid', ...COMPANY_COLUMNS] as const;

/** The columns each stream's INSERT binds, in the order `load-worker.ts` builds the values. */
export const COLUMNS: Record<StreamName, readonly string[]> = {
  businesses: [
    'business_id',
    'name',
    'name_key',
    'domain',
    'host',
    'linkedin_slug',
    'country_code',
    'region_country_code',
    'city_name',
    'city_region',
    'city_region_country',
    'size',
    'revenue',
    'founded_year',
    'age',
    'number_of_locations',
    'locations',
    'naics',
    'is_public',
    'has_website',
    'rest',
    'website_url',
    'linkedin_profile',
    'wire',
    'facets',
    'other_names',
  ],
  prospects: [
    'prospect_id',
    'business_id',
    'business_rowid',
    'full_name',
    'name_key',
    'linkedin_slug',
    'country_code',
    'region_country_code',
    'job_title',
    'job_level',
    'job_department',
    'total_experience_months',
    'current_role_months',
    'has_email',
    'has_phone',
    'rest',
    'wire',
    'facets',
  ],
  events: ['event_id', 'event_name', 'entity_type', 'entity_id', 'event_time', 'ingested_at', 'doc'],
};
