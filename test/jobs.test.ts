/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../src/account/accounts.js';
import { cancelJob, readJob } from '../src/jobs/state.js';
import { openEngine, type Engine } from '../src/engine.js';
import { buildRouter, handle } from '../src/facade/handle.js';
import { routes as jobRoutes } from '../src/facade/routes/jobs.js';
import { routes as uploadRoutes } from '../src/facade/routes/uploads.js';
import { parseCsv } from '../src/jobs/csv.js';
import { startJobWorker, type JobWorker } from '../src/jobs/worker.js';
import { account, NOW, prospectId, syntheticEngine, businessId } from './support/job-child.js';

const router = buildRouter([...jobRoutes, ...uploadRoutes]);
const N = 10_000;
/** Prospects with primary-source contacts (`explorium_only`): kinds 2, 3, 4 of every 5. */
const withContacts = (rows: number) =>
  Array.from({ length: rows }, (_, i) => i % 5 >= 2).filter(Boolean).length;

let dir: string;
let engine: Engine;
let key: string;
let accountId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobs-'));
  engine = await syntheticEngine(dir, { businesses: 50, prospects: N }, join(dir, 'engine.db'));
  const a = await account(engine);
  key = a.api_key;
  accountId = a.account_id;
});
afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  eng = engine,
) =>
  (await handle(eng, { method, path, headers: { api_key: key, ...headers }, body }, router)) as {
    status: number;
    headers: Record<string, string>;
    body: any;
  };

function multipart(fields: Record<string, string>, file?: string) {
  const boundary = '----prospectdb-test';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  if (file !== undefined) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ids.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n`,
    );
  }
  return {
    body: Buffer.from(parts.join('') + `--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(ids: string[], entity_type = 'prospect', header = true, eng = engine) {
  const m = multipart(
    { entity_type, name: 'list', description: 'test list' },
    (header ? `${entity_type}_id\n` : '') + ids.join('\n'),
  );
  return call('POST', '/v2/async/entity-id-datasets/upload', m.body, m.headers, eng);
}

const prospects = (n: number, from = 0) => Array.from({ length: n }, (_, i) => prospectId(from + i));

async function submit(
  listId: string,
  name = 'contact_information',
  extra: Record<string, unknown> = {},
  eng = engine,
) {
  const res = await call('POST', `/v2/prospects/${name}/job`, { list_id: listId, ...extra }, {}, eng);
  expect(res.status).toBe(202);
  return res.body.job_id as string;
}

const csvOf = async (status: any, eng = engine) => {
  const url = new URL(status.results.download_url, 'http://x');
  const res = await handle(eng, { method: 'GET', path: url.pathname + url.search }, router);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  return parseCsv(res.body as string);
};

describe('entity-id uploads', () => {
  it('stores a CSV with or without a header and answers in camelCase', async () => {
    const withHeader = await upload(prospects(3));
    expect(withHeader.status).toBe(200);
    expect(withHeader.body).toEqual({
      list_id: expect.stringMatching(/^lst_/),
      name: 'list',
      description: 'test list',
      rowCount: 3,
      entityType: 'prospect',
      tenantId: expect.any(String),
      expiresAt: new Date(NOW + 7 * 86400_000).toISOString(),
    });
    expect((await upload(prospects(2), 'prospect', false)).body.rowCount).toBe(2);
  });

  it('reports bad rows with their line numbers and stores nothing', async () => {
    const count = () => engine.db.prepare('SELECT count(*) FROM entity_id_lists').pluck().get() as number;
    const before = count();
    const res = await upload([prospectId(0), 'nope', businessId(1)]);
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => d.loc)).toEqual([
      ['body', 'file', 3],
      ['body', 'file', 4],
    ]);
    expect(count()).toBe(before);
  });

  it('refuses more than 10,000 rows, a missing field and a bad entity_type', async () => {
    expect((await upload(prospects(N + 1))).status).toBe(422);
    const m = multipart({ entity_type: 'company', name: 'x' }, prospectId(0));
    const res = await call('POST', '/v2/async/entity-id-datasets/upload', m.body, m.headers);
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => d.loc)).toEqual([
      ['body', 'description'],
      ['body', 'entity_type'],
    ]);
  });

  it('refuses a job over another entity type list or an unknown list', async () => {
    const list = (await upload([businessId(0)], 'business')).body.list_id;
    expect((await call('POST', '/v2/prospects/profiles/job', { list_id: list })).status).toBe(422);
    expect((await call('POST', '/v2/prospects/profiles/job', { list_id: 'lst_nope' })).status).toBe(422);
    expect((await call('GET', '/v2/jobs/status/job_nope')).status).toBe(404);
  });
});

