/**
 * Webhooks: the v1 partner-level webhook (one per account, re-registering replaces it and issues a new
 * secret) and the v2 multi-webhooks (at most 10 per account, status, rotation with a grace period).
 * Every function takes the engine first and the authenticated account; another account's webhook is
 * reported as not found, never shown. Every write is one state transaction (joining the request's
 * `ctx.transaction` when there is one).
 *
 * @example
 * const hook = await createWebhook(engine, account, { url: 'https://example.com/hook' });
 * await rotateSecret(engine, account, hook.webhook_id, 3600); // old secret still signs for an hour
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import type { Account } from '../account/types.js';
import type { PayloadFormat, WebhookStatus } from '../schemas/events.js';
import { requeueExhausted } from './outbox.js';
import { WEBHOOK_SQL } from '../store/sql/webhooks.js';
import type { WebhookSettings } from '../runtime/settings.js';

/** v2 webhooks per account. */
export const MAX_WEBHOOKS = 10;
/** Default grace period of a rotated secret (the previous one keeps signing). */
export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;

// The settings' types live with the other settings (`runtime/settings.ts`); re-exported for callers.
export { DEFAULT_RETRY_SCHEDULE, type WebhookSettings } from '../runtime/settings.js';

/** The engine's `webhooks` options with their defaults. */
export function webhookSettings(engine: Context): WebhookSettings {
  return engine.settings.webhooks;
}

/**
 * A new webhook secret: 33 random bytes whose base64 text holds neither `+` nor `/`, so the same 44
 * characters are valid base64url (live-service receivers) and base64 (Standard Webhooks receivers).
 */
export function generateSecret(random: (n: number) => Buffer = randomBytes): string {
  for (;;) {
    const text = random(33).toString('base64');
    if (!/[+/]/.test(text)) return text;
  }
}

