/**
 * Events fetch: `POST /v1|v2/businesses/events` and `POST /v1|v2/prospects/events`.
 *
 * Body: `event_types` (≥ 1; `employee_joined_company` and `executive_joined_company` are both accepted),
 * `business_ids` / `prospect_ids` (1–40 unique ids), `timestamp_from` / `timestamp_to` (ISO datetime, UTC
 * when it has no offset, or `YYYY-MM-DD`; a bare `timestamp_to` date includes that day), optional
 * `entity_type` and `request_context`. Only the last three months before the engine clock are served
 * (an earlier `timestamp_from` is clamped). Answer: `output_events`, newest first, with names that follow
 * the caller's version (`funding_stage`/`funding_date`/`executive_joined_company` in v2, `founding_*` /
 * `employee_joined_company` in v1); an empty list when nothing qualifies (`request_status: miss`).
 * Charged one `events` unit per returned event; nothing for an empty list.
 */
import { fetchEvents } from '../../core/events.js';
import type { EntityType } from '../../schemas/enums.js';
import { eventsFetchRequest, type EventsFetchRequest } from '../../schemas/events.js';
import type { ApiVersion, Route, RouteContext, RouteResult } from '../types.js';

function route(version: ApiVersion, entity: EntityType): Route<EventsFetchRequest> {
  return {
    method: 'POST',
    path: `/v${version}/${entity === 'business' ? 'businesses' : 'prospects'}/events`,
    body: eventsFetchRequest(entity),
    handler(ctx: RouteContext<EventsFetchRequest>): RouteResult {
      const output_events = fetchEvents(ctx.engine, { version, entityType: entity, ...ctx.body });
      ctx.charge('events', output_events.length);
      return { body: { output_events }, miss: output_events.length === 0 };
    },
  };
}

export const routes: Route[] = [
  route(1, 'business'),
  route(1, 'prospect'),
  route(2, 'business'),
  route(2, 'prospect'),
];
