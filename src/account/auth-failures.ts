/**
 * Per-client-address limit on failed authentications: after `perMinute` failures (missing, malformed,
 * unknown or revoked keys) within a sliding minute, every request from that address that needs a key is
 * refused with 429 until the oldest failure leaves the window, valid key or not. This is what keeps an
 * attacker from trying keys at line rate: the limit is checked before the key is looked at.
 *
 * Memory is bounded: each address keeps a ring of at most `perMinute` times, and addresses whose
 * failures have all expired are dropped once the table grows past {@link MAX_TRACKED}.
 */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 20;
const WINDOW_MS = 60_000;
/** Beyond this many tracked addresses, expired ones are swept on the next failure. */
const MAX_TRACKED = 10_000;

export type AuthFailureLimitOption = false | { perMinute?: number } | undefined;

interface Ring {
  times: Float64Array;
  head: number;
  size: number;
}

export interface AuthFailureLimiter {
  readonly limit: number;
  /** Seconds to wait when `address` is over the limit at `now` (ms), else 0. */
  blockedFor(address: string, now: number): number;
  /** Records one failed authentication of `address` at `now`. */
  fail(address: string, now: number): void;
}

export function createAuthFailureLimiter(
  perMinute: number = DEFAULT_AUTH_FAILURES_PER_MINUTE,
): AuthFailureLimiter {
  const limit = Math.max(1, Math.floor(perMinute));
  const rings = new Map<string, Ring>();
  const expire = (ring: Ring, now: number) => {
    while (ring.size > 0 && ring.times[ring.head]! <= now - WINDOW_MS) {
      ring.head = (ring.head + 1) % limit;
      ring.size--;
    }
  };
  return {
    limit,
    blockedFor(address, now) {
      const ring = rings.get(address);
      if (!ring) return 0;
      expire(ring, now);
      if (ring.size < limit) return 0;
      return Math.max(1, Math.ceil((ring.times[ring.head]! + WINDOW_MS - now) / 1000));
    },
    fail(address, now) {
      let ring = rings.get(address);
      if (!ring) {
        if (rings.size >= MAX_TRACKED) {
          for (const [a, r] of rings) {
            expire(r, now);
            if (r.size === 0) rings.delete(a);
          }
        }
        ring = { times: new Float64Array(limit), head: 0, size: 0 };
        rings.set(address, ring);
      }
      expire(ring, now);
      // A full ring drops its oldest failure: the block lasts a minute after the latest ones.
      if (ring.size === limit) {
        ring.head = (ring.head + 1) % limit;
        ring.size--;
      }
      ring.times[(ring.head + ring.size) % limit] = now;
      ring.size++;
    },
  };
}
