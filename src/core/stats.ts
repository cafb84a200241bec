/**
 * Stats (docs/spec/api-reference.md §6) under any filters: `total_results` (never capped) and exact
 * breakdowns.
 *
 * How the breakdown adapts to the filters:
 * - Location granularity: region ("California, US") when the request filters on a location (country,
 *   region or city filter of the entity, or for prospects also of the company); country ("US")
 *   otherwise. Rows without a region fall back to their country; rows without either are "Unknown".
 * - Business category dimension: the category filter used picks it (`linkedin_category` → LinkedIn
 *   categories, `naics_category` → NAICS codes); Google categories otherwise. A business with several
 *   categories counts once in each.
 * - Prospect department dimension: the main department (`job_department_main`).
 * - Key counts are bounded: the 25 largest categories and the 25 largest locations (ties by name); every
 *   shown count is exact and each `total` is the exact total of its key over all locations / ranges,
 *   not only those shown. `total_per_location.total` equals `total_results`.
 * Counting is one pass over the matching rows reading dense code columns (cheaper than one bitmap
 * intersection per category × location pair); prospect sets holding most rows are counted through
 * their complement.
 */
import { kind, type Context } from '../runtime/context.js';
import { andNotInto, cardinality, forEachFrom, type Bitset } from '../indexes/bitset.js';
import { businessIndex } from '../indexes/businesses.js';
import type { Csr } from '../indexes/csr.js';
import { countryCodeOf, regionCodeOf, regionLabel } from '../indexes/labels.js';
import { prospectIndex, type ProspectIndex } from '../indexes/prospects.js';
import { borrowCopy, release } from '../indexes/scratch.js';
import {
  COMPANY_REVENUES,
  COMPANY_SIZES,
  COUNTRY_CODES,
  JOB_DEPARTMENTS,
  REGION_CODES,
} from '../schemas/enums.js';
import type { AnyProspectFilters, BusinessFilters } from '../schemas/filters.js';
import type { BusinessesStatsRequest, ProspectsStatsRequest } from '../schemas/search.js';
import { businessFilterSet, prospectFilterSet } from './filters.js';

export const STATS_TOP_KEYS = 25;
const COUNTRY_BASE = REGION_CODES.length + 1;
const LOCATION_CODES = COUNTRY_BASE + COUNTRY_CODES.length + 1;

type Counts = Record<string, number>;

/** The two location columns of an entity index (saved apart, each read on first use). */
interface Locations {
  readonly regionOf: Uint16Array;
  readonly countryOf: Uint8Array;
}

/**
 * The region column when the breakdown is regional, else an empty one never indexed: reading the
 * column is what costs a first answer (10 MB at 5M prospects, ~0.13 s), and a breakdown by country
 * does not look at it.
 */
const regionsIf = (ix: Locations, regional: boolean): Uint16Array => (regional ? ix.regionOf : NO_REGIONS);
const NO_REGIONS = new Uint16Array(0);

/** Location code of a row: region id, else COUNTRY_BASE + country id, else 0. */
function locationCoder(ix: Locations, regional: boolean) {
  const countryOf = ix.countryOf;
  const regionOf = regionsIf(ix, regional);
  return regional
    ? (row: number) => regionOf[row]! || (countryOf[row]! ? COUNTRY_BASE + countryOf[row]! : 0)
    : (row: number) => (countryOf[row]! ? COUNTRY_BASE + countryOf[row]! : 0);
}

function locationLabel(code: number): string {
  if (code === 0) return 'Unknown';
  if (code < COUNTRY_BASE) return regionLabel(regionCodeOf(code)!);
  return (countryCodeOf(code - COUNTRY_BASE) ?? 'unknown').toUpperCase();
}

/** Indexes of the `k` largest counts (ties by label), largest first. */
function top(counts: ArrayLike<number>, label: (i: number) => string, k: number): number[] {
  const idx: number[] = [];
  for (let i = 0; i < counts.length; i++) if (counts[i]! > 0) idx.push(i);
  idx.sort((a, b) => counts[b]! - counts[a]! || (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0));
  return idx.slice(0, k);
}

function withTotal(entries: [string, number][], total: number): Counts {
  const out: Counts = {};
  for (const [k, v] of entries) if (v > 0) out[k] = v;
  out.total = total;
  return out;
}

interface CrossTab {
  /** Row count per location code. */
  locations: Uint32Array;
  topLocations: number[];
}

function locationTotals(set: Bitset, code: (row: number) => number): CrossTab {
  const locations = new Uint32Array(LOCATION_CODES);
  forEachFrom(set, 0, (row) => {
    locations[code(row)]!++;
  });
  return { locations, topLocations: top(locations, locationLabel, STATS_TOP_KEYS) };
}

function totalPerLocation(tab: CrossTab, total: number): Counts {
  return withTotal(
    tab.topLocations.map((l) => [locationLabel(l), tab.locations[l]!]),
    total,
  );
}

