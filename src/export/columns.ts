/**
 * The typed columns of exported records (CSV header order, Parquet schema), in wire-record order. A
 * preview export keeps the preview keys. `list` columns are lists of strings (Parquet LIST, a JSON array
 * in CSV), `records` columns lists of objects with string `fields` (Parquet LIST of STRUCT, JSON text
 * in CSV).
 */
import { BUSINESS_PREVIEW_KEYS, PROSPECT_PREVIEW_KEYS, type FetchMode } from '../store/wire.js';

export type ColumnKind = 'string' | 'int' | 'list' | 'records';
export interface Column {
  name: string;
  kind: ColumnKind;
  /** The string fields of a `records` column's objects. */
  fields?: readonly string[];
  /** Unique random hex values (ids, hashes): Parquet stores them plain and uncompressed, as neither a
   * dictionary nor compression shrinks them. */
  random?: true;
  /** Mostly distinct values (full names, profile URLs: 86-92 % distinct in a row group of prospects):
   * Parquet stores them plain, compressed, without a dictionary that would hold nearly every value. */
  distinct?: true;
}
export type { ExportEntity } from '../core/stored-records.js';
import type { ExportEntity } from '../core/stored-records.js';

/** Columns of mostly distinct strings (see `Column.distinct`). String columns only: the writer's
 * per-column settings name top-level columns, not the items of a list. */
const DISTINCT = new Set([
  'prospects.full_name',
  'prospects.linkedin',
  'businesses.name',
  'businesses.domain',
  'businesses.logo',
  'businesses.website',
  'businesses.business_description',
  'businesses.linkedin_profile',
]);

/** Columns of unique random hex values (see `Column.random`). */
const RANDOM = new Set([
  'prospects.prospect_id',
  'prospects.professional_email_hashed',
  'businesses.business_id',
]);

const PROSPECT: [string, ColumnKind][] = [
  ['prospect_id', 'string'],
  ['professional_email_hashed', 'string'],
  ['first_name', 'string'],
  ['last_name', 'string'],
  ['full_name', 'string'],
  ['country_name', 'string'],
  ['region_name', 'string'],
  ['city', 'string'],
  ['linkedin', 'string'],
  ['linkedin_url_array', 'list'],
  ['experience', 'list'],
  ['skills', 'list'],
  ['interests', 'list'],
  ['company_name', 'string'],
  ['company_website', 'string'],
  ['company_linkedin', 'string'],
  ['job_department', 'string'],
  ['job_department_array', 'list'],
  ['job_department_main', 'string'],
  ['job_seniority_level', 'list'],
  ['job_level_array', 'list'],
  ['job_level_main', 'string'],
  ['job_title', 'string'],
  ['business_id', 'string'],
];

/** The fields of each `records` column (the wire record's shape, `store/wire.ts`). */
const FIELDS: Record<string, readonly string[]> = {
  business_intent_topics: ['topic', 'intent_level'],
  other_names: ['name', 'type'],
};

const BUSINESS: [string, ColumnKind][] = [
  ['business_id', 'string'],
  ['name', 'string'],
  ['domain', 'string'],
  ['logo', 'string'],
  ['website', 'string'],
  ['country_name', 'string'],
  ['region', 'string'],
  ['city_name', 'string'],
  ['number_of_employees_range', 'string'],
  ['yearly_revenue_range', 'string'],
  ['naics', 'int'],
  ['naics_description', 'string'],
  ['business_description', 'string'],
  ['sic_code', 'string'],
  ['sic_code_description', 'string'],
  ['business_intent_topics', 'records'],
  ['events', 'list'],
  ['linkedin_profile', 'string'],
  ['google_category', 'list'],
  ['linkedin_category', 'list'],
  ['other_names', 'records'],
];

/** The columns of an export of `entity` in `mode`. */
export function exportColumns(entity: ExportEntity, mode: FetchMode): Column[] {
  const table = entity === 'prospects' ? PROSPECT : BUSINESS;
  const preview = new Set<string>(entity === 'prospects' ? PROSPECT_PREVIEW_KEYS : BUSINESS_PREVIEW_KEYS);
  return table
    .filter(([name]) => mode === 'full' || preview.has(name))
    .map(([name, kind]) => ({
      name,
      kind,
      ...(kind === 'records' ? { fields: FIELDS[name] } : {}),
      ...(RANDOM.has(`${entity}.${name}`) ? { random: true as const } : {}),
      ...(DISTINCT.has(`${entity}.${name}`) ? { distinct: true as const } : {}),
    }));
}
