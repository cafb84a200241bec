/**
 * The webhook delivery worker: leases due rows from the outbox, POSTs them (SSRF-guarded, signed with
 * the live service's `X-Signature` scheme and with Standard Webhooks headers) and records each outcome.
 *
 * Exactly once across processes: any number of workers (the processes of one `serve`, nodes sharing
 * one PostgreSQL) claim due rows with a lease owned by their engine instance (`claimDeliveries`: one
 * UPDATE that only takes rows never leased or whose lease ran out), so a delivery is sent by one
 * worker at a time; an outcome is written only while the lease is still the writer's. A worker that
 * dies mid-delivery leaves its lease to run out (`webhooks.leaseMs`, longer than a request's
 * timeout); another worker then takes the delivery over and sends it again (the receiver sees the same
 * `webhook-id`). A worker that stops cleanly gives its leases back at once.
 *
 * At-least-once: a delivery keeps its `event_id` and `webhook-id` on every attempt; timeouts, network
 * errors, 5xx, 408 and 429 are retried on `retrySchedule` (each delay with equal jitter, `Retry-After`
 * honoured up to six hours); other answers are final. A delivery whose schedule runs out is `failed` and
 * disables its webhook; the webhook's other deliveries wait, and all of them resume when it is enabled
 * again. Nothing blocks the event loop: one timer, and requests in flight up to `concurrency`. A stopped
 * worker aborts its requests and leaves their rows pending, so the next worker resends them.
 *
 * @example
 * const worker = startDeliveryWorker(engine, { retrySchedule: [50, 100, 200] });
 * …
 * await worker.stop();
 */
import type { Context } from '../runtime/context.js';
import {
  RETRIES_EXHAUSTED,
  claimDeliveries,
  markDelivered,
  markFailed,
  markRetry,
  nextDueAt,
  releaseLease,
  type DeliveryRow,
} from './outbox.js';
import { disableWebhook, webhookByRowid, webhookSettings } from './registry.js';
import { sendToWebhook } from './send.js';
import type { PostOutcome, Resolver } from './ssrf.js';
import { registerWaker } from './wake.js';

export interface DeliveryWorkerOptions {
  /** Delays (ms) before each retry; default the engine's `webhooks.retrySchedule` (about a day). */
  retrySchedule?: readonly number[];
  /** Default the engine's `webhooks.allowPrivateTargets`. */
  allowPrivateTargets?: boolean;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
  /** Requests in flight at most; default 8. */
  concurrency?: number;
  /** Clock for scheduling and signatures; default the engine clock. */
  clock?: () => number;
  /** [0, 1) source for jitter; default `Math.random`. */
  random?: () => number;
  /** DNS resolver (tests). */
  resolver?: Resolver;
  /**
   * Longest sleep between two looks at the outbox, even when nothing is due; default 1 s when the
   * state may be shared with other processes (a file, PostgreSQL: an event ingested elsewhere wakes
   * no one here, and a look is one indexed read), 30 s in memory (every ingest wakes the worker).
   */
  pollMs?: number;
  /**
   * How long a claimed delivery stays this worker's (engine clock, ms); default the engine's
   * `webhooks.leaseMs` (60 s), never less than `timeoutMs` + 1 s.
   */
  leaseMs?: number;
}

export interface DeliveryWorker {
  /** Look at the outbox now (called by ingest through the outbox waker). */
  wake(): void;
  /**
   * Resolves when nothing is in flight and no delivery of an active webhook is pending (retries
   * included), or when the worker stops. Meant for tests and graceful shutdowns with short schedules.
   */
  idle(): Promise<void>;
  /** Stops: aborts requests in flight (their rows stay pending) and clears the timer. */
  stop(): Promise<void>;
  readonly stopped: boolean;
}

/** `Retry-After` in ms (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const MAX_RETRY_AFTER_MS = 6 * 3_600_000;

/** How much longer than one request's timeout a lease lasts at least (the outcome's write included). */
const LEASE_MARGIN_MS = 1_000;

/**
 * Starts a worker for `engine`; it first resumes every pending delivery left by an earlier process
 * (or leased by a process that died, once its lease ends).
 */