const hasValues = (f: { values?: readonly unknown[] } | null | undefined) =>
  !!f && (f.values?.length ?? 0) > 0;

/** Dense ids of the full NAICS codes of businesses (1-based per row, 0 = none). */
function naicsCodes(engine: Context): { idOf: Uint32Array; labels: string[] } {
  return engine.indexes.get(NAICS_CODES);
}

const NAICS_CODES = kind(
  'search.naicsCodes',
  (e): { idOf: Uint32Array; labels: string[] } => {
    const ix = businessIndex(e);
    const ids = new Map<number, number>();
    const labels: string[] = [];
    const idOf = new Uint32Array(ix.naicsOf.length);
    for (let row = 0; row < ix.naicsOf.length; row++) {
      const n = ix.naicsOf[row]!;
      if (!n) continue;
      let id = ids.get(n);
      if (id === undefined) {
        labels.push(String(n));
        ids.set(n, (id = labels.length));
      }
      idOf[row] = id;
    }
    return { idOf, labels };
  },
  'entities',
);

function regionalBusiness(f: BusinessFilters | null | undefined): boolean {
  return !!f && [f.country_code, f.region_country_code, f.city_region_country, f.city_region].some(hasValues);
}

function regionalProspect(f: AnyProspectFilters | null | undefined): boolean {
  return (
    !!f &&
    [
      f.country_code,
      f.region_country_code,
      f.company_country_code,
      f.company_region_country_code,
      f.city_region_country,
    ].some(hasValues)
  );
}

/**
 * Business stats: total, categories per location, revenue and employee ranges per category.
 * @example businessStats(engine, { filters: { country_code: { values: ['us'] } } })
 */
export function businessStats(engine: Context, request: BusinessesStatsRequest, version: 1 | 2 = 1) {
  const ix = businessIndex(engine);
  const filters = request.filters;
  const set = businessFilterSet(engine, filters, version);
  const total = cardinality(set);
  const code = locationCoder(ix, regionalBusiness(filters));
  const tab = locationTotals(set, code);

  // Category dimension: google / linkedin via CSR value ids, naics via the code column.
  let categoryLabels: readonly string[];
  let categoriesOf: (row: number, fn: (cat: number) => void) => void;
  if (hasValues(filters?.naics_category)) {
    const naics = naicsCodes(engine);
    categoryLabels = naics.labels;
    categoriesOf = (row, fn) => {
      const id = naics.idOf[row]!;
      if (id) fn(id - 1);
    };
  } else {
    const linkedin = hasValues(filters?.linkedin_category);
    const csr: Csr = linkedin ? ix.linkedinOf : ix.googleOf;
    categoryLabels = (linkedin ? ix.facets.linkedin : ix.facets.google).labels;
    categoriesOf = (row, fn) => {
      if (row + 1 >= csr.start.length) return;
      for (let i = csr.start[row]!; i < csr.start[row + 1]!; i++) fn(csr.ids[i]!);
    };
  }

  // Pass 1: totals per category and ranges per category.
  const C = categoryLabels.length;
  const R = COMPANY_REVENUES.length + 1;
  const S = COMPANY_SIZES.length + 1;
  const catCounts = new Uint32Array(C);
  const revenue = new Uint32Array(C * R);
  const sizes = new Uint32Array(C * S);
  forEachFrom(set, 0, (row) => {
    const rv = ix.revenueOf[row]!;
    const sz = ix.sizeOf[row]!;
    categoriesOf(row, (cat) => {
      catCounts[cat]!++;
      revenue[cat * R + rv]!++;
      sizes[cat * S + sz]!++;
    });
  });
  const topCats = top(catCounts, (i) => categoryLabels[i]!, STATS_TOP_KEYS);

  // Pass 2: top categories × top locations.
  const catSlot = new Map(topCats.map((c, i) => [c, i]));
  const locSlot = new Map(tab.topLocations.map((l, i) => [l, i]));
  const L = tab.topLocations.length;
  const cross = new Uint32Array(topCats.length * L);
  if (topCats.length && L) {
    forEachFrom(set, 0, (row) => {
      const ls = locSlot.get(code(row));
      if (ls === undefined) return;
      categoriesOf(row, (cat) => {
        const cs = catSlot.get(cat);
        if (cs !== undefined) cross[cs * L + ls]!++;
      });
    });
  }

  release(engine, set);
  const perLocation: Record<string, Counts> = {};
  const revenuePer: Record<string, Counts> = {};
  const employeesPer: Record<string, Counts> = {};
  topCats.forEach((cat, cs) => {
    const name = categoryLabels[cat]!;
    perLocation[name] = withTotal(
      tab.topLocations.map((l, ls) => [locationLabel(l), cross[cs * L + ls]!]),
      catCounts[cat]!,
    );
    revenuePer[name] = withTotal(
      COMPANY_REVENUES.map((r, i) => [r, revenue[cat * R + i + 1]!]),
      catCounts[cat]!,
    );
    employeesPer[name] = withTotal(
      COMPANY_SIZES.map((s, i) => [s, sizes[cat * S + i + 1]!]),
      catCounts[cat]!,
    );
  });
  perLocation.total_per_location = totalPerLocation(tab, total);
  return {
    total_results: total,
    stats: {
      business_categories_per_location: perLocation,
      revenue_per_category: revenuePer,
      number_of_employees_per_category: employeesPer,
    },
  };
}

