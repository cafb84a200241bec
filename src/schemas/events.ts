/**
 * Events, enrollments and webhooks: event payload schemas (docs/spec/api-reference.md §8.3), the version
 * naming rules (`founding_*` ↔ `funding_*`, `employee_joined_company` ↔ `executive_joined_company`) and the
 * request bodies of the events, enrollments and webhooks routes (v1 as in the live reference, v2 as designed
 * in `src/facade/routes/webhooks.ts` and `src/facade/routes/enrollments.ts`).
 *
 * Over 400 lines on purpose: the zod schemas of every event payload of docs/spec/api-reference.md §8.3 plus
 * the request bodies that name them, kept in one place so the version naming rules apply to all alike.
 */
import { z } from 'zod';
import { anyCase, FreeObject, LIMITS, list } from './bounds.js';
import {
  BUSINESS_EVENT_TYPES,
  PROSPECT_EVENT_TYPES,
  V2_EVENT_RENAMES,
  WEBHOOK_SIMULATION_EVENT_TYPES,
} from './enums.js';
import type { BusinessEventType, EntityType, ProspectEventType } from './enums.js';
import { BusinessId, EventRecord, ProspectId } from './records.js';

export type ApiVersion = 1 | 2;
export type StoredEventName = BusinessEventType | ProspectEventType;

// ---------------------------------------------------------------------------------------------------
// Naming across versions

/** Stored (v1) name → v2 name; the only event renamed in v2. */
const V2_NAME_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(V2_EVENT_RENAMES).map(([v2, v1]) => [v1, v2]),
);

/** The event name a caller of `version` sees for a stored name. */
export function eventNameFor(version: ApiVersion, stored: string): string {
  return version === 2 ? (V2_NAME_OF[stored] ?? stored) : stored;
}

/** Any accepted spelling (v1 or v2) → the stored name. */
export function storedEventName(name: string): string {
  return V2_EVENT_RENAMES[name] ?? name;
}

const DATA_RENAMES_V2: Readonly<Record<string, string>> = {
  founding_stage: 'funding_stage',
  founding_date: 'funding_date',
};
const DATA_RENAMES_V1: Readonly<Record<string, string>> = {
  funding_stage: 'founding_stage',
  funding_date: 'founding_date',
};

/**
 * The `data` object as a caller of `version` sees it: payload field names and the embedded `event_name`
 * follow the caller's version, whichever names were ingested.
 */
