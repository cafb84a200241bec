/**
 * The agent tools, as data: each tool names the REST route it runs and the zod schema that route
 * validates its body (or query) with. The tool's JSON input schema is derived from that same schema, and
 * the arguments go to the facade unchanged, so validation, charging and answers are the REST route's.
 */
import { z } from 'zod';
import { ENRICHMENTS, type EnrichmentDef } from '../core/enrich/table.js';
import type { ValidationIssue } from '../errors.js';
import { toDetail } from '../facade/validation.js';
import type { FacadeRequest } from '../facade/types.js';
import { enrichBody } from '../schemas/enrich.js';
import { BUSINESS_EVENT_TYPES, PROSPECT_EVENT_TYPES } from '../schemas/enums.js';
import { eventsFetchRequest } from '../schemas/events.js';
import { BusinessesMatchRequest, ProspectsMatchRequest } from '../schemas/match.js';
import { BusinessResearchBody, ProspectResearchBody } from '../schemas/research.js';
import {
  AutocompleteQuery,
  BusinessesFetchRequestV1,
  BusinessesStatsRequestV2,
  ProspectsFetchRequestV1,
  ProspectsStatsRequestV2,
} from '../schemas/search.js';

export type ToolArgs = Record<string, unknown>;
export type BuiltRequest = { ok: true; request: FacadeRequest } | { ok: false; issues: ValidationIssue[] };

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** The REST route's own zod schema (plus, for enrichments, the `enrichment` selector). */
  schema: z.ZodType;
  /** Arguments → the facade request of the REST route. */
  request(args: ToolArgs): BuiltRequest;
  /** One line for the text content. */
  summary(body: unknown): string;
  readOnly: boolean;
}

type Body = Record<string, unknown>;
const asBody = (b: unknown): Body =>
  b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Body) : {};
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

const post =
  (path: string) =>
  (args: ToolArgs): BuiltRequest => ({ ok: true, request: { method: 'POST', path, body: args } });

const FILTER_HINTS = `Filters: values inside one filter are OR'ed, different filters are AND'ed; \`negate: true\` inverts one filter. \
Use only ONE category filter per request (google_category OR linkedin_category OR naics_category; combining them is a validation error). \
For free-text values (categories, city_region_country, city_region, job_title, company_tech_stack_*, business_intent_topics, skills, interests) \
call \`autocomplete\` first and pass the exact \`value\` it returns; country and region codes are ISO 3166 alpha-2 / 3166-2 (e.g. "us", "us-ca"; any case).`;

const PAGINATION = `Pagination: offset mode (no \`next_cursor\`) takes \`page_size\` 1-500 (required), \`page\` (1-based) and \`size\` \
(cap on total results, ≤ 60000, must be ≥ page_size); walk pages until \`page\` = \`total_pages\`. Cursor mode: send \`next_cursor: null\` \
to start, then copy \`page.next_cursor\` from each answer until it is null; \`page_size\` ≤ 100, no result cap. Keep \`mode\` and \`filters\` \
unchanged across the pages of one walk. \`mode\`: "preview" (fewer fields) or "full". Costs credits per returned record: \
call the matching stats tool first to size a query for free.`;

function fetchSummary(noun: string) {
  return (b: unknown) => {
    const body = asBody(b);
    const n = arr(body.data).length;
    const page = body.page;
    if (page !== null && typeof page === 'object') {
      const cursor = (page as Body).next_cursor;
      return `${n} ${noun} returned (${num(body.total_results)} match in all); next_cursor: ${
        typeof cursor === 'string' ? cursor : 'null (last page)'
      }.`;
    }
    return `${n} ${noun} on page ${num(page)} of ${num(body.total_pages)} (${num(body.total_results)} results).`;
  };
}

