/**
 * Every area's routes, each area a module imported on the first request to one of its routes (a
 * request to one area never loads another's schemas and handlers). To register an area, add ONE line
 * below, `<area>: () => import('./<area>.js'),` where `<area>.ts` exports `routes: Route[]` with full
 * paths (`/v1/...`, `/v2...`), then write the route table again (`table.generated.ts`:
 * `node --import tsx scripts/route-table.ts`; a test fails while it is stale). Spec routes that no area
 * registers answer 501 (see `../spec.ts`); paths outside the spec answer 404.
 */
import type { Route } from '../types.js';

export const AREAS = {
  operational: () => import('./operational.js'),
  match: () => import('./match.js'),
  search: () => import('./search.js'),
  credits: () => import('./credits.js'),
  enrich: () => import('./enrich.js'),
  jobs: () => import('./jobs.js'),
  research: () => import('./research.js'),
  uploads: () => import('./uploads.js'),
  events: () => import('./events.js'),
  enrollments: () => import('./enrollments.js'),
  webhooks: () => import('./webhooks.js'),
} satisfies Record<string, () => Promise<{ routes: Route[] }>>;

export type AreaName = keyof typeof AREAS;
