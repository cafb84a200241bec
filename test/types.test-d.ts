/**
 * Type-level test, checked by `tsc` (`npm run typecheck`; vitest does not run it): a user's file
 * compiles with only the request fields it sets (fields with a default may be left out), results are
 * typed records, and mistakes a compiler can see are type errors.
 */
import { expectTypeOf } from 'vitest';
import {
  autocomplete,
  businessStats,
  fetchBusinesses,
  fetchProspects,
  matchBusinesses,
  openEngine,
  prospectStats,
  type AutocompleteItem,
  type CursorPage,
  type FetchedProspect,
  type Page,
} from '../src/index.js';

const engine = openEngine();

// Only what the user writes: no `size`, `page`, `exclude`, `request_context`, `negate`, `semantic_search`.
const page = fetchProspects(engine, {
  mode: 'preview',
  page_size: 10,
  filters: { country_code: { values: ['us'] } },
});
expectTypeOf(page).toEqualTypeOf<Page<FetchedProspect>>();
expectTypeOf(page.data[0]!.first_name).toEqualTypeOf<string>();
expectTypeOf(page.data[0]!.job_title).toEqualTypeOf<string>();
expectTypeOf(page.data[0]!.skills).toEqualTypeOf<string[] | undefined>();

const v2 = fetchProspects(engine, { mode: 'full', page_size: 10, next_cursor: null }, { version: 2 });
expectTypeOf(v2).toEqualTypeOf<CursorPage<FetchedProspect>>();
expectTypeOf(v2.page.next_cursor).toEqualTypeOf<string | null>();

expectTypeOf(
  fetchBusinesses(engine, { mode: 'preview', page_size: 5 }).data[0]!.name,
).toEqualTypeOf<string>();
expectTypeOf(
  prospectStats(engine, { filters: { job_level: { values: ['director'] } } }).total_results,
).toEqualTypeOf<number>();
expectTypeOf(businessStats(engine, { filters: null }, { version: 2 }).total_results).toEqualTypeOf<number>();
expectTypeOf(autocomplete(engine, { field: 'country', query: 'unit' })).toEqualTypeOf<AutocompleteItem[]>();
expectTypeOf(
  matchBusinesses(engine, [{ domain: 'acme.com' }]).matched_businesses[0]!.business_id,
).toEqualTypeOf<string | null>();

// @ts-expect-error a misspelled filter
fetchProspects(engine, { mode: 'preview', page_size: 10, filters: { contry_code: { values: ['us'] } } });
// @ts-expect-error a filter of the wrong shape
fetchProspects(engine, { mode: 'preview', page_size: 10, filters: { country_code: 'us' } });
// @ts-expect-error v2 has no offset pages
fetchProspects(engine, { mode: 'preview', page_size: 10, page: 2 }, { version: 2 });
// @ts-expect-error the API version is an option, not a positional number
fetchProspects(engine, { mode: 'preview', page_size: 10 }, 1);
// @ts-expect-error a misspelled engine option
openEngine({ readOnly: true });
