/**
 * Enrichments as data: one row per enrichment name saying which entity it reads, its parameters, how its
 * payloads are built, what it costs and how v2 reshapes it. Routes, jobs and CSV results all read this
 * table; there is no per-enrichment handler.
 */
import type { z } from 'zod';
import type { ApiVersion } from '../../schemas/version.js';
import {
  BomboraParams,
  CONTACT_TYPES,
  ContactsParams,
  FinancialParams,
  FreeParams,
  KeywordsParams,
  PostsParams,
  TrafficParams,
  type ContactType,
  type WaterfallMode,
} from '../../schemas/enrich.js';
import { contactOperation, contactsV1, contactsV2, contactWaterfall, isEmptyContact } from './contacts.js';
import type { EntityType, LoadedEntity } from './entities.js';
import {
  firmographics,
  omit,
  profiles,
  rename,
  storedPayloads,
  technographics,
  websiteKeywords,
  type Payload,
} from './payloads.js';

export type Params = Record<string, unknown> | null | undefined;

export interface BuildContext {
  version: ApiVersion;
  params: Params;
  /** Contact waterfall when the request names none: `full` for sync routes, `explorium_only` for jobs. */
  defaultWaterfall: WaterfallMode;
}

export interface EnrichmentDef {
  /** v1 path name. */
  name: string;
  /** v2 path name (differs only for contact information). */
  v2Name: string;
  entity: EntityType;
  /** `list` enrichments return several payloads per entity (one bulk row each). */
  shape: 'object' | 'list';
  /** zod schema of `parameters` (sync routes and jobs). */
  params: z.ZodType;
  /** Entitlement the caller needs. */
  entitlement?: string;
  /** Charging-menu operation for one entity with data. */
  operation(params: Params): string;
  /** The payloads for one loaded entity; empty = no data (not charged). */
  build(e: LoadedEntity, ctx: BuildContext): Payload[];
  /** v2 reshaping of one payload (renames and removals of the Versioning section). */
  v2?: (p: Payload) => Payload;
}

const stored = (name: string) => (e: LoadedEntity) => storedPayloads(e.record.enrichments, name);
const enrichment = () => 'enrichment';

function def(
  name: string,
  entity: EntityType,
  extra: Partial<Omit<EnrichmentDef, 'name' | 'entity'>> = {},
): EnrichmentDef {
  return {
    name,
    v2Name: name,
    entity,
    shape: 'object',
    params: FreeParams,
    operation: enrichment,
    build: stored(name),
    ...extra,
  };
}

function contactRequest(params: Params, ctx: BuildContext) {
  const types = (params?.contact_types as ContactType[] | null | undefined) ?? CONTACT_TYPES;
  const waterfall = (params?.waterfall as WaterfallMode | null | undefined) ?? ctx.defaultWaterfall;
  return { contact_types: types, waterfall };
}

const monthFilter = (e: LoadedEntity, ctx: BuildContext) => {
  const all = storedPayloads(e.record.enrichments, 'website_traffic');
  const month = ctx.params?.month_period;
  return typeof month === 'string' && all.some((p) => 'month_period' in p)
    ? all.filter((p) => p.month_period === month)
    : all;
};

const topicFilter = (e: LoadedEntity, ctx: BuildContext) => {
  const all = storedPayloads(e.record.enrichments, 'bombora_intent');
  const topics = ctx.params?.topics;
  if (!Array.isArray(topics) || topics.length === 0) return all;
  const wanted = topics.flatMap((t) => String(t).split(';')).map((t) => t.trim().toLowerCase());
  return all.filter((p) =>
    wanted.some((t) =>
      String(p.intent_topics ?? '')
        .toLowerCase()
        .includes(t),
    ),
  );
};

/** Every enrichment the engine serves, businesses first, in the spec's order. */
export const ENRICHMENTS: readonly EnrichmentDef[] = [
  def('bombora_intent', 'business', { shape: 'list', params: BomboraParams, build: topicFilter }),
  def('company_hierarchies', 'business'),
  def('company_ratings_by_employees', 'business', {
    v2: omit('company_city', 'company_country_code', 'company_region', 'company_street', 'company_zip_code'),
  }),
  def('company_website_keywords', 'business', {
    params: KeywordsParams,
    build: (e, ctx) =>
      e.entity === 'business'
        ? websiteKeywords(e.record, (ctx.params?.keywords as string[] | undefined) ?? [])
        : [],
  }),
  def('financial_indicators', 'business', { params: FinancialParams }),
  def('firmographics', 'business', {
    build: (e) => (e.entity === 'business' ? [firmographics(e.record)] : []),
  }),
  def('funding_and_acquisition', 'business', {
    v2: rename('latest_funding_increase_in_percents', 'latest_funding_increase_percentage'),
  }),
  def('linkedin_posts', 'business', { shape: 'list', params: PostsParams, v2: omit('display_name') }),
  def('lookalikes', 'business', { shape: 'list' }),
  def('pc_business_challenges_10k', 'business'),
  def('pc_competitive_landscape_10k', 'business'),
  def('pc_strategy_10k', 'business'),
  def('technographics', 'business', {
    build: (e) => (e.entity === 'business' ? [technographics(e.record)] : []),
  }),
  def('website_changes', 'business', { shape: 'list' }),
  def('website_traffic', 'business', { params: TrafficParams, build: monthFilter }),
  def('webstack', 'business', {
    v2: rename('money_spend_on_website_technologies', 'money_spent_on_website_technologies'),
  }),
  def('workforce_trends', 'business'),
  def('contacts_information', 'prospect', {
    v2Name: 'contact_information',
    params: ContactsParams,
    entitlement: 'contacts',
    operation: (params) =>
      contactOperation(contactRequest(params, { defaultWaterfall: 'full' } as BuildContext).contact_types),
    build: (e, ctx) => {
      if (e.entity !== 'prospect') return [];
      const result = contactWaterfall(e.record, contactRequest(ctx.params, ctx));
      if (isEmptyContact(result)) return [];
      return [ctx.version === 1 ? contactsV1(result) : contactsV2(result)];
    },
  }),
  def('linkedin_posts', 'prospect', { shape: 'list', params: PostsParams }),
  def('profiles', 'prospect', {
    build: (e) => (e.entity === 'prospect' ? [profiles(e.record, e.company)] : []),
  }),
];

/** Business enrichment names (17). */
export const BUSINESS_ENRICHMENTS = ENRICHMENTS.filter((d) => d.entity === 'business').map((d) => d.name);

/** Looks an enrichment up by entity and path name (v1 or v2 name as `version` says). */
export function findEnrichment(
  entity: EntityType,
  name: string,
  version: ApiVersion,
): EnrichmentDef | undefined {
  return ENRICHMENTS.find((d) => d.entity === entity && (version === 1 ? d.name : d.v2Name) === name);
}