export function eventDataFor(version: ApiVersion, data: Record<string, unknown>): Record<string, unknown> {
  const renames = version === 2 ? DATA_RENAMES_V2 : DATA_RENAMES_V1;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const name = renames[key] ?? key;
    // When both spellings were ingested, the caller's own spelling wins.
    if (name !== key && name in data) continue;
    out[name] =
      key === 'event_name' && typeof value === 'string'
        ? eventNameFor(version, storedEventName(value))
        : value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Event payloads (§8.3). Every field is optional and nullable (the live data is sparse); a field that is
// present must have the documented type. Unknown fields are kept.

const str = z.string().nullish();
const num = z.number().finite().nullish();
const int = z.number().int().nullish();
const strList = z.array(z.string()).nullish();
/** ISO date or datetime (the live data mixes both). */
const when = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO 8601 date or datetime' })
  .nullish();

const common = { event_name: str, event_time: when, event_id: str, link: str, title: str, snippet: str };

const departmentChange = z.looseObject({
  ...common,
  department_change: num,
  change_type: str,
  quarter_partition: str,
  insertion_time: when,
  department: str,
});
const hiring = z.looseObject({
  ...common,
  location: str,
  job_count: int,
  job_titles: strList,
  department: str,
});

const PAYLOADS: Record<string, z.ZodType> = {
  ipo_announcement: z.looseObject({
    ...common,
    ipo_date: when,
    company_name: str,
    offer_amount: num,
    number_of_shares: int,
    stock_exchange: str,
    price_per_share: num,
    ticker: str,
    status: str,
  }),
  new_funding_round: z.looseObject({
    ...common,
    founding_date: when,
    funding_date: when,
    founding_stage: str,
    funding_stage: str,
    amount_raised: num,
    investors: z.union([z.string(), z.array(z.string())]).nullish(),
    lead_investor: str,
  }),
  new_investment: z.looseObject({
    ...common,
    investment_date: when,
    investment_type: str,
    investment_target: str,
    investment_amount: num,
    investment_amount_currency: str,
  }),
  new_product: z.looseObject({
    ...common,
    product_name: str,
    product_description: str,
    product_category: str,
    product_launch_date: when,
  }),
  new_office: z.looseObject({
    ...common,
    purpose_of_new_office: str,
    office_location: str,
    number_of_employees: int,
    opening_date: when,
  }),
  closing_office: z.looseObject({
    ...common,
    reason_for_closure: str,
    office_location: str,
    number_of_employees_affected: int,
    closure_date: when,
  }),
  new_partnership: z.looseObject({
    ...common,
    partner_company: str,
    purpose_of_partnership: str,
    partnership_date: when,
  }),
  company_award: z.looseObject({ ...common, award_name: str, award_reason: str, awarding_body: str }),
  merger_and_acquisitions: z.looseObject({
    ...common,
    merger_or_acquisition: str,
    description: str,
    companies_involved: strList,
    acquisition_price_amount: num,
    acquisition_price_currency: str,
    strategic_objective: str,
  }),
  cost_cutting: z.looseObject({
    ...common,
    action_taken: str,
    expected_savings_amount: num,
    expected_savings_currency: str,
    departments_affected: strList,
  }),
  lawsuits_and_legal_issues: z.looseObject({ ...common, case_type: str, court: str }),
  outages_and_security_breaches: z.looseObject({
    ...common,
    incident_type: str,
    impacted_systems: strList,
    number_of_affected_customers: int,
  }),
  employee_joined_company: z.looseObject({
    ...common,
    job_company_name: str,
    job_department: str,
    full_name: str,
    change_type: str,
    job_role_title: str,
    linkedin_url: str,
  }),
  prospect_changed_role: z.looseObject({
    ...common,
    previous_job_title: str,
    current_job_title: str,
    current_company_name: str,
    current_company_id: str,
    previous_company_name: str,
    previous_company_id: str,
  }),
  prospect_changed_company: z.looseObject({
    ...common,
    current_company_name: str,
    current_company_id: str,
    current_job_title: str,
    previous_company_name: str,
    previous_company_id: str,
    previous_job_title: str,
  }),
  prospect_job_start_anniversary: z.looseObject({
    ...common,
    full_name: str,
    company_name: str,
    years_at_company: int,
    job_title: str,
    job_anniversary_date: when,
    linkedin_url: str,
  }),
};
for (const name of BUSINESS_EVENT_TYPES) {
  if (name.startsWith('increase_in_') || name.startsWith('decrease_in_')) PAYLOADS[name] = departmentChange;
  else if (name.startsWith('hiring_in_')) PAYLOADS[name] = hiring;
}

/** The `data` schema of a stored event name (every event type has one). */
export function payloadSchema(storedName: string): z.ZodType | undefined {
  return PAYLOADS[storedName];
}

// ---------------------------------------------------------------------------------------------------
// Event type lists in requests: both spellings are accepted in both versions and stored under v1 names.

const businessEventType = z
  .string()
  .max(LIMITS.code)
  .transform((s) => storedEventName(s.trim().toLowerCase()))
  .pipe(z.enum(BUSINESS_EVENT_TYPES, { error: 'not a business event type' }));
const prospectEventType = anyCase(PROSPECT_EVENT_TYPES);

/**
 * A snapshot or ingested event whose `data` also satisfies its event type's payload table (§8.3):
 * the loader and `ingestEvents` refuse the same records.
 */
export const EventRecordWithPayload = EventRecord.superRefine((event, ctx) => {
  const payload = payloadSchema(storedEventName(event.event_name))?.safeParse(event.data);
  if (payload && !payload.success) {
    for (const issue of payload.error.issues) {
      ctx.addIssue({ code: 'custom', path: ['data', ...issue.path], message: issue.message });
    }
  }
});

export function eventTypesSchema(entity: EntityType) {
  const item = entity === 'business' ? businessEventType : prospectEventType;
  // The length is checked first: 10,000 unknown types cost one check, not 10,000 item errors.
  return list(item, LIMITS.eventTypes, 1).transform((types) => [...new Set(types)]);
}

function idsSchema(entity: EntityType, max: number) {
  return list(entity === 'business' ? BusinessId : ProspectId, max, 1).refine(
    (ids) => new Set(ids).size === ids.length,
    { message: 'the list has duplicated items' },
  );
}

/** `YYYY-MM-DD` or an ISO datetime (offset optional, UTC when absent). */
const Timestamp = z
  .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
    error: 'must be an ISO 8601 datetime or a date YYYY-MM-DD',
  })
  .nullish()
  .transform((v) => v ?? null);

const requestContext = FreeObject.nullish();
const Id = z.string().min(1).max(LIMITS.id);

export const idsField = (entity: EntityType) => (entity === 'business' ? 'business_ids' : 'prospect_ids');

/** `POST /v1|v2/{businesses|prospects}/events`. */
export function eventsFetchRequest(entity: EntityType) {
  return z
    .strictObject({
      request_context: requestContext,
      event_types: eventTypesSchema(entity),
      [idsField(entity)]: idsSchema(entity, 40),
      timestamp_from: Timestamp,
      timestamp_to: Timestamp,
      entity_type: z.literal(entity).nullish(),
    })
    .transform((b): { eventTypes: string[]; ids: string[]; from: string | null; to: string | null } => ({
      eventTypes: b.event_types as string[],
      ids: b[idsField(entity)] as string[],
      from: b.timestamp_from as string | null,
      to: b.timestamp_to as string | null,
    }));
}
export type EventsFetchRequest = z.output<ReturnType<typeof eventsFetchRequest>>;