describe('async jobs', () => {
  let worker: JobWorker | undefined;
  afterAll(async () => {
    await worker?.stop();
  });

  it('runs a 10,000-id job to succeeded with a CSV of 10,000 rows and exact credits', async () => {
    const list = (await upload(prospects(N))).body.list_id;
    const before = await balance(engine, accountId);
    const jobId = await submit(list);
    const queued = await call('GET', `/v2/jobs/status/${jobId}`);
    expect(queued.body).toMatchObject({
      job_id: jobId,
      status: 'queued',
      input: { list_id: list, row_count: N, entity_type: 'prospect' },
    });
    worker = startJobWorker(engine, { batchSize: 1000, pollMs: 20 });
    await worker.idle();
    const done = (await call('GET', `/v2/jobs/status/${jobId}`)).body;
    const billed = withContacts(N);
    expect(done).toMatchObject({
      status: 'succeeded',
      credit_usage: { total_credits: billed * 5, total_results: billed },
    });
    expect(await balance(engine, accountId)).toBe(before - billed * 5);
    const rows = await csvOf(done);
    expect(rows[0]!.slice(0, 2)).toEqual(['prospect_id', 'result_status']);
    expect(rows).toHaveLength(N + 1);
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(N);
    expect(rows.slice(1).filter((r) => r[1] === 'ok')).toHaveLength(billed);
    await worker.stop();
    worker = undefined;
  });

  it('keeps the rows so far charged when cancelled while running, and nothing after', async () => {
    const list = (await upload(prospects(2000))).body.list_id;
    const before = await balance(engine, accountId);
    const jobId = await submit(list, 'contact_information', { parameters: { contact_types: ['email'] } });
    worker = startJobWorker(engine, {
      batchSize: 100,
      pollMs: 20,
      onBatch: (job) => {
        if (job.job_id === jobId && job.cursor === 300) cancelJob(engine, accountId, jobId);
      },
    });
    await worker.idle();
    await worker.stop();
    worker = undefined;
    const status = (await call('GET', `/v2/jobs/status/${jobId}`)).body;
    expect(status).toMatchObject({ status: 'cancelled', additional_data: { processed_rows: 300 } });
    expect(status.credit_usage.total_credits).toBe(withContacts(300) * 2);
    expect(await balance(engine, accountId)).toBe(before - withContacts(300) * 2);
    expect(await csvOf(status)).toHaveLength(301);
    const cancelAgain = await call('POST', `/v2/jobs/cancel/${jobId}`);
    expect(cancelAgain.body.status).toBe('cancelled');
  });

  it('lists jobs newest first with a status filter and skip', async () => {
    const all = (await call('GET', '/v2/jobs')).body;
    expect(all.total).toBe(2);
    expect(all.jobs.map((j: any) => j.status)).toEqual(['cancelled', 'succeeded']);
    expect(all.jobs[0]).toMatchObject({
      job_type: 'contact_information',
      endpoint: '/v2/prospects/contact_information/job',
    });
    expect((await call('GET', '/v2/jobs?status=succeeded')).body.total).toBe(1);
    expect((await call('GET', '/v2/jobs?skip=1')).body.jobs).toHaveLength(1);
    expect((await call('GET', '/v2/jobs?status=bogus')).status).toBe(422);
  });

  it('fails a job when credits run out, keeping the batches paid for', async () => {
    const poor = await account(engine, 12);
    const list = await upload(prospects(20), 'prospect', true);
    // Lists belong to the uploading account: upload again with the poor account's key.
    const m = multipart({ entity_type: 'prospect', name: 'p', description: 'p' }, prospects(20).join('\n'));
    const own = await handle(
      engine,
      {
        method: 'POST',
        path: '/v2/async/entity-id-datasets/upload',
        headers: { api_key: poor.api_key, ...m.headers },
        body: m.body,
      },
      router,
    );
    expect(list.status).toBe(200);
    const sub = await handle(
      engine,
      {
        method: 'POST',
        path: '/v2/prospects/profiles/job',
        headers: { api_key: poor.api_key },
        body: { list_id: (own.body as any).list_id },
      },
      router,
    );
    worker = startJobWorker(engine, { batchSize: 5, pollMs: 20 });
    await worker.idle();
    await worker.stop();
    worker = undefined;
    const status = (
      await handle(
        engine,
        {
          method: 'GET',
          path: `/v2/jobs/status/${(sub.body as any).job_id}`,
          headers: { api_key: poor.api_key },
        },
        router,
      )
    ).body as any;
    expect(status).toMatchObject({
      status: 'failed',
      error: { code: 'insufficient_credits' },
      credit_usage: { total_credits: 10 },
    });
    expect(await balance(engine, poor.account_id)).toBe(2);
  });
});

