/**
 * The webhook delivery worker: reads due rows from the outbox, POSTs them (SSRF-guarded, signed with the
 * live service's `X-Signature` scheme and with Standard Webhooks headers) and records each outcome.
 *
 * At-least-once: a delivery keeps its `event_id` and `webhook-id` on every attempt; timeouts, network
 * errors, 5xx, 408 and 429 are retried on `retrySchedule` (each delay with equal jitter, `Retry-After`
 * honoured up to six hours); other answers are final. A delivery whose schedule runs out is `failed` and
 * disables its webhook; the webhook's other deliveries wait, and all of them resume when it is enabled
 * again. Nothing blocks the event loop: one timer, and requests in flight up to `concurrency`. A stopped
 * worker aborts its requests and leaves their rows pending, so the next worker (after a restart) resends.
 *
 * @example
 * const worker = startDeliveryWorker(engine, { retrySchedule: [50, 100, 200] });
 * …
 * await worker.stop();
 */
import type { Context } from '../runtime/context.js';
import {
  RETRIES_EXHAUSTED,
  dueDeliveries,
  markDelivered,
  markFailed,
  markRetry,
  nextDueAt,
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
  /** Longest sleep between two looks at the outbox, even when nothing is due; default 30 s. */
  pollMs?: number;
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

/** Starts a worker for `engine`; it first resumes every pending delivery left by an earlier process. */
export function startDeliveryWorker(engine: Context, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const settings = webhookSettings(engine);
  const schedule = options.retrySchedule ?? settings.retrySchedule;
  const allowPrivateTargets = options.allowPrivateTargets ?? settings.allowPrivateTargets;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const concurrency = options.concurrency ?? 8;
  const clock = options.clock ?? (() => engine.now());
  const random = options.random ?? Math.random;
  const pollMs = options.pollMs ?? 30_000;

  const inFlight = new Map<number, { controller: AbortController; done: Promise<void> }>();
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  let stopped = false;
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
        tick();
      },
      Math.max(0, delay),
    );
    if (poll) timer.unref();
  }

  function checkIdle(): void {
    if (idleWaiters.length === 0) return;
    if (inFlight.size > 0) return;
    if (alive() && nextDueAt(engine) !== null) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  function tick(): void {
    if (!alive()) return;
    const now = clock();
    const free = concurrency - inFlight.size;
    if (free > 0) {
      for (const row of dueDeliveries(engine, now, free + inFlight.size)) {
        if (inFlight.size >= concurrency) break;
        if (!inFlight.has(row.rowid)) attempt(row);
      }
    }
    const next = nextDueAt(engine);
    if (next !== null && inFlight.size < concurrency)
      schedule_(Math.min(pollMs, Math.max(next - clock(), 0) + 1));
    else schedule_(pollMs, next === null);
    checkIdle();
  }

  function attempt(row: DeliveryRow): void {
    const webhook = webhookByRowid(engine, row.webhook_rowid);
    if (!webhook) return;
    const controller = new AbortController();
    const done = sendToWebhook({
      webhook,
      msgId: row.delivery_id,
      payloadJson: row.payload,
      now: clock(),
      timeoutMs,
      allowPrivateTargets,
      resolver: options.resolver ?? settings.resolver,
      signal: controller.signal,
    })
      .then((outcome) => {
        if (outcome.kind === 'aborted' || !alive()) return; // stays pending: resent after a restart
        record(row, outcome);
      })
      .catch(() => {
        /* an outcome that cannot be recorded (engine closed) leaves the row pending */
      })
      .finally(() => {
        inFlight.delete(row.rowid);
        if (alive()) setImmediate(tick);
        else checkIdle();
      });
    inFlight.set(row.rowid, { controller, done });
  }

  function record(row: DeliveryRow, outcome: Exclude<PostOutcome, { kind: 'aborted' }>): void {
    const now = clock();
    let code: number | null = null;
    let error: string;
    let retryable: boolean;
    let hint: number | null = null;
    switch (outcome.kind) {
      case 'response':
        code = outcome.status;
        if (code >= 200 && code < 300) {
          markDelivered(engine, row.rowid, code, now);
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
      markFailed(engine, row.rowid, code, error, now);
      return;
    }
    const base = schedule[row.attempts];
    if (base === undefined) {
      engine.db
        .transaction(() => {
          markFailed(engine, row.rowid, code, RETRIES_EXHAUSTED, now);
          disableWebhook(engine, row.webhook_rowid, 'delivery_failures');
        })
        .immediate();
      return;
    }
    const jittered = base / 2 + random() * (base / 2);
    const delay = Math.max(jittered, Math.min(hint ?? 0, MAX_RETRY_AFTER_MS));
    markRetry(engine, row.rowid, now + Math.round(delay), code, error, now);
  }

  const worker: DeliveryWorker = {
    wake() {
      schedule_(0);
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        if (alive()) schedule_(0);
        else checkIdle();
      });
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      registerWaker(engine, null);
      for (const { controller } of inFlight.values()) controller.abort();
      await Promise.allSettled([...inFlight.values()].map((f) => f.done));
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
