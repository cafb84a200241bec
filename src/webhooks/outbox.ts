/**
 * The durable delivery outbox. A delivery is written in the same transaction as the event that caused
 * it, so an event is never stored without its deliveries (nor the reverse). The worker
 * (`deliver.ts`) reads due rows, and records each attempt's outcome here. A delivery is
 * `pending` until it is `delivered`, `failed` (a permanent answer, or retries ran out) or `cancelled`
 * (its webhook was deleted). Pending rows survive restarts: a new worker picks them up.
 */
import type { Context } from '../runtime/context.js';
import { outboxStatements } from '../store/sql/webhooks.js';

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
}

const statementsOf = outboxStatements;
const stmts = (engine: Context) => statementsOf(engine.db);

/** Writes one pending delivery (call inside the transaction that stores the event). */
export function enqueueDelivery(
  engine: Context,
  webhookRowid: number,
  enrollmentId: string | null,
  payload: DeliveryPayload,
  now: number,
): string {
  const deliveryId = engine.newId('msg', 12);
  stmts(engine).insert.run(
    deliveryId,
    webhookRowid,
    payload.event_id,
    enrollmentId,
    JSON.stringify(payload),
    now,
    now,
    now,
  );
  return deliveryId;
}

/** Pending deliveries of active webhooks that are due at `now`, oldest first. */
export function dueDeliveries(engine: Context, now: number, limit: number): DeliveryRow[] {
  return stmts(engine).due.all(now, limit) as DeliveryRow[];
}

/** When the next pending delivery of an active webhook is due (null when there is none). */
export function nextDueAt(engine: Context): number | null {
  return (stmts(engine).nextDue.get() as number | null) ?? null;
}

export function deliveryByRowid(engine: Context, rowid: number): DeliveryRow | undefined {
  return stmts(engine).byRowid.get(rowid) as DeliveryRow | undefined;
}

export function deliveriesOfWebhook(engine: Context, webhookRowid: number): DeliveryRow[] {
  return stmts(engine).ofWebhook.all(webhookRowid) as DeliveryRow[];
}

export function markDelivered(engine: Context, rowid: number, code: number, now: number): void {
  stmts(engine).delivered.run({ rowid, code, now });
}

export function markRetry(
  engine: Context,
  rowid: number,
  next: number,
  code: number | null,
  error: string,
  now: number,
) {
  stmts(engine).retry.run({ rowid, next, code, error, now });
}

export function markFailed(
  engine: Context,
  rowid: number,
  code: number | null,
  error: string,
  now: number,
): void {
  stmts(engine).failed.run({ rowid, code, error, now });
}

/**
 * Puts back the deliveries whose retries ran out, when their webhook is active again (the caller
 * wakes the delivery worker: `wake.ts`).
 */
export function requeueExhausted(engine: Context, webhookRowid: number, now: number): number {
  return stmts(engine).requeue.run({ webhook: webhookRowid, now }).changes;
}
