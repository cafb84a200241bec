/**
 * Per-key rate limiting, shared through the state store: every process and every node serving the
 * same state draws on one budget per key (200 requests per minute by default). A sliding-window
 * counter: hits are counted per fixed minute in `rate_windows`, and a request is let through while the
 * previous minute's count, weighted by how much of it still overlaps the sliding minute, plus the
 * current minute's count stays below the limit. The current minute's count is moved by one atomic
 * conditional upsert (`… DO UPDATE SET hits = hits + 1 WHERE hits < cap RETURNING hits`), so
 * concurrent requests on any number of processes never push a window past its cap.
 *
 * Cost per request: one statement (the previous minute's count is final once it is over and is read
 * once per key and minute by each process), plus one prune per process and minute that deletes the
 * windows nothing counts any more.
 */
import type { StateDb } from '../state/db.js';
import { ACCOUNT_SQL as SQL } from '../store/sql/accounts.js';

export const DEFAULT_PER_MINUTE = 200;
const WINDOW_MS = 60_000;

export type RateLimitOption = false | { perMinute?: number } | undefined;

export type RateDecision =
  | { ok: true; limit: number; remaining: number; reset: number }
  | { ok: false; limit: number; remaining: 0; reset: number; retryAfter: number };

export interface RateLimiter {
  readonly limit: number;
  /** Records a request of `key` at `now` (ms) if the sliding minute allows it. */
  take(key: string, now: number): Promise<RateDecision>;
  /** Takes back a hit `take` granted at `now` (the request turned out not to be the key's). */
  giveBack(key: string, now: number): Promise<void>;
}

/**
 * The previous window's hits that still count at `now`: its count weighted by the share of the sliding
 * minute it still covers (the current millisecond counted as elapsed, so a client that waits the
 * `retry-after` it was given is let through).
 */
function carried(prev: number, start: number, now: number): number {
  return Math.floor((prev * (start + WINDOW_MS - now - 1)) / WINDOW_MS);
}

/**
 * When (ms) a key with `prev` hits in the previous window and `cur` in the current one (which started
 * at `start`) may send again: later in this window once the previous one's weight has decayed enough,
 * or else in the next window once this one's has.
 */
export function nextAllowed(limit: number, prev: number, cur: number, start: number): number {
  // Allowed at elapsed e iff cur + floor(prev × (W − e − 1) / W) < limit ⇔ e > W × (1 − (limit − cur) / prev) − 1.
  const first = (p: number, room: number) =>
    p === 0 ? 0 : Math.max(0, Math.floor(WINDOW_MS * (1 - room / p) - 1) + 1);
  if (cur < limit) return start + first(prev, limit - cur);
  return start + WINDOW_MS + first(cur, limit);
}

export function createRateLimiter(state: StateDb, perMinute: number = DEFAULT_PER_MINUTE): RateLimiter {
  const limit = Math.max(1, Math.floor(perMinute));
  // The previous window's count per key, for the current window only (cleared when it moves on).
  let cachedFor = -1;
  let previous = new Map<string, number>();
  const previousHits = async (key: string, start: number): Promise<number> => {
    if (cachedFor !== start) {
      cachedFor = start;
      previous = new Map();
      // Once per process and window: everything before the previous window counts for nothing.
      void state.run(SQL.ratePrune, [start - WINDOW_MS]).catch(() => {});
    }
    let hits = previous.get(key);
    if (hits === undefined) {
      hits = (await state.value<number>(SQL.rateWindow, [key, start - WINDOW_MS])) ?? 0;
      previous.set(key, hits);
    }
    return hits;
  };
  return {
    limit,
    async take(key, now) {
      const start = now - (now % WINDOW_MS);
      const reset = Math.ceil((start + WINDOW_MS) / 1000);
      const prev = await previousHits(key, start);
      const cap = limit - carried(prev, start, now);
      const hits = cap > 0 ? await state.value<number>(SQL.rateHit, [key, start, cap]) : undefined;
      if (hits !== undefined) return { ok: true, limit, remaining: Math.max(0, cap - hits), reset };
      // Refused: this window holds `cap` hits (or more, counted before the weight decayed).
      const cur = Math.max(cap, (await state.value<number>(SQL.rateWindow, [key, start])) ?? 0);
      const retryAfter = Math.max(1, Math.ceil((nextAllowed(limit, prev, cur, start) - now) / 1000));
      return { ok: false, limit, remaining: 0, reset, retryAfter };
    },
    async giveBack(key, now) {
      await state.run(SQL.rateGiveBack, [key, now - (now % WINDOW_MS)]);
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
