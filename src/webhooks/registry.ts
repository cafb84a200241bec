/**
 * Webhooks: the v1 partner-level webhook (one per account, re-registering replaces it and issues a new
 * secret) and the v2 multi-webhooks (at most 10 per account, status, rotation with a grace period).
 * Every function takes the engine first and the authenticated account; another account's webhook is
 * reported as not found, never shown. Callers run the writes inside the request transaction.
 *
 * @example
 * const hook = createWebhook(engine, account, { url: 'https://example.com/hook' });
 * rotateSecret(engine, account, hook.webhook_id, 3600); // old secret still signs for an hour
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '../runtime/context.js';
import { EngineError } from '../errors.js';
import type { Account } from '../account/types.js';
import type { PayloadFormat, WebhookStatus } from '../schemas/events.js';
import { requeueExhausted } from './outbox.js';
import { wakeDelivery } from './wake.js';
import { webhookStatements } from '../store/sql/webhooks.js';
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

const statementsOf = webhookStatements;
const stmts = (engine: Context) => statementsOf(engine.db);

export interface WebhookInput {
  url: string;
  name?: string | null;
  description?: string | null;
  headers?: string[] | null;
  payload_format?: PayloadFormat | null;
  status?: WebhookStatus | null;
}

/** Creates a v2 webhook (409 beyond `MAX_WEBHOOKS`); the row carries the generated secret. */
export function createWebhook(engine: Context, account: Account, input: WebhookInput): WebhookRow {
  const s = stmts(engine);
  if ((s.countV2.get(account.account_id) as number) >= MAX_WEBHOOKS) {
    throw new EngineError('CONFLICT', `A tenant may hold at most ${MAX_WEBHOOKS} webhooks`);
  }
  const status = input.status ?? 'active';
  const { lastInsertRowid } = s.insert.run({
    webhook_id: engine.newId('wh', 12),
    account_id: account.account_id,
    partner_id: account.partner_id,
    api_version: 2,
    name: input.name ?? null,
    description: input.description ?? null,
    url: input.url,
    headers: JSON.stringify(input.headers ?? []),
    payload_format: input.payload_format ?? 'json',
    status,
    disabled_reason: status === 'disabled' ? 'user' : null,
    secret: generateSecret(),
    now: engine.now(),
  });
  return s.byRowid.get(lastInsertRowid) as WebhookRow;
}

/** A v2 webhook of the account, or 404. */
export function getWebhook(engine: Context, account: Account, webhookId: string): WebhookRow {
  const row = stmts(engine).byId.get(webhookId, account.account_id) as WebhookRow | undefined;
  if (!row) throw new EngineError('NOT_FOUND', `Webhook ${webhookId} not found`);
  return row;
}

export function webhookByRowid(engine: Context, rowid: number): WebhookRow | undefined {
  return stmts(engine).byRowid.get(rowid) as WebhookRow | undefined;
}

export function listWebhooks(engine: Context, account: Account, status?: WebhookStatus): WebhookRow[] {
  const rows = stmts(engine).list.all(account.account_id) as WebhookRow[];
  return status ? rows.filter((r) => r.status === status) : rows;
}

/** Re-queues the deliveries that ran out of retries and wakes the worker to send them. */
function resumeDeliveries(engine: Context, webhookRowid: number, now: number): void {
  requeueExhausted(engine, webhookRowid, now);
  wakeDelivery(engine);
}

