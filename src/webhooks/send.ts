/**
 * One signed POST of a payload to a webhook: the body in the webhook's `payload_format`, its custom
 * headers, the live service's `X-Signature` and the Standard Webhooks headers, sent through the SSRF
 * guard. Shared by the delivery worker and the connectivity check.
 */
import { previousSecretAt, type WebhookRow } from './registry.js';
import { signatureHeaders } from './signature.js';
import { guardedPost, type PostOutcome, type Resolver } from './ssrf.js';

/** Header lines of a webhook (`"Name: value"`) as an object. */
function customHeaders(row: WebhookRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of JSON.parse(row.headers) as string[]) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The raw body for a webhook's `payload_format` (`stringified_json`: the JSON text as a JSON string). */
export function rawBody(payloadJson: string, format: string): string {
  return format === 'stringified_json' ? JSON.stringify(payloadJson) : payloadJson;
}

export interface SendInput {
  webhook: WebhookRow;
  msgId: string;
  payloadJson: string;
  now: number;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  resolver?: Resolver;
  signal?: AbortSignal;
}

/** One signed POST of a payload to a webhook. */
export function sendToWebhook(input: SendInput): Promise<PostOutcome> {
  const { webhook, msgId, payloadJson, now } = input;
  const body = rawBody(payloadJson, webhook.payload_format);
  const headers = {
    ...customHeaders(webhook),
    'content-type': 'application/json',
    'user-agent': 'prospectdb-webhooks/1',
    ...signatureHeaders({
      msgId,
      timestamp: Math.floor(now / 1000),
      body,
      secret: webhook.secret,
      previousSecret: previousSecretAt(webhook, now),
    }),
  };
  return guardedPost(webhook.url, {
    headers,
    body,
    timeoutMs: input.timeoutMs,
    policy: { allowPrivateTargets: input.allowPrivateTargets },
    resolver: input.resolver,
    signal: input.signal,
  });
}
