/**
 * Event enrollments (monitoring), scoped to the caller's account: another account's enrollment answers
 * 404 exactly like an unknown id, so it is never visible. `{ids}` below is `business_ids` (32 hex) or
 * `prospect_ids` (40 hex); `event_types` takes business or prospect event types (both spellings of
 * `employee_joined_company` / `executive_joined_company`; answers use the caller's version's name).
 *
 * ## v1 (`/v1/{businesses|prospects}/events/enrollments`, as the live reference)
 * - `GET` → `{enrollments: [{enrollment_id, enrollment_key, event_types, {ids}}]}` (v1 enrollments only).
 * - `POST {enrollment_key (≥ 4 chars), event_types (≥ 1), {ids} (1–20 unique)}` → `{enrollment_key, enrollment_id}`.
 * - `PATCH {enrollment_id, enrollment_key, event_types, {ids}}` (full replacement) → `{enrollment_key, enrollment_id}`.
 * - `DELETE {enrollment_id}` → `{status: "success"}`.
 * Matching events go to the account's partner webhook (`POST /v1/webhooks`) as it is when the event is
 * ingested; with no partner webhook registered nothing is queued.
 *
 * ## v2 (`/v2/{businesses|prospects}/events/enrollments`, designed here)
 * An enrollment is bound to exactly one v2 webhook of the same account.
 * - `GET` (optional query `webhook_id`) → `{enrollments: [Enrollment]}`.
 * - `POST {enrollment_key, event_types, {ids} (1–20 unique), webhook_id}` → **201** `Enrollment`.
 *   Unknown or foreign `webhook_id` → 404.
 * - `GET /{enrollment_id}` → `Enrollment`.
 * - `PATCH /{enrollment_id} {enrollment_key?, event_types?, {ids}?, webhook_id?}` (at least one; given
 *   fields replace) → `Enrollment`.
 * - `DELETE /{enrollment_id}` → `{enrollment_id, status: "success"}`.
 * `Enrollment` = `{enrollment_id, enrollment_key, event_types, {ids}, webhook_id, created_at, updated_at}`.
 *
 * Deliveries already queued when an enrollment changes or is deleted are still sent (they describe
 * events that matched at the time); new events follow the new state.
 */
import {
  createEnrollment,
  deleteEnrollment,
  enrollmentView,
  getEnrollment,
  listEnrollments,
  updateEnrollment,
  webhookByRowid,
  type EnrollmentRow,
} from '../../webhooks/index.js';
import type { Context } from '../../runtime/context.js';
import type { EntityType } from '../../schemas/enums.js';
import {
  idsField,
  v1EnrollmentAdd,
  v1EnrollmentDelete,
  v1EnrollmentUpdate,
  v2EnrollmentCreate,
  v2EnrollmentPatch,
} from '../../schemas/events.js';
import type { Route, RouteContext } from '../types.js';
import { z } from 'zod';

type Body = Record<string, unknown> & {
  enrollment_key: string;
  event_types: string[];
  enrollment_id?: string;
};
type Ctx = RouteContext<Body>;

const plural = (entity: EntityType) => (entity === 'business' ? 'businesses' : 'prospects');

async function v2View(engine: Context, row: EnrollmentRow) {
  const webhookId =
    row.webhook_rowid === null
      ? null
      : ((await webhookByRowid(engine, row.webhook_rowid))?.webhook_id ?? null);
  return enrollmentView(row, 2, webhookId);
}

