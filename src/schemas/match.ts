/**
 * Match requests (`api-reference.md` §3): strict objects, 1–50 rows. Per-row problems (no identifier,
 * a name without a company …) are not schema errors: the matcher answers them in the row.
 */
import { z } from 'zod';

const field = z.string().nullish();

export const BusinessMatchInput = z.strictObject({
  name: z.string().max(256).nullish(),
  domain: field,
  url: field,
  linkedin_url: field,
});
export type BusinessMatchInput = z.output<typeof BusinessMatchInput>;

export const ProspectMatchInput = z.strictObject({
  business_id: field,
  full_name: field,
  company_name: field,
  email: field,
  phone_number: field,
  linkedin: field,
});
export type ProspectMatchInput = z.output<typeof ProspectMatchInput>;

const requestContext = z.record(z.string(), z.unknown()).nullish();
/** Extension: match a row iff its best candidate's calibrated confidence reaches this (absent: the default). */
const minConfidence = z.number().min(0).max(1).nullish();

export const BusinessesMatchRequest = z.strictObject({
  request_context: requestContext,
  businesses_to_match: z.array(BusinessMatchInput).min(1).max(50),
  min_confidence: minConfidence,
});
export type BusinessesMatchRequest = z.output<typeof BusinessesMatchRequest>;

export const ProspectsMatchRequest = z.strictObject({
  request_context: requestContext,
  prospects_to_match: z.array(ProspectMatchInput).min(1).max(50),
  min_confidence: minConfidence,
});
export type ProspectsMatchRequest = z.output<typeof ProspectsMatchRequest>;
