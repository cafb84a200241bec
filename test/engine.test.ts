/**
 * The engine as a library user meets it: accounts, handle(), ingestEvents(), and background workers that
 * start on their own and stop with close().
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/engine.js';
import { jobWorkerOf } from '../src/jobs/worker.js';
import { demoEngine } from './support/demo.js';
import { STATE_KINDS, stateFor } from './support/state.js';

let engine: Engine | undefined;
afterEach(() => {
  // The shared demo engine stays open for the next test that takes it (the job test closes it).
  if (engine !== demo) engine?.close();
  engine = undefined;
});

/**
 * One demo engine (default state, no rate limit) for the tests that only add to it: loading the demo
 * costs ~2 s of CPU. The event test ingests one event; the job test, last, closes it.
 */
let demo: Engine | undefined;
const sharedDemo = async (): Promise<Engine> =>
  (demo = demo && !demo.closed ? demo : await demoEngine({ rateLimit: false }));
afterAll(() => {
  if (demo && !demo.closed) demo.close();
});

function multipart(fields: Record<string, string>, csv: string) {
  const boundary = '----engine-test';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ids.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`,
  );
  return {
    body: Buffer.from(parts.join('') + `--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('engine', () => {
  it('names new rows from the injected id source, and from random hex by default', async () => {
    let n = 0;
    engine = openEngine({ newId: (prefix, bytes) => `${prefix}_${String(++n).padStart(bytes * 2, '0')}` });
    const { account_id } = await engine.accounts.create({ name: 'replay' });
    expect(account_id).toBe('acc_0000000000000001');
    expect((await engine.accounts.listKeys(account_id)).map((k) => k.key_id)).toEqual([
      'key_0000000000000002',
    ]);
    engine.close();
    engine = openEngine();
    const other = (await engine.accounts.create({ name: 'random' })).account_id;
    expect(other).toMatch(/^acc_[0-9a-f]{16}$/);
  });

  it.each(STATE_KINDS)(
    'creates a trial account whose key works on handle() and is charged per fetched record (%s state)',
    async (kind) => {
      engine = await demoEngine({
        rateLimit: false,
        state: await stateFor(kind),
        jobs: { worker: false },
        webhooks: { worker: false },
      });
      const { api_key, account_id } = await engine.accounts.create({ name: 'notebook' });
      const res = await engine.handle({
        method: 'POST',
        path: '/v2/prospects',
        headers: { API_KEY: api_key },
        body: { mode: 'preview', page_size: 3, filters: { country_code: { values: ['US'] } } },
      });
      expect(res.status).toBe(200);
      expect((res.body as { data: unknown[] }).data).toHaveLength(3);
      expect(await engine.accounts.balance(account_id)).toBe(97);
      const denied = await engine.handle({
        method: 'GET',
        path: '/v2/credits',
        headers: { api_key: 'pdb_nope' },
      });
      expect(denied.status).toBe(401);
    },
  );

  it('ingests events through the engine and serves them to events fetch', async () => {
    engine = await sharedDemo();
    const businessId = engine.db
      .prepare('SELECT business_id FROM businesses LIMIT 1')
      .pluck()
      .get() as string;
    const report = await engine.ingestEvents([
      {
        event_id: 'e'.repeat(32),
        event_name: 'new_product',
        event_time: '2026-10-30T09:00:00Z',
        business_id: businessId,
        data: { event_name: 'new_product', product_name: 'Widget' },
      },
    ]);
    expect(report).toMatchObject({ ingested: 1, duplicates: 0, rejected: [] });
    const { api_key } = await engine.accounts.create({ name: 'events' });
    const res = await engine.handle({
      method: 'POST',
      path: '/v1/businesses/events',
      headers: { api_key },
      body: { event_types: ['new_product'], business_ids: [businessId], timestamp_from: '2026-10-29' },
    });
    expect(res.status).toBe(200);
    expect(
      (res.body as { output_events: { event_id: string }[] }).output_events.map((e) => e.event_id),
    ).toContain('e'.repeat(32));
  });

  it('starts the job worker when a job is submitted and runs it to succeeded; close() stops it', async () => {
    engine = await sharedDemo();
    expect(jobWorkerOf(engine)).toBeUndefined();
    const { api_key } = await engine.accounts.create({ name: 'jobs', credits: 1000 });
    const ids = engine.db.prepare('SELECT business_id FROM businesses LIMIT 5').pluck().all() as string[];
    const form = multipart(
      { entity_type: 'business', name: 'five', description: 'five ids' },
      ids.join('\n'),
    );
    const uploaded = await engine.handle({
      method: 'POST',
      path: '/v2/async/entity-id-datasets/upload',
      headers: { api_key, ...form.headers },
      body: form.body,
    });
    expect(uploaded.status).toBe(200);
    const listId = (uploaded.body as { list_id: string }).list_id;
    const submitted = await engine.handle({
      method: 'POST',
      path: '/v2/businesses/firmographics/job',
      headers: { api_key },
      body: { list_id: listId },
    });
    expect(submitted.status).toBe(202);
    const worker = jobWorkerOf(engine);
    expect(worker).toBeDefined();
    await worker!.idle();
    const jobId = (submitted.body as { job_id: string }).job_id;
    const status = await engine.handle({
      method: 'GET',
      path: `/v2/jobs/status/${jobId}`,
      headers: { api_key },
    });
    expect(status.body).toMatchObject({ status: 'succeeded', credit_usage: { total_results: 5 } });
    engine.close();
    expect(worker!.stopped).toBe(true);
  });
});
