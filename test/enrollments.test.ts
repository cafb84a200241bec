/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/account/accounts.js';
import type { Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { STATE_KINDS, type StateKind } from './support/state.js';
import { webhookEngine } from './support/webhooks.js';

describe.each(STATE_KINDS)('enrollments (%s state)', (kind: StateKind) => {
  let engine: Engine;
  let alice: string;
  let bob: string;
  const BIZ = (i: number) => i.toString(16).padStart(32, '0');
  const PRO = (i: number) => i.toString(16).padStart(40, '0');

  const call = (method: string, path: string, body?: unknown, key = alice) =>
    handle(engine, { method, path, headers: { api_key: key }, body }) as Promise<{
      status: number;
      body: any;
    }>;
  const strip = ({ response_context: _rc, ...rest }: any) => rest;

  beforeAll(async () => {
    engine = await webhookEngine(kind);
    alice = (await createAccount(engine, { name: 'alice', partner_id: 'alice-p' })).api_key;
    bob = (await createAccount(engine, { name: 'bob', partner_id: 'bob-p' })).api_key;
  });
  afterAll(() => engine.close());

  describe('v1 enrollments', () => {
    it('adds, lists, replaces and deletes a business enrollment', async () => {
      const add = await call('POST', '/v1/businesses/events/enrollments', {
        enrollment_key: 'acme-watch',
        event_types: ['new_office', 'executive_joined_company'],
        business_ids: [BIZ(1), BIZ(2)],
      });
      expect(add.status).toBe(200);
      const id = add.body.enrollment_id as string;
      expect(strip(add.body)).toEqual({ enrollment_key: 'acme-watch', enrollment_id: id });
      expect(id).toMatch(/^en_[0-9a-f]{16}$/);

      const list = await call('GET', '/v1/businesses/events/enrollments');
      expect(list.body.enrollments).toEqual([
        {
          enrollment_id: id,
          enrollment_key: 'acme-watch',
          event_types: ['new_office', 'employee_joined_company'],
          business_ids: [BIZ(1), BIZ(2)],
        },
      ]);
      const patch = await call('PATCH', '/v1/businesses/events/enrollments', {
        enrollment_id: id,
        enrollment_key: 'acme-watch-2',
        event_types: ['cost_cutting'],
        business_ids: [BIZ(3)],
      });
      expect(strip(patch.body)).toEqual({ enrollment_key: 'acme-watch-2', enrollment_id: id });
      expect(
        (await call('GET', '/v1/businesses/events/enrollments')).body.enrollments[0].business_ids,
      ).toEqual([BIZ(3)]);

      expect(
        (await call('GET', '/v1/businesses/events/enrollments', undefined, bob)).body.enrollments,
      ).toEqual([]);
      expect(
        (await call('DELETE', '/v1/businesses/events/enrollments', { enrollment_id: id }, bob)).status,
      ).toBe(404);
      expect(
        (
          await call(
            'PATCH',
            '/v1/businesses/events/enrollments',
            {
              enrollment_id: id,
              enrollment_key: 'take',
              event_types: ['cost_cutting'],
              business_ids: [BIZ(3)],
            },
            bob,
          )
        ).status,
      ).toBe(404);

      const del = await call('DELETE', '/v1/businesses/events/enrollments', { enrollment_id: id });
      expect(del.status).toBe(200);
      expect(del.body.status).toBe('success');
      expect((await call('DELETE', '/v1/businesses/events/enrollments', { enrollment_id: id })).status).toBe(
        404,
      );
    });

    it('keeps prospect enrollments apart from business enrollments', async () => {
      const add = await call('POST', '/v1/prospects/events/enrollments', {
        enrollment_key: 'people',
        event_types: ['prospect_changed_company'],
        prospect_ids: [PRO(1)],
      });
      expect(add.status).toBe(200);
      expect((await call('GET', '/v1/businesses/events/enrollments')).body.enrollments).toEqual([]);
      expect((await call('GET', '/v1/prospects/events/enrollments')).body.enrollments).toHaveLength(1);
      const del = await call('DELETE', '/v1/prospects/events/enrollments', {
        enrollment_id: add.body.enrollment_id,
      });
      expect(strip(del.body)).toEqual({ status: 'success' });
    });

    it('refuses 21 ids, short keys, wrong id kinds and wrong event types with 422', async () => {
      const ids21 = Array.from({ length: 21 }, (_, i) => BIZ(i));
      const bad: unknown[] = [
        { enrollment_key: 'abcd', event_types: ['new_office'], business_ids: ids21 },
        { enrollment_key: 'abc', event_types: ['new_office'], business_ids: [BIZ(1)] },
        { enrollment_key: 'abcd', event_types: ['new_office'], business_ids: [PRO(1)] },
        { enrollment_key: 'abcd', event_types: ['prospect_changed_role'], business_ids: [BIZ(1)] },
        { enrollment_key: 'abcd', event_types: [], business_ids: [BIZ(1)] },
        { enrollment_key: 'abcd', event_types: ['new_office'], business_ids: [BIZ(1), BIZ(1)] },
      ];
      for (const body of bad)
        expect((await call('POST', '/v1/businesses/events/enrollments', body)).status).toBe(422);
      const ok = await call('POST', '/v1/businesses/events/enrollments', {
        enrollment_key: 'abcd',
        event_types: ['new_office'],
        business_ids: ids21.slice(0, 20),
      });
      expect(ok.status).toBe(200);
      await call('DELETE', '/v1/businesses/events/enrollments', { enrollment_id: ok.body.enrollment_id });
    });
  });

  describe('v2 enrollments', () => {
    it('binds to one webhook of the same account, answers 201, and hides other tenants', async () => {
      const hook = await call('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/hook', name: 'main' });
      expect(hook.status).toBe(201);
      const bobHook = await call('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/bob' }, bob);

      const foreign = await call('POST', '/v2/businesses/events/enrollments', {
        enrollment_key: 'acme',
        event_types: ['executive_joined_company'],
        business_ids: [BIZ(1)],
        webhook_id: bobHook.body.webhook_id,
      });
      expect(foreign.status).toBe(404);
      const missing = await call('POST', '/v2/businesses/events/enrollments', {
        enrollment_key: 'acme',
        event_types: ['new_office'],
        business_ids: [BIZ(1)],
      });
      expect(missing.status).toBe(422);

      const created = await call('POST', '/v2/businesses/events/enrollments', {
        enrollment_key: 'acme',
        event_types: ['employee_joined_company'],
        business_ids: [BIZ(1)],
        webhook_id: hook.body.webhook_id,
      });
      expect(created.status).toBe(201);
      const id = created.body.enrollment_id;
      expect(strip(created.body)).toEqual({
        enrollment_id: id,
        enrollment_key: 'acme',
        event_types: ['executive_joined_company'],
        business_ids: [BIZ(1)],
        webhook_id: hook.body.webhook_id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const path = `/v2/businesses/events/enrollments/${id}`;
      expect((await call('GET', path)).body.enrollment_key).toBe('acme');
      expect((await call('GET', path, undefined, bob)).status).toBe(404);
      expect((await call('PATCH', path, { enrollment_key: 'stolen' }, bob)).status).toBe(404);
      expect((await call('DELETE', path, undefined, bob)).status).toBe(404);
      expect(
        (await call('GET', '/v2/businesses/events/enrollments', undefined, bob)).body.enrollments,
      ).toEqual([]);
      // A v1 call cannot reach a v2 enrollment either.
      expect((await call('DELETE', '/v1/businesses/events/enrollments', { enrollment_id: id })).status).toBe(
        404,
      );

      const patched = await call('PATCH', path, { business_ids: [BIZ(4), BIZ(5)] });
      expect(patched.body.business_ids).toEqual([BIZ(4), BIZ(5)]);
      expect(patched.body.enrollment_key).toBe('acme');
      expect((await call('PATCH', path, {})).status).toBe(422);
      expect(
        (await call('PATCH', path, { business_ids: Array.from({ length: 21 }, (_, i) => BIZ(i)) })).status,
      ).toBe(422);

      const listed = await call(
        'GET',
        `/v2/businesses/events/enrollments?webhook_id=${hook.body.webhook_id}`,
      );
      expect(listed.body.enrollments.map((e: any) => e.enrollment_id)).toEqual([id]);

      const del = await call('DELETE', path);
      expect(strip(del.body)).toEqual({ enrollment_id: id, status: 'success' });
      expect((await call('GET', path)).status).toBe(404);
      expect(
        (await call('PATCH', '/v2/businesses/events/enrollments/en_unknown', { enrollment_key: 'abcd' }))
          .status,
      ).toBe(404);
    });
  });
});
