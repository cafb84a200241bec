/**
 * The durable delivery outbox, in the state store. A delivery is queued before the event that caused
 * it is stored in the snapshot, at most once per (event, webhook, enrollment), so a crash between the
 * two and a re-ingest neither loses nor doubles it (`core/events.ts`). Workers (`deliver.ts`, any
 * number, in any process sharing the state) lease due rows and record each attempt's outcome here,
 * while their lease holds. A delivery is `pending` until it is `delivered`, `failed` (a permanent
 * answer, or retries ran out) or `cancelled` (its webhook was deleted). Pending rows survive restarts
 * and dead owners: another worker takes a row over once its lease ends.
 */
import type { Context } from '../runtime/context.js';
import { OUTBOX_SQL, claimDeliveriesSql } from '../store/sql/webhooks.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';
/** `last_error` of a delivery whose retry schedule ran out (re-queued when its webhook is re-enabled). */
export { RETRIES_EXHAUSTED } from '../store/sql/webhooks.js';

/** The JSON body of a delivery, as documented by the live service. */
export interface DeliveryPayload {
  tenant_id: string;
  partner_id: string;
  event_id: string;
  event_name: string;
  entity_id: string;
  entity_type: string;
  data: Record<string, unknown>;
  enrollment_key: string;
}

export interface DeliveryRow {
  rowid: number;
  delivery_id: string;
  webhook_rowid: number;
  event_id: string;
  enrollment_id: string | null;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  /** The engine instance (`ctx.instance`) whose worker holds the delivery, until `lease_until`. */
  lease_owner: string | null;
  lease_until: number | null;
}

const SQL = OUTBOX_SQL;

/**
 * Queues one pending delivery, at most once per (event, webhook, enrollment): resolves to false when
 * it was already queued (an ingest repeated after a crash, or the same event ingested by two nodes).
 */
export async function enqueueDelivery(
  engine: Context,
  webhookRowid: number,
  enrollmentId: string,
  payload: DeliveryPayload,
  now: number,
): Promise<boolean> {
  const changed = await engine.state.run(SQL.insert, [
    engine.newId('msg', 12),
    webhookRowid,
    payload.event_id,
    enrollmentId,
    JSON.stringify(payload),
    now,
    now,
    now,
  ]);
  return changed > 0;
}

/**
 * Leases up to `limit` deliveries that are due at `now` (pending, of an active webhook, never leased or
 * their lease ran out) to `owner` until `leaseUntil`, oldest first. No two claimers get one row.
 */
export function claimDeliveries(
  engine: Context,
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<DeliveryRow[]> {
  return engine.state.all<DeliveryRow>(claimDeliveriesSql(engine.state.dialect), [
    owner,
    leaseUntil,
    now,
    now,
    limit,
    now,
  ]);
}

/** Gives back `owner`'s lease on a pending delivery (a worker stopping cleanly). */
export function releaseLease(engine: Context, owner: string, rowid: number): Promise<number> {
  return engine.state.run(SQL.release, [rowid, owner]);
}

/** When the next pending delivery of an active webhook can be claimed (null when there is none). */
export async function nextDueAt(engine: Context): Promise<number | null> {
  const v = await engine.state.value<number | null>(SQL.nextDue);
  return v === null || v === undefined ? null : Number(v);
}

export function deliveryByRowid(engine: Context, rowid: number): Promise<DeliveryRow | undefined> {
  return engine.state.get<DeliveryRow>(SQL.byRowid, [rowid]);
}

export function deliveriesOfWebhook(engine: Context, webhookRowid: number): Promise<DeliveryRow[]> {
  return engine.state.all<DeliveryRow>(SQL.ofWebhook, [webhookRowid]);
}

/**
 * Outcomes: each is written only while `owner` still holds the lease, and resolves to whether it was
 * (false: the lease ran out and another worker took the delivery over; its outcome counts).
 */
export async function markDelivered(
  engine: Context,
  owner: string,
  rowid: number,
  code: number,
  now: number,
): Promise<boolean> {
  return (await engine.state.run(SQL.delivered, [now, code, now, rowid, owner])) > 0;
}

export async function markRetry(
  engine: Context,
  owner: string,
  rowid: number,
  next: number,
  code: number | null,
  error: string,
  now: number,
): Promise<boolean> {
  return (await engine.state.run(SQL.retry, [next, now, code, error, now, rowid, owner])) > 0;
}

export async function markFailed(
  engine: Context,
  owner: string,
  rowid: number,
  code: number | null,
  error: string,
  now: number,
): Promise<boolean> {
  return (await engine.state.run(SQL.failed, [now, code, error, now, rowid, owner])) > 0;
}

/**
 * Puts back the deliveries whose retries ran out, when their webhook is active again (the caller
 * wakes the delivery worker: `wake.ts`).
 */
export function requeueExhausted(engine: Context, webhookRowid: number, now: number): Promise<number> {
  return engine.state.run(SQL.requeue, [now, now, webhookRowid]);
}