function v1Routes(entity: EntityType): Route[] {
  const path = `/v1/${plural(entity)}/events/enrollments`;
  const ids = idsField(entity);
  return [
    {
      method: 'GET',
      path,
      handler: async (ctx: Ctx) => ({
        body: {
          enrollments: (await listEnrollments(ctx.engine, ctx.account!, 1, entity)).map((r) =>
            enrollmentView(r, 1),
          ),
        },
      }),
    },
    {
      method: 'POST',
      path,
      body: v1EnrollmentAdd(entity),
      async handler(ctx: Ctx) {
        const row = await ctx.transaction(() =>
          createEnrollment(ctx.engine, ctx.account!, {
            version: 1,
            entityType: entity,
            enrollmentKey: ctx.body.enrollment_key,
            eventTypes: ctx.body.event_types,
            ids: ctx.body[ids] as string[],
          }),
        );
        return { body: { enrollment_key: row.enrollment_key, enrollment_id: row.enrollment_id } };
      },
    },
    {
      method: 'PATCH',
      path,
      body: v1EnrollmentUpdate(entity),
      async handler(ctx: Ctx) {
        const row = await ctx.transaction(() =>
          updateEnrollment(ctx.engine, ctx.account!, 1, entity, ctx.body.enrollment_id!, {
            enrollmentKey: ctx.body.enrollment_key,
            eventTypes: ctx.body.event_types,
            ids: ctx.body[ids] as string[],
          }),
        );
        return { body: { enrollment_key: row.enrollment_key, enrollment_id: row.enrollment_id } };
      },
    },
    {
      method: 'DELETE',
      path,
      body: v1EnrollmentDelete,
      async handler(ctx: RouteContext<{ enrollment_id: string }>) {
        await ctx.transaction(() =>
          deleteEnrollment(ctx.engine, ctx.account!, 1, entity, ctx.body.enrollment_id),
        );
        return { body: { status: 'success' } };
      },
    },
  ];
}

const EnrollmentParams = z.object({ enrollment_id: z.string().min(1).max(200) });
const ListQuery = z.object({ webhook_id: z.string().min(1).max(200).optional() });

function v2Routes(entity: EntityType): Route[] {
  const path = `/v2/${plural(entity)}/events/enrollments`;
  const ids = idsField(entity);
  return [
    {
      method: 'GET',
      path,
      query: ListQuery,
      async handler(ctx: RouteContext<unknown, z.output<typeof ListQuery>>) {
        const rows = await listEnrollments(ctx.engine, ctx.account!, 2, entity);
        const enrollments = (await Promise.all(rows.map((r) => v2View(ctx.engine, r)))).filter(
          (e) => !ctx.query.webhook_id || e.webhook_id === ctx.query.webhook_id,
        );
        return { body: { enrollments } };
      },
    },
    {
      method: 'POST',
      path,
      body: v2EnrollmentCreate(entity),
      async handler(ctx: Ctx) {
        const row = await ctx.transaction(() =>
          createEnrollment(ctx.engine, ctx.account!, {
            version: 2,
            entityType: entity,
            enrollmentKey: ctx.body.enrollment_key,
            eventTypes: ctx.body.event_types,
            ids: ctx.body[ids] as string[],
            webhookId: ctx.body.webhook_id as string,
          }),
        );
        return { status: 201, body: await v2View(ctx.engine, row) };
      },
    },
    {
      method: 'GET',
      path: `${path}/{enrollment_id}`,
      params: EnrollmentParams,
      handler: async (ctx: Ctx) => ({
        body: await v2View(
          ctx.engine,
          await getEnrollment(ctx.engine, ctx.account!, 2, entity, ctx.params.enrollment_id!),
        ),
      }),
    },
    {
      method: 'PATCH',
      path: `${path}/{enrollment_id}`,
      params: EnrollmentParams,
      body: v2EnrollmentPatch(entity),
      async handler(ctx: RouteContext<Partial<Body>>) {
        const row = await ctx.transaction(() =>
          updateEnrollment(ctx.engine, ctx.account!, 2, entity, ctx.params.enrollment_id!, {
            enrollmentKey: ctx.body.enrollment_key,
            eventTypes: ctx.body.event_types,
            ids: ctx.body[ids] as string[] | undefined,
            webhookId: ctx.body.webhook_id as string | undefined,
          }),
        );
        return { body: await v2View(ctx.engine, row) };
      },
    },
    {
      method: 'DELETE',
      path: `${path}/{enrollment_id}`,
      params: EnrollmentParams,
      async handler(ctx: Ctx) {
        const id = ctx.params.enrollment_id!;
        await ctx.transaction(() => deleteEnrollment(ctx.engine, ctx.account!, 2, entity, id));
        return { body: { enrollment_id: id, status: 'success' } };
      },
    },
  ];
}

export const routes: Route[] = [
  ...v1Routes('business'),
  ...v1Routes('prospect'),
  ...v2Routes('business'),
  ...v2Routes('prospect'),
];