describe('crash recovery', () => {
  it('finishes a job after the worker process is killed with SIGKILL: every row once, credits exact', async () => {
    const path = join(dir, 'engine.db');
    const list = (await upload(prospects(N))).body.list_id;
    const before = await balance(engine, accountId);
    const jobId = await submit(list);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./support/job-child.ts', import.meta.url)),
        path,
        '250',
        '15',
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let lastCursor = 0;
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        for (const m of chunk.matchAll(/cursor (\d+)/g)) lastCursor = Number(m[1]);
        if (lastCursor >= 2500 && child.exitCode === null) child.kill('SIGKILL');
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    expect(child.signalCode).toBe('SIGKILL');
    const mid = readJob(engine, jobId)!;
    expect(mid.status).toBe('running');
    expect(mid.cursor).toBeGreaterThanOrEqual(2500);
    expect(mid.cursor).toBeLessThan(N);
    // Reopen (a new engine over the same file) and let its worker finish the job.
    const reopened = openEngine({ path, clock: () => NOW, jobs: { worker: false } });
    const worker = startJobWorker(reopened, { batchSize: 1000, pollMs: 20 });
    await worker.idle();
    await worker.stop();
    const status = (await call('GET', `/v2/jobs/status/${jobId}`, undefined, {}, reopened)).body;
    expect(status.status).toBe('succeeded');
    const rows = (await csvOf(status, reopened)).slice(1);
    expect(rows).toHaveLength(N);
    expect(rows.map((r) => r[0])).toEqual(prospects(N));
    expect(status.credit_usage.total_credits).toBe(withContacts(N) * 5);
    expect(await balance(reopened, accountId)).toBe(before - withContacts(N) * 5);
    reopened.close();
  });
});

describe('e-mail notices', () => {
  it('mails the outcome through SMTP when the job asked for it', async () => {
    const mails: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, cb) {
        let text = '';
        stream.on('data', (c: Buffer) => (text += c.toString()));
        stream.on('end', () => {
          mails.push(text);
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.server.address() as { port: number }).port;
    try {
      const list = (await upload(prospects(10))).body.list_id;
      const yes = await submit(list, 'profiles', {
        notifications: { email: { enabled: true, on: ['success'] } },
      });
      await submit(list, 'profiles', { notifications: { email: { enabled: true, on: ['failure'] } } });
      const worker = startJobWorker(engine, {
        pollMs: 20,
        smtp: { host: '127.0.0.1', port, from: 'jobs@prospectdb.test', to: 'owner@example.test' },
      });
      await worker.idle();
      await worker.idle();
      await worker.stop();
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain(`Subject: [prospectdb] job ${yes} succeeded`);
      expect(mails[0]).toContain('To: owner@example.test');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