export function startDeliveryWorker(engine: Context, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const settings = webhookSettings(engine);
  const schedule = options.retrySchedule ?? settings.retrySchedule;
  const allowPrivateTargets = options.allowPrivateTargets ?? settings.allowPrivateTargets;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const concurrency = options.concurrency ?? 8;
  const clock = options.clock ?? (() => engine.now());
  const random = options.random ?? Math.random;
  const pollMs = options.pollMs ?? (engine.state.location === ':memory:' ? 30_000 : 1_000);
  // A lease outlives the request it covers, so a live owner never loses a delivery it is sending.
  const leaseMs = Math.max(options.leaseMs ?? settings.leaseMs, timeoutMs + LEASE_MARGIN_MS);
  const owner = engine.instance;

  const inFlight = new Map<number, { controller: AbortController; done: Promise<void>; sent: boolean }>();
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  let stopped = false;
  let ticking = false;
  let tickAgain = false;
  let idleWaiters: (() => void)[] = [];

  const alive = () => !stopped && !engine.closed;

  /** `poll`: nothing is due, so the timer does not keep the process alive. */
  function schedule_(delay: number, poll = false): void {
    if (!alive()) return;
    const at = Date.now() + delay;
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = null;
        timerAt = Infinity;
        void tick();
      },
      Math.max(0, delay),
    );
    if (poll) timer.unref();
  }

  async function checkIdle(): Promise<void> {
    if (idleWaiters.length === 0 || inFlight.size > 0 || ticking) return;
    if (alive()) {
      try {
        if ((await nextDueAt(engine)) !== null) return;
      } catch {
        /* the store is gone: nothing more will be sent by this worker */
      }
      if (inFlight.size > 0 || ticking) return;
    }
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  /** One look at the outbox at a time; a wake during a look runs another after it. */
  async function tick(): Promise<void> {
    if (!alive()) return;
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = true;
    try {
      do {
        tickAgain = false;
        await look();
      } while (tickAgain && alive());
    } catch {
      // The state store failed (unreachable, closing): look again at the next poll.
      schedule_(Math.min(pollMs, 1_000));
    } finally {
      ticking = false;
    }
    await checkIdle();
  }

  async function look(): Promise<void> {
    // A read first: the claim is a write, which an idle worker must not take the store's lock for.
    let next = await nextDueAt(engine);
    const free = concurrency - inFlight.size;
    const now = clock();
    if (free > 0 && next !== null && next <= now) {
      for (const row of await claimDeliveries(engine, owner, now, now + leaseMs, free)) {
        // A row still in flight here was re-leased by this worker (its lease ran out mid-send).
        if (!inFlight.has(row.rowid) && alive()) attempt(row);
      }
      next = await nextDueAt(engine);
    }
    if (next !== null && inFlight.size < concurrency)
      schedule_(Math.min(pollMs, Math.max(next - clock(), 0) + 1));
    else schedule_(pollMs, next === null);
  }

  function attempt(row: DeliveryRow): void {
    const controller = new AbortController();
    const flight = { controller, done: Promise.resolve(), sent: false };
    flight.done = (async () => {
      const webhook = await webhookByRowid(engine, row.webhook_rowid);
      if (!webhook) return;
      const outcome = await sendToWebhook({
        webhook,
        msgId: row.delivery_id,
        payloadJson: row.payload,
        now: clock(),
        timeoutMs,
        allowPrivateTargets,
        resolver: options.resolver ?? settings.resolver,
        signal: controller.signal,
      });
      if (outcome.kind === 'aborted' || !alive()) return; // stays pending: resent after its lease is given back
      flight.sent = true;
      await record(row, outcome);
    })()
      .catch(() => {
        /* an outcome that cannot be recorded (store closed) leaves the row pending, resent after its lease */
      })
      .finally(() => {
        inFlight.delete(row.rowid);
        if (alive()) setImmediate(() => void tick());
        else void checkIdle();
      });
    inFlight.set(row.rowid, flight);
  }

  async function record(row: DeliveryRow, outcome: Exclude<PostOutcome, { kind: 'aborted' }>): Promise<void> {
    const now = clock();
    let code: number | null = null;
    let error: string;
    let retryable: boolean;
    let hint: number | null = null;
    switch (outcome.kind) {
      case 'response':
        code = outcome.status;
        if (code >= 200 && code < 300) {
          await markDelivered(engine, owner, row.rowid, code, now);
          return;
        }
        retryable = code >= 500 || code === 429 || code === 408;
        error = `http_${code}`;
        if (code === 429 || code === 503) hint = retryAfterMs(outcome.retryAfter, now);
        break;
      case 'timeout':
        retryable = true;
        error = 'timeout';
        break;
      case 'network':
        retryable = true;
        error = outcome.error;
        break;
      case 'blocked':
        retryable = false;
        error = `blocked_target: ${outcome.reason}`;
        break;
    }
    if (!retryable) {
      await markFailed(engine, owner, row.rowid, code, error, now);
      return;
    }
    const base = schedule[row.attempts];
    if (base === undefined) {
      await engine.state.transaction(async () => {
        // Only the lease holder's verdict disables the webhook.
        if (await markFailed(engine, owner, row.rowid, code, RETRIES_EXHAUSTED, now))
          await disableWebhook(engine, row.webhook_rowid, 'delivery_failures');
      });
      return;
    }
    const jittered = base / 2 + random() * (base / 2);
    const delay = Math.max(jittered, Math.min(hint ?? 0, MAX_RETRY_AFTER_MS));
    await markRetry(engine, owner, row.rowid, now + Math.round(delay), code, error, now);
  }

  const worker: DeliveryWorker = {
    wake() {
      schedule_(0);
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        if (alive()) schedule_(0);
        else void checkIdle();
      });
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      registerWaker(engine, null);
      // Give back the leases of requests cut short, so the next worker (here after a restart, or on
      // another node) resends them at once rather than when the lease ends. Issued before anything is
      // awaited: the embedded store runs them now, even when the engine closes right after. Rows whose
      // answer came keep their lease until their outcome is written.
      const released: Promise<unknown>[] = [];
      for (const [rowid, flight] of inFlight) {
        if (flight.sent) continue;
        flight.controller.abort();
        released.push(releaseLease(engine, owner, rowid).catch(() => {}));
      }
      await Promise.allSettled([...[...inFlight.values()].map((f) => f.done), ...released]);
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    },
    get stopped() {
      return stopped;
    },
  };
  registerWaker(engine, () => worker.wake());
  schedule_(0);
  return worker;
}
