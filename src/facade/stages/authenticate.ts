/**
 * Stage 2, authenticate: who is calling and may they. In order: the per-address failed-auth limit
 * (429, checked before the key is even looked at), the API key (401), the per-key rate limit (429),
 * the route's entitlement and the path's `partner_id` (403). Routes with `auth: 'none'` skip it all.
 */
import { authenticate as authenticateKey } from '../../account/accounts.js';
import { keyPrefix } from '../../account/keys.js';
import { createAuthFailureLimiter, type AuthFailureLimiter } from '../../account/auth-failures.js';
import {
  createRateLimiter,
  DEFAULT_PER_MINUTE,
  rateLimitHeaders,
  type RateLimiter,
} from '../../account/ratelimit.js';
import { kind, type Context } from '../../runtime/context.js';
import type { StateDb } from '../../state/db.js';
import type { Account, FacadeOptions, FacadeRequest } from '../types.js';
import type { Decoded } from './decode.js';
import type { Refusal } from './respond.js';

/**
 * The facade's limiters for one engine (null when the option turns one off). The per-key rate limit
 * is shared through the state store (every process and node serving it draws on one budget); the
 * failed-authentication limit stays per process: it is a brake on key guessing from one address, and
 * a process of its own per address is budget enough for that.
 */
export interface FacadeLimits {
  rate: RateLimiter | null;
  authFailures: AuthFailureLimiter | null;
}

/** Built from the engine's options on its first request. */
export function createFacadeLimits(state: StateDb, options: FacadeOptions): FacadeLimits {
  const rate = options.rateLimit;
  const failures = options.authFailureLimit;
  return {
    rate: rate === false ? null : createRateLimiter(state, rate?.perMinute ?? DEFAULT_PER_MINUTE),
    authFailures: failures === false ? null : createAuthFailureLimiter(failures?.perMinute),
  };
}

// The limiters live as long as their engine: held by the context's services, made on first use.
const LIMITS = kind('facade.limits', (ctx) => createFacadeLimits(ctx.state, ctx.settings.facade));

/** The engine's limiters, created on first use. */
export function facadeLimits(engine: Context): FacadeLimits {
  return engine.services.get(LIMITS);
}

/** A caller the adapter has already authenticated (the tool server's OAuth token). */
export interface PresetCaller {
  account: Account;
  keyId?: string;
}

export interface Caller {
  /** Null for routes with `auth: 'none'`. */
  account: Account | null;
  keyId: string | null;
  /** Rate-limit headers for every later answer of this request. */
  rate: Record<string, string>;
}

export type AuthOutcome = { ok: true; caller: Caller } | { ok: false; refusal: Refusal };

export async function authenticateRequest(
  engine: Context,
  decoded: Decoded,
  clientAddress: FacadeRequest['clientAddress'],
  preset: PresetCaller | undefined,
): Promise<AuthOutcome> {
  const { route, params, headers } = decoded;
  if ((route.auth ?? 'api_key') !== 'api_key')
    return { ok: true, caller: { account: null, keyId: null, rate: {} } };
  const limits = facadeLimits(engine);
  // Checked before the key is even looked at: an address over its failure budget cannot keep trying.
  const address = preset ? undefined : clientAddress;
  const failures = address === undefined ? null : limits.authFailures;
  const blocked = failures ? failures.blockedFor(address!, engine.now()) : 0;
  if (blocked > 0) {
    return {
      ok: false,
      refusal: {
        code: 'AUTH_FAILURES_LIMITED',
        retryAfter: blocked,
        headers: { 'retry-after': String(blocked) },
      },
    };
  }
  const now = engine.now();
  // The rate-limit hit is taken while the key is looked up, named by the key's visible prefix (one per
  // key): one round trip instead of two on a networked state store. A key that then fails to
  // authenticate gives its hit back.
  const rateKey = preset
    ? (preset.keyId ?? `account:${preset.account.account_id}`)
    : keyPrefix(String(headers['api_key'] ?? '').trim());
  const [auth, decision] = await Promise.all([
    preset
      ? {
          ok: true as const,
          account: preset.account,
          keyId: preset.keyId ?? `account:${preset.account.account_id}`,
        }
      : authenticateKey(engine, headers['api_key']),
    limits.rate && rateKey ? limits.rate.take(rateKey, now) : undefined,
  ]);
  if (!auth.ok) {
    if (decision?.ok) await limits.rate!.giveBack(rateKey!, now);
    failures?.fail(address!, now);
    return { ok: false, refusal: { code: auth.reason === 'missing' ? 'API_KEY_MISSING' : 'UNAUTHORIZED' } };
  }
  let rate: Record<string, string> = {};
  if (decision) {
    rate = rateLimitHeaders(decision);
    if (!decision.ok) {
      return { ok: false, refusal: { code: 'RATE_LIMITED', retryAfter: decision.retryAfter, headers: rate } };
    }
  }
  const { account } = auth;
  const entitled = (e: string) => account.entitlements.includes('*') || account.entitlements.includes(e);
  if (
    (route.entitlement && !entitled(route.entitlement)) ||
    (params.partner_id !== undefined && params.partner_id !== account.partner_id)
  ) {
    return { ok: false, refusal: { code: 'FORBIDDEN', headers: rate } };
  }
  return { ok: true, caller: { account, keyId: auth.keyId, rate } };
}
