/**
 * Export requests (library `exportProspects` / `exportBusinesses`, CLI `prospectdb export`): the filters
 * of the fetch routes without paging. Prospect filters are the v1 set (a superset of v2: `has_email`,
 * `has_phone_number` too); `version` only changes the default of the business filter
 * `include_operating_locations` (true in v1, false in v2), as in the routes.
 */
import { z } from 'zod';
import { FETCH_MODES } from './enums.js';
import { BusinessFilters, ProspectFilters } from './filters.js';
import { MAX_PER_COMPANY } from './search.js';

const common = {
  mode: z.enum(FETCH_MODES).default('full'),
  version: z.union([z.literal(1), z.literal(2)]).default(2),
  /** Ids left out of the export (no bound: the owner of the file exports). */
  exclude: z.array(z.string().transform((s) => s.toLowerCase())).nullish(),
};

export const ProspectsExportRequest = z.strictObject({
  ...common,
  filters: ProspectFilters.nullish(),
  max_per_company: z.number().int().min(1).max(MAX_PER_COMPANY).nullish(),
});
export const BusinessesExportRequest = z.strictObject({ ...common, filters: BusinessFilters.nullish() });

export type ProspectsExportRequest = z.input<typeof ProspectsExportRequest>;
export type BusinessesExportRequest = z.input<typeof BusinessesExportRequest>;
