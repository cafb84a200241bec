/**
 * The webhooks slice, the one surface the facade, the event ingest and the engine call: webhook
 * registration (`registry.ts`), enrollments (`enrollments.ts`), the durable outbox written with each
 * event (`outbox.ts`), the delivery worker (`deliver.ts`) that sends signed (`signature.ts`, `send.ts`),
 * SSRF-guarded (`ssrf.ts`) POSTs, and the connectivity check (`connectivity.ts`). Its modules import
 * each other directly; everything outside imports this file.
 *
 * @example
 * const hook = createWebhook(engine, account, { url: 'https://example.com/hook' });
 * const worker = startDeliveryWorker(engine); // what `openEngine` does
 */
import type { Context } from '../runtime/context.js';
import { webhookSettings } from './registry.js';
import { checkUrl, type UrlCheck } from './ssrf.js';

export {
  DEFAULT_RETRY_SCHEDULE,
  DEFAULT_ROTATION_GRACE_SECONDS,
  MAX_WEBHOOKS,
  createWebhook,
  deleteV1Webhook,
  deleteWebhook,
  getV1Webhook,
  getWebhook,
  listWebhooks,
  registerV1Webhook,
  rotateSecret,
  updateWebhook,
  v1WebhookView,
  v2WebhookView,
  webhookByRowid,
  webhookSettings,
  type WebhookInput,
  type WebhookRow,
  type WebhookSettings,
} from './registry.js';
export {
  createEnrollment,
  deleteEnrollment,
  enrollmentView,
  getEnrollment,
  listEnrollments,
  matchEnrollments,
  updateEnrollment,
  type EnrollmentRow,
} from './enrollments.js';
export { enqueueDelivery, type DeliveryPayload } from './outbox.js';
export { wakeDelivery } from './wake.js';
export { startDeliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions } from './deliver.js';
export { checkConnectivity, type ConnectivityInput, type ConnectivityResult } from './connectivity.js';
export { verifyXSignature } from './signature.js';

/** A webhook URL checked against the engine's SSRF policy, before any DNS lookup (the 422 of a route). */
export function checkTarget(engine: Context, url: string): UrlCheck {
  return checkUrl(url, { allowPrivateTargets: webhookSettings(engine).allowPrivateTargets });
}