export interface WebhookRow {
  rowid: number;
  webhook_id: string;
  account_id: string;
  partner_id: string;
  api_version: number;
  name: string | null;
  description: string | null;
  url: string;
  headers: string;
  payload_format: PayloadFormat;
  status: WebhookStatus;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

const SQL = WEBHOOK_SQL;

export interface WebhookInput {
  url: string;
  name?: string | null;
  description?: string | null;
  headers?: string[] | null;
  payload_format?: PayloadFormat | null;
  status?: WebhookStatus | null;
}

/** Creates a v2 webhook (409 beyond `MAX_WEBHOOKS`); the row carries the generated secret. */
export function createWebhook(engine: Context, account: Account, input: WebhookInput): Promise<WebhookRow> {
  // One transaction: the count and the insert must not interleave with another create.
  return engine.state.transaction(async () => {
    const count = Number((await engine.state.value(SQL.countV2, [account.account_id])) ?? 0);
    if (count >= MAX_WEBHOOKS) {
      throw new EngineError('CONFLICT', `A tenant may hold at most ${MAX_WEBHOOKS} webhooks`);
    }
    const status = input.status ?? 'active';
    const now = engine.now();
    return (await engine.state.get<WebhookRow>(SQL.insert, [
      engine.newId('wh', 12),
      account.account_id,
      account.partner_id,
      2,
      input.name ?? null,
      input.description ?? null,
      input.url,
      JSON.stringify(input.headers ?? []),
      input.payload_format ?? 'json',
      status,
      status === 'disabled' ? 'user' : null,
      generateSecret(),
      now,
      now,
    ]))!;
  });
}

/** A v2 webhook of the account, or 404. */
export async function getWebhook(engine: Context, account: Account, webhookId: string): Promise<WebhookRow> {
  const row = await engine.state.get<WebhookRow>(SQL.byId, [webhookId, account.account_id]);
  if (!row) throw new EngineError('NOT_FOUND', `Webhook ${webhookId} not found`);
  return row;
}

export function webhookByRowid(engine: Context, rowid: number): Promise<WebhookRow | undefined> {
  return engine.state.get<WebhookRow>(SQL.byRowid, [rowid]);
}

export async function listWebhooks(
  engine: Context,
  account: Account,
  status?: WebhookStatus,
): Promise<WebhookRow[]> {
  const rows = await engine.state.all<WebhookRow>(SQL.list, [account.account_id]);
  return status ? rows.filter((r) => r.status === status) : rows;
}

/**
 * Re-queues the deliveries that ran out of retries. The caller wakes the delivery worker once its
 * transaction has committed (`wakeDelivery`): a worker woken earlier would not see the rows yet.
 */
async function resumeDeliveries(engine: Context, webhookRowid: number, now: number): Promise<void> {
  await requeueExhausted(engine, webhookRowid, now);
}

/**
 * Applies a partial update; re-enabling resumes the deliveries that waited or ran out of retries (wake
 * the worker after the commit).
 */
export function updateWebhook(
  engine: Context,
  account: Account,
  webhookId: string,
  patch: Partial<WebhookInput>,
): Promise<WebhookRow> {
  return engine.state.transaction(async () => {
    const row = await getWebhook(engine, account, webhookId);
    const status = patch.status ?? row.status;
    const now = engine.now();
    const updated = (await engine.state.get<WebhookRow>(SQL.update, [
      patch.name !== undefined ? patch.name : row.name,
      patch.description !== undefined ? patch.description : row.description,
      patch.url ?? row.url,
      patch.headers !== undefined ? JSON.stringify(patch.headers ?? []) : row.headers,
      patch.payload_format ?? row.payload_format,
      status,
      status === 'active' ? null : patch.status === 'disabled' ? 'user' : row.disabled_reason,
      now,
      row.rowid,
    ]))!;
    if (status === 'active' && row.status !== 'active') await resumeDeliveries(engine, row.rowid, now);
    return updated;
  });
}

export interface DeleteWebhookResult {
  deleted_enrollment_ids: string[];
  cancelled_deliveries: number;
}

/**
 * Deletes a v2 webhook. Without `force`, a webhook that enrollments still use is a 409; with it, those
 * enrollments are deleted too (monitoring stops) and pending deliveries are cancelled.
 */
export function deleteWebhook(
  engine: Context,
  account: Account,
  webhookId: string,
  force: boolean,
): Promise<DeleteWebhookResult> {
  return engine.state.transaction(async () => {
    const row = await getWebhook(engine, account, webhookId);
    const enrollmentIds = (
      await engine.state.all<{ enrollment_id: string }>(SQL.enrollmentsOf, [row.rowid])
    ).map((r) => r.enrollment_id);
    if (enrollmentIds.length > 0 && !force) {
      throw new EngineError(
        'CONFLICT',
        `Webhook ${webhookId} is used by ${enrollmentIds.length} enrollment(s); delete them first or pass force=true`,
        { detail: { enrollment_ids: enrollmentIds } },
      );
    }
    await engine.state.run(SQL.removeEnrollments, [row.rowid]);
    const cancelled = await engine.state.run(SQL.cancelDeliveries, [engine.now(), row.rowid]);
    await engine.state.run(SQL.remove, [row.rowid]);
    return { deleted_enrollment_ids: enrollmentIds, cancelled_deliveries: cancelled };
  });
}

/** Issues a new secret; the previous one keeps signing next to it for `graceSeconds`. */
export function rotateSecret(
  engine: Context,
  account: Account,
  webhookId: string,
  graceSeconds: number,
): Promise<WebhookRow> {
  return engine.state.transaction(async () => {
    const row = await getWebhook(engine, account, webhookId);
    const now = engine.now();
    return (await engine.state.get<WebhookRow>(SQL.rotate, [
      now + graceSeconds * 1000,
      generateSecret(),
      now,
      row.rowid,
    ]))!;
  });
}

/** The account's v1 partner webhook, if registered. */
export function getV1Webhook(engine: Context, account: Account): Promise<WebhookRow | undefined> {
  return engine.state.get<WebhookRow>(SQL.v1Of, [account.account_id]);
}

/** Registers (or replaces) the v1 partner webhook; a new secret is issued every time. */
export function registerV1Webhook(
  engine: Context,
  account: Account,
  input: { url: string; headers?: string[] | null; payload_format?: PayloadFormat | null },
): Promise<WebhookRow> {
  return engine.state.transaction(async () => {
    const now = engine.now();
    const existing = await getV1Webhook(engine, account);
    const headers = JSON.stringify(input.headers ?? []);
    const format = input.payload_format ?? 'json';
    const secret = generateSecret();
    if (existing) {
      const row = (await engine.state.get<WebhookRow>(SQL.replaceV1, [
        input.url,
        headers,
        format,
        secret,
        now,
        existing.rowid,
      ]))!;
      if (existing.status !== 'active') await resumeDeliveries(engine, existing.rowid, now);
      return row;
    }
    return (await engine.state.get<WebhookRow>(SQL.insert, [
      `wh1_${account.account_id}`,
      account.account_id,
      account.partner_id,
      1,
      null,
      null,
      input.url,
      headers,
      format,
      'active',
      null,
      secret,
      now,
      now,
    ]))!;
  });
}

/** Deletes the v1 partner webhook (404 when none) and cancels its pending deliveries. */
export function deleteV1Webhook(engine: Context, account: Account): Promise<void> {
  return engine.state.transaction(async () => {
    const row = await getV1Webhook(engine, account);
    if (!row) throw new EngineError('NOT_FOUND', `No webhook registered for partner ${account.partner_id}`);
    await engine.state.run(SQL.cancelDeliveries, [engine.now(), row.rowid]);
    await engine.state.run(SQL.remove, [row.rowid]);
  });
}

/** Marks a webhook disabled (the delivery worker, after a delivery ran out of retries). */
export async function disableWebhook(engine: Context, rowid: number, reason: string): Promise<void> {
  await engine.state.run(SQL.disable, [reason, engine.now(), rowid]);
}

/** The secret that signs next to the current one, while a rotation's grace period lasts. */
export function previousSecretAt(row: WebhookRow, now: number): string | null {
  return row.previous_secret && (row.previous_secret_expires_at ?? 0) > now ? row.previous_secret : null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The v1 webhook body (`WebhookAddResponse` / `WebhookGetResponse`). */
export function v1WebhookView(row: WebhookRow) {
  return {
    created_at: iso(row.created_at),
    last_modified_time: iso(row.updated_at),
    webhook_url: row.url,
    webhook_secret: row.secret,
    headers: JSON.parse(row.headers) as string[],
    payload_format: row.payload_format,
  };
}

/** The v2 webhook record; the secret only where it is issued (create, rotate). */
export function v2WebhookView(row: WebhookRow, options: { withSecret?: boolean; now?: number } = {}) {
  const graceActive =
    row.previous_secret_expires_at !== null && (options.now ?? 0) < row.previous_secret_expires_at;
  return {
    webhook_id: row.webhook_id,
    name: row.name,
    description: row.description,
    url: row.url,
    headers: JSON.parse(row.headers) as string[],
    payload_format: row.payload_format,
    status: row.status,
    disabled_reason: row.disabled_reason,
    ...(options.withSecret ? { secret: row.secret } : {}),
    previous_secret_expires_at:
      graceActive && row.previous_secret_expires_at ? iso(row.previous_secret_expires_at) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
