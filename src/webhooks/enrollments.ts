/**
 * Enrollments: an account monitors some businesses or prospects for some event types. v1 enrollments
 * deliver to the account's partner webhook (resolved when an event arrives); v2 enrollments are bound to
 * one v2 webhook by id. Each enrollment writes one `enrollment_targets` row per entity × event type, so
 * an ingested event finds its enrollments through one index lookup. Event types are stored under their
 * v1 names. Another account's enrollment is reported as not found.
 *
 * @example
 * await createEnrollment(engine, account, { version: 1, entityType: 'business', enrollmentKey: 'acme',
 *   eventTypes: ['new_office'], ids: ['0f…'] });
 */
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import type { Account } from '../account/types.js';
import type { EntityType } from '../schemas/enums.js';
import type { ApiVersion } from '../schemas/events.js';
import { eventNameFor, idsField } from '../schemas/events.js';
import { getWebhook } from './registry.js';
import { ENROLLMENT_SQL } from '../store/sql/webhooks.js';

export interface EnrollmentRow {
  rowid: number;
  enrollment_id: string;
  account_id: string;
  partner_id: string;
  api_version: number;
  entity_type: EntityType;
  enrollment_key: string;
  event_types: string;
  entity_ids: string;
  webhook_rowid: number | null;
  created_at: number;
  updated_at: number;
}

/** An enrollment that an event matches, with the webhook it delivers to (null: no webhook yet). */
export interface EnrollmentMatch {
  enrollment_id: string;
  account_id: string;
  partner_id: string;
  api_version: ApiVersion;
  enrollment_key: string;
  webhook_rowid: number | null;
}

const SQL = ENROLLMENT_SQL;

export interface EnrollmentInput {
  version: ApiVersion;
  entityType: EntityType;
  enrollmentKey: string;
  /** Stored (v1) names. */
  eventTypes: string[];
  ids: string[];
  /** v2 only: the webhook the enrollment delivers to. */
  webhookId?: string;
}

async function writeTargets(
  engine: Context,
  rowid: number,
  ids: string[],
  eventTypes: string[],
): Promise<void> {
  await engine.state.run(SQL.clearTargets, [rowid]);
  for (const id of ids)
    for (const name of eventTypes) await engine.state.run(SQL.addTarget, [id, name, rowid]);
}

/** Creates an enrollment (a v2 one must name a webhook of the same account: 404 otherwise). */
export function createEnrollment(
  engine: Context,
  account: Account,
  input: EnrollmentInput,
): Promise<EnrollmentRow> {
  return engine.state.transaction(async () => {
    const webhookRowid =
      input.version === 2 ? (await getWebhook(engine, account, input.webhookId ?? '')).rowid : null;
    const now = engine.now();
    const row = (await engine.state.get<EnrollmentRow>(SQL.insert, [
      engine.newId('en', 8),
      account.account_id,
      account.partner_id,
      input.version,
      input.entityType,
      input.enrollmentKey,
      JSON.stringify(input.eventTypes),
      JSON.stringify(input.ids),
      webhookRowid,
      now,
      now,
    ]))!;
    await writeTargets(engine, row.rowid, input.ids, input.eventTypes);
    return row;
  });
}

/** One enrollment of the account in this version and entity type, or 404. */
export async function getEnrollment(
  engine: Context,
  account: Account,
  version: ApiVersion,
  entityType: EntityType,
  enrollmentId: string,
): Promise<EnrollmentRow> {
  const row = await engine.state.get<EnrollmentRow>(SQL.byId, [
    enrollmentId,
    account.account_id,
    version,
    entityType,
  ]);
  if (!row) throw new EngineError('NOT_FOUND', `Enrollment ${enrollmentId} not found`);
  return row;
}

export function listEnrollments(
  engine: Context,
  account: Account,
  version: ApiVersion,
  entityType: EntityType,
): Promise<EnrollmentRow[]> {
  return engine.state.all<EnrollmentRow>(SQL.list, [account.account_id, version, entityType]);
}

export interface EnrollmentPatch {
  enrollmentKey?: string;
  eventTypes?: string[];
  ids?: string[];
  webhookId?: string;
}

/** Updates an enrollment; monitoring follows the new ids and types from the next ingested event on. */
export function updateEnrollment(
  engine: Context,
  account: Account,
  version: ApiVersion,
  entityType: EntityType,
  enrollmentId: string,
  patch: EnrollmentPatch,
): Promise<EnrollmentRow> {
  return engine.state.transaction(async () => {
    const row = await getEnrollment(engine, account, version, entityType, enrollmentId);
    const eventTypes = patch.eventTypes ?? (JSON.parse(row.event_types) as string[]);
    const ids = patch.ids ?? (JSON.parse(row.entity_ids) as string[]);
    const webhookRowid =
      version === 2 && patch.webhookId !== undefined
        ? (await getWebhook(engine, account, patch.webhookId)).rowid
        : row.webhook_rowid;
    const updated = (await engine.state.get<EnrollmentRow>(SQL.update, [
      patch.enrollmentKey ?? row.enrollment_key,
      JSON.stringify(eventTypes),
      JSON.stringify(ids),
      webhookRowid,
      engine.now(),
      row.rowid,
    ]))!;
    if (patch.eventTypes || patch.ids) await writeTargets(engine, row.rowid, ids, eventTypes);
    return updated;
  });
}

/** Deletes an enrollment (404 when it is not the account's); its targets go with it. */
export function deleteEnrollment(
  engine: Context,
  account: Account,
  version: ApiVersion,
  entityType: EntityType,
  enrollmentId: string,
): Promise<void> {
  return engine.state.transaction(async () => {
    const row = await getEnrollment(engine, account, version, entityType, enrollmentId);
    await engine.state.run(SQL.clearTargets, [row.rowid]);
    await engine.state.run(SQL.remove, [row.rowid]);
  });
}

/** Enrollments that an event of `eventName` (stored name) about `entityId` matches. */
export function matchEnrollments(
  engine: Context,
  entityId: string,
  eventName: string,
): Promise<EnrollmentMatch[]> {
  return engine.state.all<EnrollmentMatch>(SQL.match, [entityId, eventName]);
}

/** The enrollment record a caller of `version` sees (event types under that version's names). */
export function enrollmentView(row: EnrollmentRow, version: ApiVersion, webhookId?: string | null) {
  const base = {
    enrollment_id: row.enrollment_id,
    enrollment_key: row.enrollment_key,
    event_types: (JSON.parse(row.event_types) as string[]).map((n) => eventNameFor(version, n)),
    [idsField(row.entity_type)]: JSON.parse(row.entity_ids) as string[],
  };
  if (version === 1) return base;
  return {
    ...base,
    webhook_id: webhookId ?? null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
