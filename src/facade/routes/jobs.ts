/**
 * Async job routes (v2): `POST /v2/{businesses|prospects}/{enrichment}/job` (202), `GET /v2/jobs`,
 * `GET /v2/jobs/status/{job_id}`, `POST /v2/jobs/cancel/{job_id}`, and the CSV behind
 * `results.download_url` (`GET /v2/jobs/results/{job_id}?token=…`, no API key: the token is the key).
 */
import { ENRICHMENTS, type EnrichmentDef } from '../../core/enrich/table.js';
import { compileOutputSchema } from '../../core/research/schema.js';
import { EngineError } from '../../errors.js';
import {
  cancelJob,
  enqueueJob,
  getJob,
  jobListItem,
  jobResultsCsv,
  jobStatusBody,
  listJobs,
} from '../../jobs/index.js';
import {
  AsyncContactsParams,
  jobSubmitBody,
  JobsListQuery,
  type JobNotifications,
} from '../../schemas/jobs.js';
import { ResearchParams } from '../../schemas/research.js';
import type { EntityType } from '../../core/enrich/entities.js';
import type { z } from 'zod';
import type { Route, RouteContext } from '../types.js';

interface JobKind {
  entity: EntityType;
  name: string;
  params: z.ZodType;
  entitlement?: string;
}

const kinds: JobKind[] = [
  ...ENRICHMENTS.map((d: EnrichmentDef) => ({
    entity: d.entity,
    name: d.v2Name,
    params: d.name === 'contacts_information' ? AsyncContactsParams : d.params,
    entitlement: d.entitlement,
  })),
  { entity: 'business', name: 'research', params: ResearchParams },
  { entity: 'prospect', name: 'research', params: ResearchParams },
];

function submitRoute(kind: JobKind): Route {
  const plural = kind.entity === 'business' ? 'businesses' : 'prospects';
  const path = `/v2/${plural}/${kind.name}/job`;
  return {
    method: 'POST',
    path,
    entitlement: kind.entitlement,
    body: jobSubmitBody(kind.params),
    async handler(ctx: RouteContext<Record<string, unknown>>) {
      const job = await enqueueJob(ctx.engine, ctx.account!, {
        entity_type: kind.entity,
        enrichment: kind.name,
        endpoint: path,
        list_id: ctx.body.list_id as string,
        parameters: ctx.body.parameters,
        notifications: ctx.body.notifications as JobNotifications,
        checkParameters:
          kind.name === 'research'
            ? () =>
                compileOutputSchema(
                  (ctx.body.parameters as { output_schema: Record<string, unknown> }).output_schema,
                )
            : undefined,
      });
      return {
        status: 202,
        responseContext: false,
        body: { job_id: job.job_id, status: job.status, status_url: `/v2/jobs/status/${job.job_id}` },
      };
    },
  };
}

export const routes: Route[] = [
  ...kinds.map(submitRoute),
  {
    method: 'GET',
    path: '/v2/jobs',
    query: JobsListQuery,
    async handler(ctx: RouteContext<unknown, z.output<typeof JobsListQuery>>) {
      const page = await listJobs(ctx.engine, ctx.account!.account_id, ctx.query.status, ctx.query.skip);
      return { responseContext: false, body: { jobs: page.jobs.map(jobListItem), total: page.total } };
    },
  },
  {
    method: 'GET',
    path: '/v2/jobs/status/{job_id}',
    async handler(ctx) {
      const job = await getJob(ctx.engine, ctx.account!.account_id, ctx.params.job_id!);
      return { responseContext: false, body: jobStatusBody(ctx.engine, job) };
    },
  },
  {
    method: 'POST',
    path: '/v2/jobs/cancel/{job_id}',
    async handler(ctx) {
      const job = await cancelJob(ctx.engine, ctx.account!.account_id, ctx.params.job_id!);
      return { responseContext: false, body: jobStatusBody(ctx.engine, job) };
    },
  },
  {
    method: 'GET',
    path: '/v2/jobs/results/{job_id}',
    auth: 'none',
    async handler(ctx) {
      const token = ctx.query.token;
      if (typeof token !== 'string') throw new EngineError('NOT_FOUND', 'Results not found');
      const csv = await jobResultsCsv(ctx.engine, ctx.params.job_id!, token);
      return {
        responseContext: false,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${ctx.params.job_id}.csv"`,
        },
        body: csv,
      };
    },
  },
];
