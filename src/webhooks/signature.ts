/**
 * Webhook secrets and signatures. One secret serves two schemes:
 *
 * - the live service's `X-Signature` = base64url(HMAC-SHA256(base64url_decode(secret), "{X-Timestamp}.{raw body}"))
 *   with `X-Timestamp` in unix seconds;
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), so receivers can
 *   verify with the `standardwebhooks` package: `new Webhook(secret).verify(body, headers)`.
 *
 * Secrets (`generateSecret` in `registry.ts`) are 33 random bytes whose base64 text holds neither `+` nor `/` (rejection sampling), so the same
 * 44 characters decode to the same key under base64url (live-service receivers) and base64 (Standard Webhooks).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64url');
}

/** `X-Signature` of the live service. `timestamp` is in unix seconds. */
export function xSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', key(secret)).update(`${timestamp}.${body}`).digest('base64url');
}

/** One Standard Webhooks signature (`v1,<base64>`). */
export function standardSignature(secret: string, msgId: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key(secret)).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
}

/** Constant-time check of an `X-Signature` value (for receivers and tests). */
export function verifyXSignature(
  secret: string,
  timestamp: string | number,
  body: string,
  signature: string,
): boolean {
  const expected = Buffer.from(xSignature(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface SignInput {
  /** Stable across attempts: the Standard Webhooks `webhook-id`. */
  msgId: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
  secret: string;
  /** During a rotation's grace period: the previous secret, which signs next to the new one. */
  previousSecret?: string | null;
}

/**
 * The signature headers of one attempt. During a rotation `X-Signature` carries the new secret's
 * signature and `X-Signature-Previous` the old one; `webhook-signature` carries both (space-separated,
 * as Standard Webhooks specifies), so receivers on either secret keep verifying.
 */
export function signatureHeaders(input: SignInput): Record<string, string> {
  const { msgId, timestamp, body, secret, previousSecret } = input;
  const headers: Record<string, string> = {
    'x-timestamp': String(timestamp),
    'x-signature': xSignature(secret, timestamp, body),
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(secret, msgId, timestamp, body),
  };
  if (previousSecret) {
    headers['x-signature-previous'] = xSignature(previousSecret, timestamp, body);
    headers['webhook-signature'] += ` ${standardSignature(previousSecret, msgId, timestamp, body)}`;
  }
  return headers;
}
