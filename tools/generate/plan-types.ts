/** The shape of a snapshot plan (`plan.ts` makes one; every record generator reads it). */

export interface PlanOptions {
  businesses: number;
  prospects: number;
  events: number;
  seed?: number;
  /** ISO 8601 instant the snapshot describes; events fall in the 90 days before it. */
  asOf?: string;
}

export interface Plan {
  seed: number;
  asOf: string;
  asOfMs: number;
  /** `as_of` as a month counted from year 0 (`year * 12 + month - 1`). */
  asOfMonth: number;
  businesses: number;
  prospects: number;
  events: number;
  country: Uint8Array;
  industry: Uint8Array;
  /** Index into COMPANY_SIZES. */
  size: Uint8Array;
  /** Business `i` employs prospects `firstProspect[i]` … `firstProspect[i + 1] - 1`; the rest have none. */
  firstProspect: Float64Array;
  /** Business indexes per industry (lookalikes) and of companies with 1,001+ employees (parents, IPOs). */
  byIndustry: readonly Uint32Array[];
  large: Uint32Array;
  /** Which name, domain and company-profile variant each business takes so none is shared (see `uniqueWebKeys`). */
  nameVariant: Uint16Array;
  domainVariant: Uint16Array;
  slugVariant: Uint16Array;
}
