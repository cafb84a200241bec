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
import { randomBytes } from 'node:crypto';
import type { Context } from '../runtime/context.js';
import {
  RETRIES_EXHAUSTED,
  dueDeliveries,
  markDelivered,
  markFailed,
  markRetry,
  nextDueAt,
  registerWaker,
  type DeliveryRow,
} from '../account/outbox.js';
import {
  disableWebhook,
  previousSecretAt,
  webhookByRowid,
  webhookSettings,
  type WebhookRow,
} from '../account/webhooks.js';
import { signatureHeaders } from './signature.js';
import { guardedPost, type PostOutcome, type Resolver } from './ssrf.js';

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

export interface ConnectivityResult {
  /** True when every simulated event got a 2xx. */
  reachable: boolean;
  /** Class of the last answer (`2xx` … `5xx`), null when none came. */
  status_class: string | null;
  /** Slowest attempt, in ms. */
  latency_ms: number;
  /** `timeout`, `network_error`, `dns_error`, `blocked_target`, `redirect_not_followed` or null. */
  error: string | null;
  events_sent: number;
  events_delivered: number;
}

export interface ConnectivityInput {
  /** Stored (v1) event name; default `new_office`. */
  eventName?: string | null;
  numberOfEvents?: number | null;
  eventTime?: string | null;
  /** Name of the event in the caller's version (`executive_joined_company` in v2). */
  outputName: (stored: string) => string;
}

const PROSPECT_SIMULATIONS = new Set([
  'prospect_changed_role',
  'prospect_changed_company',
  'prospect_job_start_anniversary',
]);

/**
 * Sends simulated events (signed like real deliveries, outside the outbox) and reports a coarse result:
 * never the receiver's body or headers.
 */
export async function checkConnectivity(
  engine: Context,
  webhook: WebhookRow,
  input: ConnectivityInput,
  options: { timeoutMs?: number } = {},
): Promise<ConnectivityResult> {
  const settings = webhookSettings(engine);
  const stored = input.eventName ?? 'new_office';
  const prospect = PROSPECT_SIMULATIONS.has(stored);
  const count = input.numberOfEvents ?? 1;
  const result: ConnectivityResult = {
    reachable: false,
    status_class: null,
    latency_ms: 0,
    error: null,
    events_sent: 0,
    events_delivered: 0,
  };
  for (let i = 0; i < count; i++) {
    const now = engine.now();
    const eventName = input.outputName(stored);
    const eventTime = input.eventTime ?? new Date(now).toISOString();
    const payload = {
      tenant_id: webhook.account_id,
      partner_id: webhook.partner_id,
      event_id: `sim_${randomBytes(12).toString('hex')}`,
      event_name: eventName,
      entity_id: randomBytes(prospect ? 20 : 16).toString('hex'),
      entity_type: prospect ? 'prospect' : 'business',
      data: { event_name: eventName, event_time: eventTime, simulated: true },
      enrollment_key: 'connectivity_check',
    };
    const outcome = await sendToWebhook({
      webhook,
      msgId: `msg_${randomBytes(12).toString('hex')}`,
      payloadJson: JSON.stringify(payload),
      now,
      timeoutMs: options.timeoutMs ?? 5_000,
      allowPrivateTargets: settings.allowPrivateTargets,
      resolver: settings.resolver,
    });
    result.events_sent++;
    result.latency_ms = Math.max(result.latency_ms, outcome.latencyMs);
    if (outcome.kind === 'response') {
      result.status_class = `${Math.floor(outcome.status / 100)}xx`;
      if (outcome.status >= 200 && outcome.status < 300) result.events_delivered++;
      else if (outcome.status >= 300 && outcome.status < 400) result.error = 'redirect_not_followed';
    } else {
      result.error =
        outcome.kind === 'blocked'
          ? 'blocked_target'
          : outcome.kind === 'network' && outcome.error === 'dns_error'
            ? 'dns_error'
            : outcome.kind === 'timeout'
              ? 'timeout'
              : 'network_error';
      break; // an unreachable target will not answer the next events either
    }
  }
  result.reachable = result.events_delivered === count;
  return result;
}