// ---------------------------------------------------------------------------------------------------
// Enrollments

const enrollmentKey = z.string().min(4).max(200);

export function v1EnrollmentAdd(entity: EntityType) {
  return z.strictObject({
    request_context: requestContext,
    enrollment_key: enrollmentKey,
    event_types: eventTypesSchema(entity),
    [idsField(entity)]: idsSchema(entity, 20),
  });
}
export function v1EnrollmentUpdate(entity: EntityType) {
  return z.strictObject({
    request_context: requestContext,
    enrollment_id: Id,
    enrollment_key: enrollmentKey,
    event_types: eventTypesSchema(entity),
    [idsField(entity)]: idsSchema(entity, 20),
  });
}
export const v1EnrollmentDelete = z.strictObject({
  request_context: requestContext,
  enrollment_id: Id,
});

export function v2EnrollmentCreate(entity: EntityType) {
  return z.strictObject({
    request_context: requestContext,
    enrollment_key: enrollmentKey,
    event_types: eventTypesSchema(entity),
    [idsField(entity)]: idsSchema(entity, 20),
    webhook_id: Id,
  });
}
export function v2EnrollmentPatch(entity: EntityType) {
  return z
    .strictObject({
      request_context: requestContext,
      enrollment_key: enrollmentKey.optional(),
      event_types: eventTypesSchema(entity).optional(),
      [idsField(entity)]: idsSchema(entity, 20).optional(),
      webhook_id: Id.optional(),
    })
    .refine((b) => Object.keys(b).some((k) => k !== 'request_context' && b[k] !== undefined), {
      message: 'at least one of enrollment_key, event_types, ids or webhook_id is required',
    });
}

// ---------------------------------------------------------------------------------------------------
// Webhooks

/** `"Header-Name: value"`; names that would break delivery or signing are refused. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'x-signature',
  'x-signature-previous',
  'x-timestamp',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);
const HeaderLine = z
  .string()
  .max(1024)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*$/, 'must be "Header-Name: value"')
  .refine((h) => !RESERVED_HEADERS.has(h.slice(0, h.indexOf(':')).toLowerCase()), {
    message: 'this header is set by the service',
  });
const Headers = list(HeaderLine, 20);
export const PAYLOAD_FORMATS = ['json', 'stringified_json'] as const;
export type PayloadFormat = (typeof PAYLOAD_FORMATS)[number];
export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

const WebhookUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

export const v1WebhookAdd = z.strictObject({
  request_context: requestContext,
  partner_id: Id,
  webhook_url: WebhookUrl,
  headers: Headers.nullish(),
  payload_format: anyCase(PAYLOAD_FORMATS).nullish(),
});

const Simulation = z.strictObject({
  event_name: z
    .string()
    .max(LIMITS.code)
    .transform((s) => storedEventName(s.trim().toLowerCase()))
    .pipe(z.enum([...WEBHOOK_SIMULATION_EVENT_TYPES]))
    .nullish(),
  number_of_events: z.number().int().min(1).max(10).nullish(),
  event_time: z.iso.datetime({ offset: true }).nullish(),
});
export type Simulation = z.output<typeof Simulation>;

export const v1CheckConnectivity = z.strictObject({
  request_context: requestContext,
  partner_id: Id,
  simulation: Simulation.nullish(),
});

export const v2WebhookCreate = z.strictObject({
  request_context: requestContext,
  url: WebhookUrl,
  name: z.string().min(1).max(100).nullish(),
  description: z.string().max(1000).nullish(),
  headers: Headers.nullish(),
  payload_format: anyCase(PAYLOAD_FORMATS).nullish(),
  status: anyCase(WEBHOOK_STATUSES).nullish(),
});
export const v2WebhookPatch = z
  .strictObject({
    request_context: requestContext,
    url: WebhookUrl.optional(),
    name: z.string().min(1).max(100).nullish(),
    description: z.string().max(1000).nullish(),
    headers: Headers.nullish(),
    payload_format: anyCase(PAYLOAD_FORMATS).optional(),
    status: anyCase(WEBHOOK_STATUSES).optional(),
  })
  .refine((b) => Object.entries(b).some(([k, v]) => k !== 'request_context' && v !== undefined), {
    message: 'at least one of url, name, description, headers, payload_format or status is required',
  });
export const v2WebhookListQuery = z.object({ status: anyCase(WEBHOOK_STATUSES).optional() });
export const v2WebhookDeleteQuery = z.object({
  force: anyCase(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
export const v2RotateSecret = z
  .strictObject({
    request_context: requestContext,
    /** How long the previous secret keeps signing deliveries next to the new one. Default one day. */
    grace_period_seconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .nullish(),
  })
  .nullish()
  .transform((b) => b ?? {});
export const v2CheckConnectivity = z
  .strictObject({ request_context: requestContext, simulation: Simulation.nullish() })
  .nullish()
  .transform((b) => b ?? {});
