import { describe, expect, it } from 'vitest';
import { openEngine } from '../src/engine.js';
import { ERROR_CODES, EngineError, type ErrorCode } from '../src/errors.js';
import { buildRouter, handle } from '../src/facade/handle.js';
import { errorBody, refusalOf, refusalResponse } from '../src/facade/stages/respond.js';
import type { Route } from '../src/facade/types.js';

/** An engine whose correlation ids count up, and a router with one route that throws `error`. */
function throwing(error: unknown) {
  let n = 0;
  const engine = openEngine({ correlationId: () => `cid${++n}`, webhooks: { worker: false } });
  const route: Route = {
    method: 'GET',
    path: '/boom',
    auth: 'none',
    handler() {
      throw error;
    },
  };
  return { engine, router: buildRouter([route]) };
}

describe('respond stage: every status body from the error table', () => {
  it('gives each code its table status, message and the {details, correlation_id} body', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      if (code === 'VALIDATION' || ERROR_CODES[code].status === 429) continue;
      const r = refusalResponse({ code }, 'c1');
      expect(r.status).toBe(ERROR_CODES[code].status);
      expect(r.body).toEqual({ details: ERROR_CODES[code].message, correlation_id: 'c1' });
      expect(r.headers['x-correlation-id']).toBe('c1');
    }
  });

  it('words both 429s the documented way, with the seconds to wait', () => {
    expect(refusalResponse({ code: 'AUTH_FAILURES_LIMITED', retryAfter: 7 }, 'c2').body).toEqual({
      error: 'rate_limit_exceeded',
      message: 'Too many failed authentications. Please retry after 7 seconds.',
      retry_after: 7,
      correlation_id: 'c2',
    });
    expect(refusalResponse({ code: 'RATE_LIMITED', retryAfter: 60 }, 'c3')).toMatchObject({
      status: 429,
      body: { message: 'API rate limit exceeded. Please retry after 60 seconds.', retry_after: 60 },
    });
  });

  it('adds the auth challenge to every 401 and the retry hint to every 503', () => {
    expect(refusalResponse({ code: 'API_KEY_MISSING' }, 'c').headers['www-authenticate']).toMatch(/api_key/);
    expect(refusalResponse({ code: 'UNAUTHORIZED' }, 'c').headers['www-authenticate']).toMatch(/api_key/);
    expect(refusalResponse({ code: 'SERVICE_BUSY' }, 'c').headers['retry-after']).toBe('1');
  });

  it('leaves the correlation id out of adapter bodies that never reached the facade', () => {
    expect(errorBody('PAYLOAD_TOO_LARGE', 'Request body larger than 10 bytes')).toEqual({
      details: 'Request body larger than 10 bytes',
    });
    expect(errorBody('INTERNAL')).toEqual({ details: 'An internal server error occurred' });
  });

  it('maps thrown errors: engine errors keep their code, zod issues are 422, busy SQLite is 503', () => {
    expect(refusalOf(new EngineError('CONFLICT', 'taken'), 'c')).toEqual({
      code: 'CONFLICT',
      message: 'taken',
    });
    const issues = [{ loc: ['body', 'x'], msg: 'bad', type: 'value_error' }];
    expect(refusalOf(EngineError.validation(issues), 'c')).toEqual({ code: 'VALIDATION', issues });
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(refusalOf(busy, 'c')).toEqual({ code: 'SERVICE_BUSY' });
  });
});

describe('the pipeline', () => {
  it('answers 503 with Retry-After when a handler meets a busy database', async () => {
    const { engine, router } = throwing(
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
    );
    const r = await handle(engine, { method: 'GET', path: '/boom' }, router);
    expect(r).toEqual({
      status: 503,
      headers: { 'content-type': 'application/json', 'x-correlation-id': 'cid1', 'retry-after': '1' },
      body: { details: 'The service is busy. Please retry.', correlation_id: 'cid1' },
    });
    engine.close();
  });

  it('answers 404 for a path that is not a path, and 405 with Allow for a wrong method', async () => {
    const { engine, router } = throwing(new Error('unused'));
    expect(await handle(engine, { method: 'GET', path: 'boom' }, router)).toMatchObject({
      status: 404,
      body: { details: 'Not found', correlation_id: 'cid1' },
    });
    expect(await handle(engine, { method: 'DELETE', path: '/boom' }, router)).toMatchObject({
      status: 405,
      headers: { allow: 'GET' },
      body: { details: 'Method DELETE not allowed on /boom', correlation_id: 'cid2' },
    });
    engine.close();
  });
});
