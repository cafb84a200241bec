/**
 * The connectivity check of a webhook (`POST /v2/webhooks/{id}/test`): simulated events signed like
 * real deliveries but sent outside the outbox, reported as a coarse result (never the receiver's body
 * or headers).
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '../runtime/context.js';
import { webhookSettings, type WebhookRow } from './registry.js';
import { sendToWebhook } from './send.js';

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
