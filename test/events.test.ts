/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createAccount } from '../src/account/accounts.js';
import {
  fetchEvents,
  formatEventTime,
  ingestEvents,
  parseTimestamp,
  validateEvent,
  windowStart,
} from '../src/core/events.js';
import type { Account } from '../src/account/types.js';
import type { Engine } from '../src/engine.js';
import { handle } from '../src/facade/handle.js';
import { createEnrollment, createWebhook } from '../src/webhooks/index.js';
import { DEMO_DIR, DEMO_NOW, demoEngine } from './support/demo.js';
import { STATE_KINDS, stateFor, type StateKind } from './support/state.js';
import { snapshotFile } from './support/webhooks.js';

const BIZ = 'a'.repeat(32);

describe.each(STATE_KINDS)('events (%s state)', (kind: StateKind) => {
  let engine: Engine;
  let key: string;
  let accountId: string;
  const PROSPECT = 'b'.repeat(40);

  const post = (path: string, body: unknown, apiKey = key) =>
    handle(engine, { method: 'POST', path, headers: { api_key: apiKey }, body }) as Promise<{
      status: number;
      body: any;
    }>;

  beforeAll(async () => {
    engine =
      kind === 'sqlite'
        ? await demoEngine({ rateLimit: false, webhooks: { worker: false } })
        : await demoEngine({
            rateLimit: false,
            webhooks: { worker: false },
            path: snapshotFile(),
            state: await stateFor(kind),
          });
    const a = await createAccount(engine, { name: 'events', credits: 10_000 });
    key = a.api_key;
    accountId = a.account_id;
    const day = 86_400_000;
    const report = await ingestEvents(engine, [
      {
        event_id: 'fund-v1',
        event_name: 'new_funding_round',
        business_id: BIZ,
        event_time: new Date(DEMO_NOW - 2 * day).toISOString(),
        data: {
          event_name: 'new_funding_round',
          founding_stage: 'Series A',
          founding_date: '2026-10-30',
          amount_raised: 5e6,
        },
      },
      {
        event_id: 'fund-v2',
        event_name: 'new_funding_round',
        business_id: BIZ,
        event_time: new Date(DEMO_NOW - 1 * day).toISOString(),
        data: { funding_stage: 'Seed', funding_date: '2026-10-31' },
      },
      {
        event_id: 'exec',
        event_name: 'executive_joined_company',
        business_id: BIZ,
        event_time: new Date(DEMO_NOW - 3 * day).toISOString(),
        data: { event_name: 'executive_joined_company', full_name: 'Ada L', job_role_title: 'CTO' },
      },
      {
        event_id: 'old',
        event_name: 'new_office',
        business_id: BIZ,
        event_time: new Date(DEMO_NOW - 100 * day).toISOString(),
        data: {},
      },
      {
        event_id: 'future',
        event_name: 'new_office',
        business_id: BIZ,
        event_time: new Date(DEMO_NOW + day).toISOString(),
        data: {},
      },
      {
        event_id: 'role',
        event_name: 'prospect_changed_role',
        prospect_id: PROSPECT,
        business_id: BIZ,
        event_time: new Date(DEMO_NOW - day).toISOString(),
        data: { previous_job_title: 'VP', current_job_title: 'CEO' },
      },
    ]);
    expect(report).toEqual({ ingested: 6, duplicates: 0, rejected: [], deliveries: 0 });
  });
  afterAll(() => engine.close());

  describe('event ingest', () => {
    it('queues each delivery once: a repeated or interrupted ingest neither loses nor doubles one', async () => {
      const account: Account = {
        account_id: 'acc_queue',
        partner_id: 'partner_queue',
        name: 'queue',
        account_type: 'paid',
        entitlements: [],
      };
      const hook = await createWebhook(engine, account, { url: 'https://example.com/hook' });
      const watched = 'd'.repeat(32);
      for (const key of ['one', 'two'])
        await createEnrollment(engine, account, {
          version: 2,
          entityType: 'business',
          enrollmentKey: key,
          eventTypes: ['new_office'],
          ids: [watched],
          webhookId: hook.webhook_id,
        });
      const events = ['q1', 'q2'].map((event_id) => ({
        event_id,
        event_name: 'new_office',
        business_id: watched,
        event_time: new Date(DEMO_NOW - 86_400_000).toISOString(),
        data: {},
      }));
      const queued = () =>
        engine.state.all<{ event_id: string; enrollment_id: string }>(
          'SELECT event_id, enrollment_id FROM deliveries WHERE webhook_rowid = ? ORDER BY event_id, enrollment_id',
          [hook.rowid],
        );
      // Two events × two enrollments; the batch's own duplicate counts once.
      expect(await ingestEvents(engine, [...events, events[0]])).toMatchObject({
        ingested: 2,
        duplicates: 1,
        deliveries: 4,
      });
      const first = await queued();
      expect(first.map((d) => d.event_id)).toEqual(['q1', 'q1', 'q2', 'q2']);
      // Ingested again: known events, nothing queued.
      expect(await ingestEvents(engine, events)).toMatchObject({ ingested: 0, duplicates: 2, deliveries: 0 });
      // A crash after the deliveries were queued but before the events were stored: the events are
      // unknown to the snapshot, so the re-ingest stores them, and finds their deliveries queued.
      engine.db.prepare("DELETE FROM events WHERE event_id IN ('q1', 'q2')").run();
      expect(await ingestEvents(engine, events)).toMatchObject({ ingested: 2, duplicates: 0, deliveries: 0 });
      expect(await queued()).toEqual(first);
    });

    it('validates every demo event against its payload table', () => {
      const lines = gunzipSync(readFileSync(`${DEMO_DIR}/events.jsonl.gz`))
        .toString('utf8')
        .split('\n')
        .filter(Boolean);
      const failures = lines.map((l) => validateEvent(JSON.parse(l))).filter((c) => !c.ok);
      expect(failures).toEqual([]);
      expect(lines.length).toBe(3000);
    });

    it('rejects wrong payload types and mismatched names, keeps the valid records, skips known ids', async () => {
      const report = await ingestEvents(engine, [
        {
          event_id: 'bad1',
          event_name: 'new_office',
          business_id: BIZ,
          event_time: '2026-10-30T00:00:00Z',
          data: { number_of_employees: 'many' },
        },
        {
          event_id: 'bad2',
          event_name: 'new_office',
          business_id: BIZ,
          event_time: '2026-10-30T00:00:00Z',
          data: { event_name: 'closing_office' },
        },
        { event_id: 'bad3', event_name: 'not_a_type', business_id: BIZ, event_time: '2026-10-30T00:00:00Z' },
        {
          event_id: 'bad4',
          event_name: 'new_office',
          business_id: 'XYZ',
          event_time: '2026-10-30T00:00:00Z',
        },
        {
          event_id: 'fund-v1',
          event_name: 'new_office',
          business_id: BIZ,
          event_time: '2026-10-30T00:00:00Z',
        },
        {
          event_id: 'good',
          event_name: 'company_award',
          business_id: BIZ,
          event_time: '2026-10-29T00:00:00Z',
          data: { award_name: 'Best' },
        },
      ]);
      expect(report.ingested).toBe(1);
      expect(report.duplicates).toBe(1);
      expect(report.rejected.map((r) => [r.index, r.event_id])).toEqual([
        [0, 'bad1'],
        [1, 'bad2'],
        [2, 'bad3'],
        [3, 'bad4'],
      ]);
      expect(report.rejected[0]!.reason).toMatch(/data\.number_of_employees/);
    });

    it('stores nothing in strict mode when one record is invalid', async () => {
      const before = engine.info().counts.events;
      const report = await ingestEvents(
        engine,
        [
          { event_id: 's1', event_name: 'new_office', business_id: BIZ, event_time: '2026-10-30T00:00:00Z' },
          { event_id: 's2', event_name: 'nope', business_id: BIZ, event_time: '2026-10-30T00:00:00Z' },
        ],
        { strict: true },
      );
      expect(report.ingested).toBe(0);
      expect(engine.info().counts.events).toBe(before);
    });
  });

  describe('events fetch core', () => {
    it('serves the last three calendar months, newest first, never the future', () => {
      expect(new Date(windowStart(DEMO_NOW)).toISOString()).toBe('2026-08-01T12:00:00.000Z');
      const events = fetchEvents(engine, {
        version: 1,
        entityType: 'business',
        ids: [BIZ],
        eventTypes: ['new_office', 'new_funding_round', 'employee_joined_company'],
      });
      expect(events.map((e) => e.event_id)).toEqual(['fund-v2', 'fund-v1', 'exec']);
    });

    it('reads a bare timestamp_to date as the whole day and a datetime without offset as UTC', () => {
      expect(parseTimestamp('2026-10-31', true)).toBe(Date.parse('2026-10-31T23:59:59.999Z'));
      expect(parseTimestamp('2026-10-31T10:00:00', false)).toBe(Date.parse('2026-10-31T10:00:00Z'));
      expect(formatEventTime(Date.parse('2025-01-20T00:00:00Z'))).toBe('2025-01-20T00:00:00+00:00');
      const events = fetchEvents(engine, {
        version: 1,
        entityType: 'business',
        ids: [BIZ],
        eventTypes: ['new_funding_round'],
        from: '2026-10-30',
        to: '2026-10-30',
      });
      expect(events.map((e) => e.event_id)).toEqual(['fund-v1']);
    });
  });

  describe('POST /v1|v2/businesses/events', () => {
    it('answers v1 names to v1 callers and v2 names to v2 callers, whichever was ingested', async () => {
      const body = { event_types: ['new_funding_round', 'employee_joined_company'], business_ids: [BIZ] };
      const v1 = await post('/v1/businesses/events', body);
      expect(v1.status).toBe(200);
      expect(v1.body.output_events).toEqual([
        {
          event_name: 'new_funding_round',
          event_time: formatEventTime(DEMO_NOW - 86_400_000),
          event_id: 'fund-v2',
          data: { founding_stage: 'Seed', founding_date: '2026-10-31' },
          business_id: BIZ,
        },
        {
          event_name: 'new_funding_round',
          event_time: formatEventTime(DEMO_NOW - 2 * 86_400_000),
          event_id: 'fund-v1',
          data: {
            event_name: 'new_funding_round',
            founding_stage: 'Series A',
            founding_date: '2026-10-30',
            amount_raised: 5e6,
          },
          business_id: BIZ,
        },
        {
          event_name: 'employee_joined_company',
          event_time: formatEventTime(DEMO_NOW - 3 * 86_400_000),
          event_id: 'exec',
          data: { event_name: 'employee_joined_company', full_name: 'Ada L', job_role_title: 'CTO' },
          business_id: BIZ,
        },
      ]);
      const v2 = await post('/v2/businesses/events', {
        ...body,
        event_types: ['executive_joined_company', 'new_funding_round'],
      });
      expect(v2.status).toBe(200);
      expect(v2.body.output_events.map((e: any) => [e.event_name, e.data])).toEqual([
        ['new_funding_round', { funding_stage: 'Seed', funding_date: '2026-10-31' }],
        [
          'new_funding_round',
          {
            event_name: 'new_funding_round',
            funding_stage: 'Series A',
            funding_date: '2026-10-30',
            amount_raised: 5e6,
          },
        ],
        [
          'executive_joined_company',
          { event_name: 'executive_joined_company', full_name: 'Ada L', job_role_title: 'CTO' },
        ],
      ]);
    });

    it('charges one events unit per returned event and nothing for an empty list', async () => {
      const start = await balance(engine, accountId);
      const hit = await post('/v1/businesses/events', {
        event_types: ['new_funding_round'],
        business_ids: [BIZ],
      });
      expect(hit.body.output_events).toHaveLength(2);
      expect(await balance(engine, accountId)).toBe(start - 2);
      const empty = await post('/v1/businesses/events', {
        event_types: ['cost_cutting'],
        business_ids: [BIZ],
      });
      expect(empty.status).toBe(200);
      expect(empty.body.output_events).toEqual([]);
      expect(empty.body.response_context.request_status).toBe('miss');
      expect(await balance(engine, accountId)).toBe(start - 2);
    });

    it('serves demo events of the last three months for demo businesses', async () => {
      const rows = engine.db
        .prepare(
          `SELECT entity_id, event_name FROM events WHERE entity_type = 'business' AND event_id NOT IN ('old','future') LIMIT 40`,
        )
        .all() as { entity_id: string; event_name: string }[];
      const ids = [...new Set(rows.map((r) => r.entity_id))];
      const types = [...new Set(rows.map((r) => r.event_name))];
      const res = await post('/v1/businesses/events', {
        event_types: types,
        business_ids: ids,
        timestamp_from: '2026-08-01',
      });
      expect(res.status).toBe(200);
      const times = res.body.output_events.map((e: any) => Date.parse(e.event_time));
      expect(times.length).toBeGreaterThan(0);
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it('serves prospect events with prospect_id', async () => {
      const res = await post('/v1/prospects/events', {
        event_types: ['prospect_changed_role'],
        prospect_ids: [PROSPECT],
      });
      expect(res.body.output_events).toEqual([
        {
          event_name: 'prospect_changed_role',
          event_time: formatEventTime(DEMO_NOW - 86_400_000),
          event_id: 'role',
          data: { previous_job_title: 'VP', current_job_title: 'CEO' },
          prospect_id: PROSPECT,
        },
      ]);
    });

    it('refuses 41 ids, duplicates, no event types, bad timestamps and unknown types with 422', async () => {
      const ids = Array.from({ length: 41 }, (_, i) => i.toString(16).padStart(32, '0'));
      const cases: unknown[] = [
        { event_types: ['new_office'], business_ids: ids },
        { event_types: ['new_office'], business_ids: [BIZ, BIZ] },
        { event_types: [], business_ids: [BIZ] },
        { event_types: ['new_office'], business_ids: [] },
        { event_types: ['new_office'], business_ids: [BIZ], timestamp_from: 'yesterday' },
        { event_types: ['prospect_changed_role'], business_ids: [BIZ] },
        { event_types: ['new_office'], business_ids: [BIZ], extra: 1 },
      ];
      for (const body of cases) {
        const res = await post('/v1/businesses/events', body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
        expect(res.body.detail[0].loc[0]).toBe('body');
      }
      expect(
        (await post('/v1/businesses/events', { event_types: ['new_office'], business_ids: ids.slice(0, 40) }))
          .status,
      ).toBe(200);
    });
  });
});

describe('prospectdb events ingest', () => {
  it('stores the valid lines of a JSONL file, reports refused lines by number and exits 1', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { run } = await import('../src/cli/commands/events.js');
    const { openEngine } = await import('../src/engine.js');
    const dir = mkdtempSync(join(tmpdir(), 'events-cli-'));
    try {
      const db = join(dir, 'e.db');
      const file = join(dir, 'events.jsonl');
      const good = {
        event_id: 'c1',
        event_name: 'new_office',
        business_id: BIZ,
        event_time: '2026-10-01T00:00:00Z',
        data: {},
      };
      writeFileSync(
        file,
        [
          JSON.stringify(good),
          '{not json',
          JSON.stringify({ ...good, event_id: 'c2', event_name: 'x' }),
          '',
        ].join('\n'),
      );
      const log = console.log;
      const err = console.error;
      console.log = () => {};
      console.error = () => {};
      let strictCode: number;
      let code: number;
      try {
        strictCode = await run(['ingest', '--db', db, '--strict', file]);
        code = await run(['ingest', '--db', db, file]);
      } finally {
        console.log = log;
        console.error = err;
      }
      expect(strictCode).toBe(1);
      expect(code).toBe(1);
      const e = openEngine({ path: db });
      expect(e.db.prepare('SELECT event_id FROM events').pluck().all()).toEqual(['c1']);
      e.close();
      expect(await run(['nope'])).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
