/** Operational routes: health checks and the service version (docs/spec/interface.md "Operational"). */
import { createRequire } from 'node:module';
import { z } from 'zod';
import type { Route } from '../types.js';

/** The package version, served by `GET /version/`. */
export const VERSION: string = (
  createRequire(import.meta.url)('../../../package.json') as { version: string }
).version;

/** Path integers arrive as text; anything but an integer is "not a valid integer", as in FastAPI. */
const pathInt = z.string().transform((s, ctx) => {
  if (/^[+-]?\d{1,16}$/.test(s)) return Number(s);
  ctx.addIssue({
    code: 'custom',
    message: 'value is not a valid integer',
    params: { type: 'type_error.integer' },
  });
  return z.NEVER;
});

const PayloadParams = z.object({ response_bytes: pathInt.pipe(z.int().min(0).max(1_000_000)) });

export const routes: Route[] = [
  {
    method: 'GET',
    path: '/healthcheck/http',
    auth: 'none',
    handler: () => ({ body: 'OK', responseContext: false }),
  },
  {
    method: 'GET',
    path: '/healthcheck/http_payload/{response_bytes}',
    params: PayloadParams,
    handler: (ctx) => ({ body: 'x'.repeat(Number(ctx.params.response_bytes)), responseContext: false }),
  },
  {
    method: 'GET',
    path: '/version/',
    auth: 'none',
    handler: () => ({ body: VERSION, responseContext: false }),
  },
];