function enrichTool(entity: 'business' | 'prospect'): ToolDef {
  const defs = ENRICHMENTS.filter((d) => d.entity === entity);
  const names = defs.map((d) => d.v2Name) as [string, ...string[]];
  const plural = entity === 'business' ? 'businesses' : 'prospects';
  // One `parameters` branch per distinct parameter schema, described with the enrichments that take it.
  const groups = new Map<z.ZodType, EnrichmentDef[]>();
  for (const d of defs) groups.set(d.params, [...(groups.get(d.params) ?? []), d]);
  const branches = [...groups].map(([schema, ds]) =>
    schema.describe(`parameters of ${ds.map((d) => d.v2Name).join(', ')}`),
  );
  const params =
    branches.length === 1 ? branches[0]! : z.union(branches as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  const Enrichment = z.enum(names);
  const base = enrichBody(entity, 'v2', params) as z.ZodObject;
  const schema = z.strictObject({
    enrichment: Enrichment.describe(`the ${entity} enrichment to run`),
    ...base.shape,
  });
  const list = names.join(', ');
  return {
    name: `enrich_${plural}`,
    title: `Enrich ${plural}`,
    description:
      entity === 'business'
        ? `Runs one business enrichment (\`enrichment\`: ${list}) for 1-50 business ids (\`business_ids\`: one id or a list of 32-hex ids from match_businesses or fetch_businesses). ` +
          `Same as POST /v2/businesses/{enrichment}/enrich. \`parameters\` depend on the enrichment: company_website_keywords needs {keywords: [...]}; ` +
          `website_traffic takes {month_period: "YYYY-MM"}; financial_indicators takes {date}; bombora_intent takes {topics, min_score}; others take none. ` +
          `Charges credits per id that returns data; ids without data are free.`
        : `Runs one prospect enrichment (\`enrichment\`: ${list}) for 1-50 prospect ids (\`prospect_ids\`: one id or a list of 40-hex ids from match_prospects or fetch_prospects). ` +
          `Same as POST /v2/prospects/{enrichment}/enrich. contact_information returns e-mails and phone numbers (parameters {contact_types: ["email"] | ["phone"]}; ` +
          `e-mail only is cheaper) and needs the account's contacts entitlement. Charges credits per id that returns data.`,
    schema,
    request(args) {
      const { enrichment, ...body } = args;
      const parsed = Enrichment.safeParse(enrichment);
      if (!parsed.success)
        return { ok: false, issues: toDetail(parsed.error.issues, 'body').map(at('enrichment')) };
      return { ok: true, request: { method: 'POST', path: `/v2/${plural}/${parsed.data}/enrich`, body } };
    },
    summary(b) {
      const body = asBody(b);
      return `${num(body.total_results)} ${entity === 'business' ? 'businesses' : 'prospects'} returned data.`;
    },
    readOnly: false,
  };
}

const at =
  (field: string) =>
  (issue: ValidationIssue): ValidationIssue => ({ ...issue, loc: ['body', field, ...issue.loc.slice(1)] });

/** `GET` routes take a query string: arguments become strings the way a URL would carry them. */
function queryOf(args: ToolArgs): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    out[k] = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}

