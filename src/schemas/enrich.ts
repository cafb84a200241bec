/**
 * Enrichment request bodies (docs/spec/api-reference.md §14.2): v1 `/enrich` (one id), v1 `/bulk_enrich`
 * (1..50 ids), v2 `/enrich` (one id or a list of 1..50). Typed `parameters` per enrichment; every other
 * enrichment takes a free object or null, ignored.
 */
import { z } from 'zod';
import { anyCase, FreeObject, LIMITS, list } from './bounds.js';
import { BusinessId, ProspectId } from './records.js';

export const RequestContext = FreeObject.nullish();

/** Free parameters: any object or null (ignored). */
export const FreeParams = FreeObject.nullish();

export const CONTACT_TYPES = ['email', 'phone'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];
export const WATERFALL_MODES = ['explorium_only', 'full'] as const;
export type WaterfallMode = (typeof WATERFALL_MODES)[number];

/** Sync contact parameters; `waterfall` is an addition of this engine (the live sync route has none). */
export const ContactsParams = z
  .strictObject({
    contact_types: list(anyCase(CONTACT_TYPES), 2, 1).nullish(),
    waterfall: anyCase(WATERFALL_MODES).nullish(),
  })
  .nullish();
export type ContactsParams = z.output<typeof ContactsParams>;

export const BomboraParams = z
  .strictObject({
    topics: list(z.string().max(LIMITS.text * 16), LIMITS.filterValues).nullish(),
    min_score: z.number().int().min(0).max(100).nullish(),
  })
  .nullish();
export const KeywordsParams = z.strictObject({
  keywords: list(z.string().min(1).max(LIMITS.text), LIMITS.filterValues, 1),
});
export const FinancialParams = z
  .strictObject({ date: z.iso.datetime({ offset: true }).or(z.iso.date()) })
  .nullish();
export const TrafficParams = z
  .strictObject({ month_period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM') })
  .nullish();
export const PostsParams = z.strictObject({ offline_mode: anyCase(['true', 'false']).nullish() }).nullish();

const ids = <T extends z.ZodType>(id: T) => list(id, 50, 1);

/** The request body of one enrichment route, built from the enrichment's parameter schema. */
export function enrichBody(
  entity: 'business' | 'prospect',
  form: 'enrich' | 'bulk' | 'v2',
  params: z.ZodType,
) {
  const id = entity === 'business' ? BusinessId : ProspectId;
  const key = entity === 'business' ? 'business' : 'prospect';
  const base = { request_context: RequestContext, parameters: params };
  if (form === 'enrich') return z.strictObject({ ...base, [`${key}_id`]: id });
  if (form === 'bulk') return z.strictObject({ ...base, [`${key}_ids`]: ids(id) });
  return z.strictObject({ ...base, [`${key}_ids`]: z.union([id, ids(id)]) });
}

/** The ids a parsed enrichment body names, in order (one id for v1 `/enrich`). */
export function bodyIds(entity: 'business' | 'prospect', body: Record<string, unknown>): string[] {
  const key = entity === 'business' ? 'business' : 'prospect';
  const one = body[`${key}_id`];
  if (typeof one === 'string') return [one];
  const many = body[`${key}_ids`];
  return typeof many === 'string' ? [many] : (many as string[]);
}