const DEPARTMENT_CODES = JOB_DEPARTMENTS.length + 1;

/**
 * The prospect cross-tab: rows per (main department, location) cell, `cells[d * LOCATION_CODES + l]`,
 * with its margins.
 */
interface ProspectTab {
  cells: Uint32Array;
  locations: Uint32Array;
  departments: Uint32Array;
}

const emptyTab = (): ProspectTab => ({
  cells: new Uint32Array(DEPARTMENT_CODES * LOCATION_CODES),
  locations: new Uint32Array(LOCATION_CODES),
  departments: new Uint32Array(DEPARTMENT_CODES),
});

/** Adds `sign` for every row of `set` (one pass over the words, no callback per row). */
function countRows(ix: ProspectIndex, set: Bitset, regional: boolean, tab: ProspectTab, sign: 1 | -1) {
  const w = set.words;
  const { departmentOf, countryOf } = ix;
  const regionOf = regionsIf(ix, regional);
  const { cells, locations, departments } = tab;
  for (let i = 0; i < w.length; i++) {
    let word = w[i]!;
    while (word !== 0) {
      const t = word & -word;
      word ^= t;
      const row = (i << 5) + (31 - Math.clz32(t));
      const country = countryOf[row]!;
      const location = (regional && regionOf[row]!) || (country ? COUNTRY_BASE + country : 0);
      const department = departmentOf[row]!;
      cells[department * LOCATION_CODES + location]! += sign;
      locations[location]! += sign;
      departments[department]! += sign;
    }
  }
}

/** The cross-tab of every row (cached per data version and location granularity). */
function allRowsTab(engine: Context, regional: boolean): ProspectTab {
  return engine.indexes.get(regional ? ALL_ROWS_TAB.region : ALL_ROWS_TAB.country);
}

const allRows = (regional: boolean) => (e: Context) => {
  const ix = prospectIndex(e);
  const tab = emptyTab();
  countRows(ix, ix.all, regional, tab, 1);
  return tab;
};
const ALL_ROWS_TAB = {
  region: kind('search.prospectTab.region', allRows(true), 'entities'),
  country: kind('search.prospectTab.country', allRows(false), 'entities'),
};
/** The scratch tab every request reuses (one per engine and data version). */
const SCRATCH_TAB = kind('search.prospectTab.scratch', emptyTab);

/**
 * The cross-tab of `set`, in a scratch tab reused by every request (cleared here; read before the next
 * request). A set holding most rows is counted through its complement (every row's tab minus the rest),
 * so no request scans more than half the rows.
 */
function prospectTab(engine: Context, set: Bitset, total: number, regional: boolean): ProspectTab {
  const ix = prospectIndex(engine);
  const tab = engine.indexes.get(SCRATCH_TAB);
  // Rowids are dense from 1, so `size` stands for the row count (a threshold only: both paths are exact).
  if (total * 2 <= ix.size) {
    tab.cells.fill(0);
    tab.locations.fill(0);
    tab.departments.fill(0);
    countRows(ix, set, regional, tab, 1);
    return tab;
  }
  const all = allRowsTab(engine, regional);
  tab.cells.set(all.cells);
  tab.locations.set(all.locations);
  tab.departments.set(all.departments);
  const rest = borrowCopy(engine, ix.all);
  andNotInto(rest, set);
  countRows(ix, rest, regional, tab, -1);
  release(engine, rest);
  return tab;
}

/**
 * Prospect stats: total, main departments per location, prospects per location.
 * @example prospectStats(engine, { filters: { job_level: { values: ['director'] } } })
 */
export function prospectStats(engine: Context, request: ProspectsStatsRequest) {
  const filters = request.filters;
  const set = prospectFilterSet(engine, filters);
  const total = cardinality(set);
  const { cells, locations, departments } = prospectTab(engine, set, total, regionalProspect(filters));
  release(engine, set);
  departments[0] = 0; // rows without a main department count in locations only
  const tab: CrossTab = { locations, topLocations: top(locations, locationLabel, STATS_TOP_KEYS) };
  const perLocation: Record<string, Counts> = {};
  for (const d of top(departments, (i) => JOB_DEPARTMENTS[i - 1] ?? '', DEPARTMENT_CODES)) {
    perLocation[JOB_DEPARTMENTS[d - 1]!] = withTotal(
      tab.topLocations.map((l) => [locationLabel(l), cells[d * LOCATION_CODES + l]!]),
      departments[d]!,
    );
  }
  const totals = totalPerLocation(tab, total);
  perLocation.total_per_location = totals;
  return {
    total_results: total,
    stats: { job_departments_per_location: perLocation, total_per_location: { ...totals } },
  };
}