const NoArgs = z.strictObject({});

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'match_businesses',
    title: 'Match businesses',
    description:
      'Finds the business_id of up to 50 companies from what you know about them: `businesses_to_match` is a list of {name, domain, url, linkedin_url} ' +
      '(give a domain or profile URL when you have one; a name alone is a fuzzy match). The answer keeps input order and length; a row that does not match has business_id null. ' +
      'Use the ids with fetch_businesses (filter business_id), business events and enrich_businesses. Same as POST /v2/businesses/match.',
    schema: BusinessesMatchRequest,
    request: post('/v2/businesses/match'),
    summary(b) {
      const body = asBody(b);
      return `Matched ${num(body.total_matches)} of ${arr(body.matched_businesses).length} businesses (unmatched rows have business_id null).`;
    },
    readOnly: false,
  },
  {
    name: 'match_prospects',
    title: 'Match prospects',
    description:
      'Finds the prospect_id of up to 50 people: `prospects_to_match` is a list of {email, phone_number, linkedin, full_name, company_name, business_id}. ' +
      'Give an e-mail, a phone number or a profile URL, or full_name together with company_name (a name alone is not matched); business_id narrows to one company. ' +
      'The answer keeps input order; unmatched rows have prospect_id null. Same as POST /v2/prospects/match.',
    schema: ProspectsMatchRequest,
    request: post('/v2/prospects/match'),
    summary(b) {
      const body = asBody(b);
      return `Matched ${num(body.total_matches)} of ${arr(body.matched_prospects).length} prospects (unmatched rows have prospect_id null).`;
    },
    readOnly: false,
  },
  {
    name: 'fetch_businesses',
    title: 'Fetch businesses',
    description:
      'Lists businesses that satisfy filters (country_code, region_country_code, company_size, company_revenue, company_age, number_of_locations, ' +
      'google_category | linkedin_category | naics_category, company_tech_stack_category, company_tech_stack_tech, company_name, city_region_country, city_region, ' +
      'website_keywords, business_intent_topics, events, has_website, is_public_company, include_operating_locations, business_id). ' +
      `${FILTER_HINTS} ${PAGINATION} \`exclude\` drops up to 1000 business ids. Same as POST /v1/businesses.`,
    schema: BusinessesFetchRequestV1,
    request: post('/v1/businesses'),
    summary: fetchSummary('businesses'),
    readOnly: false,
  },
  {
    name: 'fetch_prospects',
    title: 'Fetch prospects',
    description:
      'Lists prospects (people at businesses) that satisfy filters (job_title with include_related_job_titles, job_level, job_department, ' +
      'has_contact_details (email | phone | email_or_phone | email_and_phone), has_email, has_phone_number, country_code, region_country_code, city_region_country, ' +
      'company_country_code, company_region_country_code, company_size, company_revenue, company_age, company_number_of_locations, company_name, ' +
      'google_category | linkedin_category | naics_category, skills, interests, total_experience_months, current_role_months {gte, lte}, has_website, ' +
      `is_public_company, business_id (≤ 10000 ids), prospect_id). ${FILTER_HINTS} ${PAGINATION} \`exclude\` drops up to 1000 prospect ids. ` +
      '`max_per_company` (1–100) keeps at most N prospects per business, the most senior job level first. ' +
      'Records carry no contact details: use enrich_prospects with contact_information. Same as POST /v1/prospects.',
    schema: ProspectsFetchRequestV1,
    request: post('/v1/prospects'),
    summary: fetchSummary('prospects'),
    readOnly: false,
  },
  {
    name: 'business_stats',
    title: 'Business statistics',
    description:
      'Counts the businesses that match `filters` (same filters as fetch_businesses; `filters` is required, null for all) and breaks them down ' +
      'by category and location, revenue and employee range. Free: use it to size a query before fetching. Same as POST /v2/businesses/stats.',
    schema: BusinessesStatsRequestV2,
    request: post('/v2/businesses/stats'),
    summary: (b) => `${num(asBody(b).total_results)} businesses match the filters.`,
    readOnly: true,
  },
  {
    name: 'prospect_stats',
    title: 'Prospect statistics',
    description:
      'Counts the prospects that match `filters` (same filters as fetch_prospects without has_email / has_phone_number; `filters` is required, null for all) ' +
      'and breaks them down by department and location. Free: use it to size a query before fetching. Same as POST /v2/prospects/stats.',
    schema: ProspectsStatsRequestV2,
    request: post('/v2/prospects/stats'),
    summary: (b) => `${num(asBody(b).total_results)} prospects match the filters.`,
    readOnly: true,
  },
  {
    name: 'autocomplete',
    title: 'Autocomplete filter values',
    description:
      'Suggests the exact values a filter accepts: `field` names the filter (e.g. country, region_country_code, google_category, linkedin_category, ' +
      'naics_category, job_title, job_level, job_department, city_region_country, city_region, company_tech_stack_tech, company_tech_stack_categories, ' +
      'business_intent_topics, skills, interests), `query` is the text typed so far. Call it before using a free-text filter value and pass the returned ' +
      '`value`, not the `label`. Set `semantic_search: true` for business_intent_topics. Free. Same as GET /v2/autocomplete.',
    schema: AutocompleteQuery,
    request: (args) => ({
      ok: true,
      request: { method: 'GET', path: '/v2/autocomplete', query: queryOf(args) },
    }),
    summary(b) {
      const items = arr(b) as { label?: unknown; value?: unknown }[];
      const shown = items.slice(0, 10).map((i) => `${String(i.label)} (${String(i.value)})`);
      return `${items.length} suggestions${shown.length ? `: ${shown.join('; ')}` : ''}.`;
    },
    readOnly: true,
  },
  {
    name: 'business_events',
    title: 'Business events',
    description:
      'Recent events of 1-40 businesses (`business_ids`, unique 32-hex ids) of the given `event_types` ' +
      `(${BUSINESS_EVENT_TYPES.join(', ')}; executive_joined_company is accepted for employee_joined_company). ` +
      '`timestamp_from` / `timestamp_to` are ISO datetimes or YYYY-MM-DD; only about the last three months are served. Newest first. ' +
      'Charges credits per returned event. Same as POST /v2/businesses/events.',
    schema: eventsFetchRequest('business'),
    request: post('/v2/businesses/events'),
    summary: (b) => `${arr(asBody(b).output_events).length} events.`,
    readOnly: false,
  },
  {
    name: 'prospect_events',
    title: 'Prospect events',
    description:
      `Recent events of 1-40 prospects (\`prospect_ids\`, unique 40-hex ids) of the given \`event_types\` (${PROSPECT_EVENT_TYPES.join(', ')}). ` +
      '`timestamp_from` / `timestamp_to` are ISO datetimes or YYYY-MM-DD; only about the last three months are served. ' +
      'Charges credits per returned event. Same as POST /v2/prospects/events.',
    schema: eventsFetchRequest('prospect'),
    request: post('/v2/prospects/events'),
    summary: (b) => `${arr(asBody(b).output_events).length} events.`,
    readOnly: false,
  },
  enrichTool('business'),
  enrichTool('prospect'),
  {
    name: 'research_businesses',
    title: 'Research businesses',
    description:
      'Answers a research question about 1-50 businesses (`businesses`: {business_id, custom_fields?} or a list of them) and returns JSON shaped by ' +
      '`parameters.output_schema` (a JSON-Schema-like object). Describe the task in `parameters.query` (natural language) or `parameters.prompt_template`. ' +
      'Charges credits per business researched. Same as POST /v2/businesses/research/enrich.',
    schema: BusinessResearchBody,
    request: post('/v2/businesses/research/enrich'),
    summary: (b) => `${num(asBody(b).total_results)} businesses researched.`,
    readOnly: false,
  },
  {
    name: 'research_prospects',
    title: 'Research prospects',
    description:
      'Answers a research question about 1-50 prospects (`prospects`: {prospect_id, custom_fields?} or a list of them) and returns JSON shaped by ' +
      '`parameters.output_schema`. Describe the task in `parameters.query` or `parameters.prompt_template`. Charges credits per prospect researched. ' +
      'Same as POST /v2/prospects/research/enrich.',
    schema: ProspectResearchBody,
    request: post('/v2/prospects/research/enrich'),
    summary: (b) => `${num(asBody(b).total_results)} prospects researched.`,
    readOnly: false,
  },
  {
    name: 'credits_balance',
    title: 'Credit balance',
    description:
      'The credits allocated to and remaining on the connected account, and its type (trial or paid). Free. Check it before a large fetch or enrichment. ' +
      'Same as GET /v2/credits.',
    schema: NoArgs,
    request(args) {
      const parsed = NoArgs.safeParse(args);
      if (!parsed.success) return { ok: false, issues: toDetail(parsed.error.issues, 'body') };
      return { ok: true, request: { method: 'GET', path: '/v2/credits' } };
    },
    summary(b) {
      const body = asBody(b);
      return `${num(body.remaining_credits)} of ${num(body.allocated_credits)} credits remain (${String(body.account_type)} account).`;
    },
    readOnly: true,
  },
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDef> = new Map(TOOLS.map((t) => [t.name, t]));

/** The JSON Schema of a tool's arguments: the input side of the REST schema (transforms show what they accept). */
export function inputJsonSchema(tool: ToolDef): { type: 'object'; [k: string]: unknown } {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return { ...schema, type: 'object' };
}
