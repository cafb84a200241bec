/**
 * Every area's routes. To register an area, add ONE line:
 *   export { routes as <area> } from './<area>.js';
 * where `<area>.ts` exports `routes: Route[]` with full paths (`/v1/...`, `/v2/...`). Spec routes
 * that no area registers answer 501 (see `../spec.ts`); paths outside the spec answer 404.
 */
export { routes as operational } from './operational.js';
export { routes as match } from './match.js';
export { routes as search } from './search.js';
export { routes as credits } from './credits.js';
export { routes as enrich } from './enrich.js';
export { routes as jobs } from './jobs.js';
export { routes as research } from './research.js';
export { routes as uploads } from './uploads.js';
export { routes as events } from './events.js';
export { routes as enrollments } from './enrollments.js';
export { routes as webhooks } from './webhooks.js';
