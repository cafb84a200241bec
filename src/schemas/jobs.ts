/**
 * Async job requests (docs/spec/api-reference.md §12.2–12.3): submit bodies (`list_id`, `parameters`,
 * `notifications`) and the list query. The `parameters` schema is the enrichment's own (research:
 * `GenAIResearchParams`).
 */
import { z } from 'zod';
import { anyCase, Bool, FreeObject, LIMITS, list } from './bounds.js';
import { JOB_STATUSES, type EntityType } from './enums.js';
import { CONTACT_TYPES, WATERFALL_MODES } from './enrich.js';

export const JobStatus = anyCase(JOB_STATUSES);
export type JobStatus = z.output<typeof JobStatus>;

export const JobNotifications = z
  .strictObject({
    email: z
      .strictObject({
        enabled: Bool.default(false),
        on: list(anyCase(['success', 'failure']), 2).nullish(),
      })
      .nullish(),
  })
  .nullish();
export type JobNotifications = z.output<typeof JobNotifications>;

/** `AsyncContactsEnrichmentParams`: the waterfall defaults to `explorium_only` for jobs. */
export const AsyncContactsParams = z
  .strictObject({
    contact_types: list(anyCase(CONTACT_TYPES), 2, 1).nullish(),
    waterfall: anyCase(WATERFALL_MODES).default('explorium_only'),
  })
  .nullish();

/** A submit body with the given `parameters` schema. */
export const jobSubmitBody = (params: z.ZodType) =>
  z.strictObject({
    request_context: FreeObject.nullish(),
    list_id: z.string().min(1).max(LIMITS.id),
    parameters: params,
    notifications: JobNotifications,
  });

export const JobsListQuery = z.strictObject({
  status: JobStatus.optional(),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type JobsListQuery = z.output<typeof JobsListQuery>;

/** A row of the `jobs` table, as the account layer and the worker read it. */
export interface JobRow {
  seq: number;
  job_id: string;
  account_id: string;
  entity_type: EntityType;
  /** v2 enrichment name, or `research`. */
  enrichment: string;
  endpoint: string;
  list_id: string;
  row_count: number;
  parameters: string | null;
  notifications: string | null;
  status: JobStatus;
  cursor: number;
  total_credits: number;
  total_results: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  results_token: string | null;
  results_expires_at: number | null;
  error: string | null;
  notified: number;
  /** The engine instance running the job (`ctx.instance`), and until when (wall-clock ms). */
  lease_owner: string | null;
  lease_until: number | null;
}
