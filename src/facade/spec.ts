/**
 * Every route the spec lists (docs/spec/interface.md endpoint tables, plus the enrichment inventory of
 * docs/spec/api-reference.md §12–§15), as data. A route listed here without a handler answers 501 with the
 * documented error body until its area lands; only paths outside this list answer 404.
 */
import type { HttpMethod } from './types.js';

export type SpecRoute = readonly [method: HttpMethod, path: string];

export const OPERATIONAL: readonly SpecRoute[] = [
  ['GET', '/healthcheck/http'],
  ['GET', '/healthcheck/http_payload/{response_bytes}'],
  ['GET', '/version/'],
];

export const V1: readonly SpecRoute[] = [
  ['POST', '/v1/businesses/match'],
  ['POST', '/v1/businesses'],
  ['POST', '/v1/businesses/events'],
  ['GET', '/v1/businesses/autocomplete'],
  ['POST', '/v1/businesses/stats'],
  ['GET', '/v1/businesses/events/enrollments'],
  ['POST', '/v1/businesses/events/enrollments'],
  ['DELETE', '/v1/businesses/events/enrollments'],
  ['PATCH', '/v1/businesses/events/enrollments'],
  ['POST', '/v1/prospects/match'],
  ['POST', '/v1/prospects'],
  ['POST', '/v1/prospects/stats'],
  ['POST', '/v1/prospects/events'],
  ['GET', '/v1/prospects/autocomplete'],
  ['GET', '/v1/prospects/events/enrollments'],
  ['POST', '/v1/prospects/events/enrollments'],
  ['DELETE', '/v1/prospects/events/enrollments'],
  ['PATCH', '/v1/prospects/events/enrollments'],
  ['GET', '/v1/credits/menu/{partner_id}'],
  ['GET', '/v1/credits'],
  ['POST', '/v1/credits/aggregation'],
  ['POST', '/v1/webhooks'],
  ['GET', '/v1/webhooks/{partner_id}'],
  ['DELETE', '/v1/webhooks/{partner_id}'],
  ['POST', '/v1/webhooks/check_connectivity'],
  ['POST', '/v1/custom_enrichments/{custom_enrichment_id}/enrich'],
  ['POST', '/v1/custom_enrichments/{enrichment_id}/bulk_enrich'],
  ['POST', '/v1/businesses/research/bulk_enrich'],
  ['POST', '/v1/prospects/research/bulk_enrich'],
];

export const V2: readonly SpecRoute[] = [
  ['POST', '/v2/async/entity-id-datasets/upload'],
  ['GET', '/v2/jobs'],
  ['GET', '/v2/jobs/status/{job_id}'],
  ['POST', '/v2/jobs/cancel/{job_id}'],
  ['GET', '/v2/autocomplete'],
  ['POST', '/v2/businesses/research/enrich'],
  ['POST', '/v2/prospects/research/enrich'],
  ['POST', '/v2/businesses/match'],
  ['POST', '/v2/businesses'],
  ['POST', '/v2/businesses/events'],
  ['POST', '/v2/businesses/stats'],
  ['POST', '/v2/prospects/match'],
  ['POST', '/v2/prospects'],
  ['POST', '/v2/prospects/events'],
  ['POST', '/v2/prospects/stats'],
  ['GET', '/v2/credits'],
  ['POST', '/v2/credits/aggregation'],
  ['GET', '/v2/webhooks'],
  ['POST', '/v2/webhooks'],
  ['GET', '/v2/webhooks/{webhook_id}'],
  ['PATCH', '/v2/webhooks/{webhook_id}'],
  ['DELETE', '/v2/webhooks/{webhook_id}'],
  ['POST', '/v2/webhooks/{webhook_id}/rotate_secret'],
  ['POST', '/v2/webhooks/{webhook_id}/check_connectivity'],
  ['GET', '/v2/businesses/events/enrollments'],
  ['POST', '/v2/businesses/events/enrollments'],
  ['DELETE', '/v2/businesses/events/enrollments/{enrollment_id}'],
  ['PATCH', '/v2/businesses/events/enrollments/{enrollment_id}'],
  ['GET', '/v2/prospects/events/enrollments'],
  ['POST', '/v2/prospects/events/enrollments'],
  ['DELETE', '/v2/prospects/events/enrollments/{enrollment_id}'],
  ['PATCH', '/v2/prospects/events/enrollments/{enrollment_id}'],
];

/**
 * Business enrichments (docs/spec/api-reference.md §14.1): `/v1/businesses/<name>/{enrich,bulk_enrich}`,
 * `/v2/…/{enrich,job}`.
 */
export const BUSINESS_ENRICHMENTS = [
  'bombora_intent',
  'company_hierarchies',
  'company_ratings_by_employees',
  'company_website_keywords',
  'financial_indicators',
  'firmographics',
  'funding_and_acquisition',
  'linkedin_posts',
  'lookalikes',
  'pc_business_challenges_10k',
  'pc_competitive_landscape_10k',
  'pc_strategy_10k',
  'technographics',
  'website_changes',
  'website_traffic',
  'webstack',
  'workforce_trends',
] as const;
export const PROSPECT_ENRICHMENTS_V1 = ['contacts_information', 'linkedin_posts', 'profiles'] as const;
export const PROSPECT_ENRICHMENTS_V2 = ['contact_information', 'linkedin_posts', 'profiles'] as const;

const ENRICHMENTS: readonly SpecRoute[] = [
  ...BUSINESS_ENRICHMENTS.flatMap((n): SpecRoute[] => [
    ['POST', `/v1/businesses/${n}/enrich`],
    ['POST', `/v1/businesses/${n}/bulk_enrich`],
    ['POST', `/v2/businesses/${n}/enrich`],
    ['POST', `/v2/businesses/${n}/job`],
  ]),
  ...PROSPECT_ENRICHMENTS_V1.flatMap((n): SpecRoute[] => [
    ['POST', `/v1/prospects/${n}/enrich`],
    ['POST', `/v1/prospects/${n}/bulk_enrich`],
  ]),
  ...PROSPECT_ENRICHMENTS_V2.flatMap((n): SpecRoute[] => [
    ['POST', `/v2/prospects/${n}/enrich`],
    ['POST', `/v2/prospects/${n}/job`],
  ]),
  ['POST', '/v2/businesses/research/job'],
  ['POST', '/v2/prospects/research/job'],
];

export const SPEC_ROUTES: readonly SpecRoute[] = [...OPERATIONAL, ...V1, ...V2, ...ENRICHMENTS];
