/**
 * Match requests (docs/spec/api-reference.md §3): strict objects, 1–50 rows. Per-row problems (no identifier,
 * a name without a company …) are not schema errors: the matcher answers them in the row. Every field
 * is bounded (`bounds.ts`): names 256 characters as the live schema says, e-mails 320, phones 64, URLs
 * and ids 2,048; the matcher bounds them again for library callers (`core/match/limits.ts`).
 */
import { z } from 'zod';
import { FreeObject, LIMITS, list } from './bounds.js';

const field = (max: number) => z.string().max(max).nullish();

export const BusinessMatchInput = z.strictObject({
  name: field(LIMITS.name),
  domain: field(LIMITS.url),
  url: field(LIMITS.url),
  linkedin_url: field(LIMITS.url),
});
export type BusinessMatchInput = z.output<typeof BusinessMatchInput>;

export const ProspectMatchInput = z.strictObject({
  business_id: field(LIMITS.code),
  full_name: field(LIMITS.personName),
  company_name: field(LIMITS.name),
  email: field(LIMITS.email),
  phone_number: field(LIMITS.phone),
  linkedin: field(LIMITS.url),
});
export type ProspectMatchInput = z.output<typeof ProspectMatchInput>;

const requestContext = FreeObject.nullish();
/** Extension: match a row iff its best candidate's calibrated confidence reaches this (absent: the default). */
const minConfidence = z.number().min(0).max(1).nullish();

export const BusinessesMatchRequest = z.strictObject({
  request_context: requestContext,
  businesses_to_match: list(BusinessMatchInput, 50, 1),
  min_confidence: minConfidence,
});
export type BusinessesMatchRequest = z.output<typeof BusinessesMatchRequest>;

export const ProspectsMatchRequest = z.strictObject({
  request_context: requestContext,
  prospects_to_match: list(ProspectMatchInput, 50, 1),
  min_confidence: minConfidence,
});
export type ProspectsMatchRequest = z.output<typeof ProspectsMatchRequest>;
