/**
 * The engine's options as typed settings, resolved once when the engine opens. Every layer reads its
 * part here (`ctx.settings.jobs.baseUrl`, `ctx.settings.webhooks.retrySchedule`, …) instead of casting
 * `engine.options` to a shape of its own. The option types live here, at the bottom, so that the layers
 * that read them need not import the layers that define their behaviour; their owners re-export them.
 */
import type { JobRow } from '../schemas/jobs.js';
import type { ResearchProvider } from '../schemas/research.js';

/** Engine options the facade reads. */
export interface FacadeOptions {
  /** Per-key rate limit; default 200 requests per minute, `false` disables it. */
  rateLimit?: false | { perMinute?: number };
  /** Charging-menu overrides for every partner: operation → credits per unit. */
  creditMenu?: Record<string, number>;
  /** Correlation-id generator (tests inject a counter); default 32 random hex characters. */
  correlationId?: () => string;
  /** Deepest JSON nesting a body may have; default 64. */
  maxJsonDepth?: number;
  /**
   * Failed authentications allowed per client address per minute before its requests get 429; default
   * 20, `false` disables the limit. Applies to requests that carry `clientAddress` (the HTTP server's).
   */
  authFailureLimit?: false | { perMinute?: number };
}

export interface SmtpOptions {
  host: string;
  port: number;
  secure?: boolean;
  auth?: { user: string; pass: string };
  from: string;
  /** Recipient, or a function of the account id (undefined = no notice). */
  to: string | ((accountId: string) => string | undefined);
}

export interface JobWorkerOptions {
  /** Input rows per batch (one transaction each). Default 500. */
  batchSize?: number;
  /** How often an idle worker looks for new jobs, ms. Default 1000 (submits wake it at once). */
  pollMs?: number;
  /**
   * How long a worker holds a job without renewing it, ms (each batch renews it). A job whose process
   * died is resumed by another worker once its lease runs out. Default 30,000.
   */
  leaseMs?: number;
  smtp?: SmtpOptions;
  /** Research provider for research jobs (default: the engine's). */
  research?: ResearchProvider;
  /** Called after each committed batch (tests, progress logs); the next batch waits for its promise. */
  onBatch?: (job: JobRow) => void | Promise<void>;
  /**
   * Called when a job cannot run (unexpected error; the job is marked failed), or without a job when the
   * worker's poll failed (the state store unreachable for a moment; the next poll tries again).
   */
  onError?: (error: unknown, job?: JobRow) => void;
}

export interface WebhookSettings {
  /** Allow http and private, loopback, link-local and metadata targets (tests, local development). */
  allowPrivateTargets: boolean;
  /** Delays in ms between attempts; its length bounds the number of retries. */
  retrySchedule: readonly number[];
  /** DNS resolver for the SSRF guard (tests); default `dns.lookup`. */
  resolver?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  /**
   * How long a worker's claim on a delivery lasts, ms of the engine clock (default 60 s): a process
   * that dies mid-delivery leaves it to another process after this long.
   */
  leaseMs: number;
}

/** About a day in total: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [
  10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000,
];

/** The options the settings are resolved from (`EngineOptions` adds the file path and the clock). */
export interface SettingsOptions extends FacadeOptions {
  readonly?: boolean;
  /** Id source of new rows (`(prefix, bytes) => id`); default `prefix_` + random hex. Tests inject a counter. */
  newId?: (prefix: string, bytes: number) => string;
  /**
   * Async jobs: the in-process worker (`worker: false` to never start it), batch size, SMTP notices,
   * and `baseUrl` to make result download URLs absolute.
   */
  jobs?: JobWorkerOptions & { worker?: boolean; baseUrl?: string };
  /** Research provider; the default answers offline from the loaded records. */
  research?: { provider?: ResearchProvider };
  /**
   * Webhook delivery: `allowPrivateTargets` (http and private addresses, for tests and local use),
   * `retrySchedule` (ms between attempts, about a day by default), and `worker: false` to not run the
   * delivery worker in this process.
   */
  webhooks?: Partial<WebhookSettings> & { worker?: boolean };
}

export interface Settings {
  readonly readonly: boolean;
  /** The facade's options as given (defaults apply where they are read). */
  readonly facade: Readonly<FacadeOptions>;
  /** Charging-menu overrides for every partner (empty when none). */
  readonly creditMenu: Readonly<Record<string, number>>;
  /** Worker options as given, `worker` (false: never start it) and `baseUrl` ('' for relative URLs). */
  readonly jobs: Readonly<JobWorkerOptions> & { readonly worker: boolean; readonly baseUrl: string };
  /** The research provider given; undefined means the offline one. */
  readonly researchProvider: ResearchProvider | undefined;
  /** Webhook settings with their defaults, and whether this process runs the delivery worker. */
  readonly webhooks: Readonly<WebhookSettings> & { readonly worker: boolean };
}

/** Resolves the options once, when the engine opens. */
export function resolveSettings(options: SettingsOptions): Settings {
  const { worker: jobWorker, baseUrl, ...jobs } = options.jobs ?? {};
  const webhooks = options.webhooks ?? {};
  return {
    readonly: options.readonly ?? false,
    facade: {
      rateLimit: options.rateLimit,
      creditMenu: options.creditMenu,
      correlationId: options.correlationId,
      maxJsonDepth: options.maxJsonDepth,
      authFailureLimit: options.authFailureLimit,
    },
    creditMenu: options.creditMenu ?? {},
    jobs: { ...jobs, worker: jobWorker !== false, baseUrl: baseUrl ?? '' },
    researchProvider: options.research?.provider,
    webhooks: {
      allowPrivateTargets: webhooks.allowPrivateTargets ?? false,
      retrySchedule: webhooks.retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
      resolver: webhooks.resolver,
      leaseMs: webhooks.leaseMs ?? 60_000,
      worker: webhooks.worker !== false,
    },
  };
}
