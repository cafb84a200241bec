/**
 * The plan of a snapshot: what every business is (country, industry, size) and which prospect
 * indexes work where, in a few typed arrays. Records are built from the plan one at a time, so a
 * million prospects never sit in memory and any record can be regenerated from its index.
 */
import { COMPANY_SIZES } from '../../src/schemas/enums.js';
import { COUNTRIES } from '../../src/schemas/places.js';
import { INDUSTRIES } from './data/industries.js';
import { uniqueWebKeys } from './business-core.js';
import type { Plan, PlanOptions } from './plan-types.js';
import { Rng, STREAM, Weighted } from '../rng.js';

// The plan's shape is its own module: the business identities that `makePlan` draws read it too.
export type { Plan, PlanOptions } from './plan-types.js';

export const DEFAULT_SEED = 42;
export const DEFAULT_AS_OF = '2026-11-01T00:00:00Z';
/** Share of prospects with no current employer. */
const UNEMPLOYED = 0.03;

export const COUNTRY_PICK = new Weighted(COUNTRIES.map((c, i) => [i, c.weight] as const));
const INDUSTRY_PICK = new Weighted(INDUSTRIES.map((d, i) => [i, d.weight] as const));

// Zipf-like sizes: most firms have 1-10 or 11-50 employees; the scale of the industry shifts the curve.
const SIZE_PICK = [
  [55, 30, 10, 3, 1, 0.6, 0.2, 0.2],
  [40, 30, 16, 7, 3, 2.6, 0.8, 0.6],
  [15, 20, 20, 14, 10, 12, 4, 5],
].map((weights) => new Weighted(weights.map((w, i) => [i, w] as const)));

/** How many of the prospects a company of each size gets, relative to the smallest. */
const PROSPECT_WEIGHT = [1, 3, 8, 18, 35, 70, 130, 220];

export function makePlan(options: PlanOptions): Plan {
  const { businesses, prospects, events } = options;
  for (const [name, n] of Object.entries({ businesses, prospects, events })) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer`);
  }
  if ((prospects > 0 || events > 0) && businesses === 0)
    throw new RangeError('prospects and events need businesses');
  const seed = options.seed ?? DEFAULT_SEED;
  const asOf = options.asOf ?? DEFAULT_AS_OF;
  const asOfMs = Date.parse(asOf);
  if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be an integer');
  if (Number.isNaN(asOfMs)) throw new RangeError(`as_of is not an ISO 8601 date-time: ${asOf}`);
  const asOfDate = new Date(asOfMs);

  const country = new Uint8Array(businesses);
  const industry = new Uint8Array(businesses);
  const size = new Uint8Array(businesses);
  let totalWeight = 0;
  for (let i = 0; i < businesses; i++) {
    const rng = new Rng(seed, STREAM.plan, i);
    country[i] = COUNTRY_PICK.pick(rng);
    const ind = INDUSTRY_PICK.pick(rng);
    industry[i] = ind;
    size[i] = SIZE_PICK[INDUSTRIES[ind]!.scale]!.pick(rng);
    totalWeight += PROSPECT_WEIGHT[size[i]!]!;
  }

  // Systematic sampling over cumulative weights: exact total, proportional shares, one pass.
  const employed = businesses === 0 ? 0 : prospects - Math.round(prospects * UNEMPLOYED);
  const firstProspect = new Float64Array(businesses + 1);
  const offset = new Rng(seed, STREAM.plan, -1).next();
  let cumulative = 0;
  for (let i = 0; i < businesses; i++) {
    cumulative += PROSPECT_WEIGHT[size[i]!]!;
    firstProspect[i + 1] = Math.min(employed, Math.floor((employed * cumulative) / totalWeight + offset));
  }
  if (businesses > 0) firstProspect[businesses] = employed;

  const buckets: number[][] = INDUSTRIES.map(() => []);
  const large: number[] = [];
  const largeFrom = COMPANY_SIZES.indexOf('1001-5000');
  for (let i = 0; i < businesses; i++) {
    buckets[industry[i]!]!.push(i);
    if (size[i]! >= largeFrom) large.push(i);
  }
  const plan: Plan = {
    seed,
    asOf,
    asOfMs,
    asOfMonth: asOfDate.getUTCFullYear() * 12 + asOfDate.getUTCMonth(),
    businesses,
    prospects,
    events,
    country,
    industry,
    size,
    firstProspect,
    byIndustry: buckets.map((b) => Uint32Array.from(b)),
    large: Uint32Array.from(large.length > 0 ? large : [0]),
    nameVariant: new Uint16Array(businesses),
    domainVariant: new Uint16Array(businesses),
    slugVariant: new Uint16Array(businesses),
  };
  const web = uniqueWebKeys(plan);
  plan.nameVariant = web.name;
  plan.domainVariant = web.domain;
  plan.slugVariant = web.slug;
  return plan;
}

/** Number of prospects that work for a business; prospects from this index on have none. */
export function employedCount(plan: Plan): number {
  return plan.firstProspect[plan.businesses] ?? 0;
}

/** The business employing prospect `k`, or -1. */
export function employerOf(plan: Plan, k: number): number {
  if (k >= employedCount(plan)) return -1;
  const f = plan.firstProspect;
  let lo = 0;
  let hi = plan.businesses - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (f[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