/** Applies a partial update; re-enabling resumes the deliveries that waited or ran out of retries. */
export function updateWebhook(
  engine: Context,
  account: Account,
  webhookId: string,
  patch: Partial<WebhookInput>,
): WebhookRow {
  const s = stmts(engine);
  const row = getWebhook(engine, account, webhookId);
  const status = patch.status ?? row.status;
  const now = engine.now();
  s.update.run({
    rowid: row.rowid,
    name: patch.name !== undefined ? patch.name : row.name,
    description: patch.description !== undefined ? patch.description : row.description,
    url: patch.url ?? row.url,
    headers: patch.headers !== undefined ? JSON.stringify(patch.headers ?? []) : row.headers,
    payload_format: patch.payload_format ?? row.payload_format,
    status,
    disabled_reason: status === 'active' ? null : patch.status === 'disabled' ? 'user' : row.disabled_reason,
    now,
  });
  if (status === 'active' && row.status !== 'active') resumeDeliveries(engine, row.rowid, now);
  return s.byRowid.get(row.rowid) as WebhookRow;
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
): DeleteWebhookResult {
  const s = stmts(engine);
  const row = getWebhook(engine, account, webhookId);
  const enrollmentIds = s.enrollmentsOf.all(row.rowid) as string[];
  if (enrollmentIds.length > 0 && !force) {
    throw new EngineError(
      'CONFLICT',
      `Webhook ${webhookId} is used by ${enrollmentIds.length} enrollment(s); delete them first or pass force=true`,
      { detail: { enrollment_ids: enrollmentIds } },
    );
  }
  s.removeEnrollments.run(row.rowid);
  const cancelled = s.cancelDeliveries.run(engine.now(), row.rowid).changes;
  s.remove.run(row.rowid);
  return { deleted_enrollment_ids: enrollmentIds, cancelled_deliveries: cancelled };
}

/** Issues a new secret; the previous one keeps signing next to it for `graceSeconds`. */
export function rotateSecret(
  engine: Context,
  account: Account,
  webhookId: string,
  graceSeconds: number,
): WebhookRow {
  const s = stmts(engine);
  const row = getWebhook(engine, account, webhookId);
  const now = engine.now();
  s.rotate.run({ rowid: row.rowid, secret: generateSecret(), expires: now + graceSeconds * 1000, now });
  return s.byRowid.get(row.rowid) as WebhookRow;
}

/** The account's v1 partner webhook, if registered. */
export function getV1Webhook(engine: Context, account: Account): WebhookRow | undefined {
  return stmts(engine).v1Of.get(account.account_id) as WebhookRow | undefined;
}

/** Registers (or replaces) the v1 partner webhook; a new secret is issued every time. */
export function registerV1Webhook(
  engine: Context,
  account: Account,
  input: { url: string; headers?: string[] | null; payload_format?: PayloadFormat | null },
): WebhookRow {
  const s = stmts(engine);
  const now = engine.now();
  const existing = getV1Webhook(engine, account);
  const fields = {
    url: input.url,
    headers: JSON.stringify(input.headers ?? []),
    payload_format: input.payload_format ?? 'json',
    secret: generateSecret(),
    now,
  };
  if (existing) {
    s.replaceV1.run({ ...fields, rowid: existing.rowid });
    if (existing.status !== 'active') resumeDeliveries(engine, existing.rowid, now);
    return s.byRowid.get(existing.rowid) as WebhookRow;
  }
  const { lastInsertRowid } = s.insert.run({
    ...fields,
    webhook_id: `wh1_${account.account_id}`,
    account_id: account.account_id,
    partner_id: account.partner_id,
    api_version: 1,
    name: null,
    description: null,
    status: 'active',
    disabled_reason: null,
  });
  return s.byRowid.get(lastInsertRowid) as WebhookRow;
}

/** Deletes the v1 partner webhook (404 when none) and cancels its pending deliveries. */
export function deleteV1Webhook(engine: Context, account: Account): void {
  const s = stmts(engine);
  const row = getV1Webhook(engine, account);
  if (!row) throw new EngineError('NOT_FOUND', `No webhook registered for partner ${account.partner_id}`);
  s.cancelDeliveries.run(engine.now(), row.rowid);
  s.remove.run(row.rowid);
}

/** Marks a webhook disabled (the delivery worker, after a delivery ran out of retries). */
export function disableWebhook(engine: Context, rowid: number, reason: string): void {
  stmts(engine).disable.run({ rowid, reason, now: engine.now() });
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
