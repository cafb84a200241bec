/**
 * Per-key rate limiting: a 60-second sliding log, 200 requests per minute by default. Each key keeps a
 * ring of its last `limit` request times, so a check is O(1) and memory is bounded by the limit.
 */
export const DEFAULT_PER_MINUTE = 200;
const WINDOW_MS = 60_000;

export type RateLimitOption = false | { perMinute?: number } | undefined;

export type RateDecision =
  | { ok: true; limit: number; remaining: number; reset: number }
  | { ok: false; limit: number; remaining: 0; reset: number; retryAfter: number };

interface Ring {
  times: Float64Array;
  /** Index of the oldest entry. */
  head: number;
  size: number;
}

export interface RateLimiter {
  readonly limit: number;
  /** Records a request of `key` at `now` (ms) if the window allows it. */
  take(key: string, now: number): RateDecision;
}

export function createRateLimiter(perMinute: number = DEFAULT_PER_MINUTE): RateLimiter {
  const limit = Math.max(1, Math.floor(perMinute));
  const rings = new Map<string, Ring>();
  return {
    limit,
    take(key, now) {
      let ring = rings.get(key);
      if (!ring) {
        ring = { times: new Float64Array(limit), head: 0, size: 0 };
        rings.set(key, ring);
      }
      while (ring.size > 0 && ring.times[ring.head]! <= now - WINDOW_MS) {
        ring.head = (ring.head + 1) % limit;
        ring.size--;
      }
      if (ring.size >= limit) {
        const freeAt = ring.times[ring.head]! + WINDOW_MS;
        const retryAfter = Math.max(1, Math.ceil((freeAt - now) / 1000));
        return { ok: false, limit, remaining: 0, reset: Math.ceil(freeAt / 1000), retryAfter };
      }
      ring.times[(ring.head + ring.size) % limit] = now;
      ring.size++;
      const oldest = ring.times[ring.head]!;
      return { ok: true, limit, remaining: limit - ring.size, reset: Math.ceil((oldest + WINDOW_MS) / 1000) };
    },
  };
}

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.reset),
  };
  if (!d.ok) h['retry-after'] = String(d.retryAfter);
  return h;
}
