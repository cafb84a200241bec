/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../src/account/accounts.js';
import { cancelJob, readJob, type JobRow } from '../src/jobs/state.js';
import type { Engine } from '../src/engine.js';
import { buildRouter, handle } from '../src/facade/handle.js';
import { routes as jobRoutes } from '../src/facade/routes/jobs.js';
import { routes as uploadRoutes } from '../src/facade/routes/uploads.js';
import { parseCsv } from '../src/jobs/csv.js';
import { startJobWorker, type JobWorker } from '../src/jobs/worker.js';
import { claimJob, jobStatusBody } from '../src/jobs/state.js';
import { openState } from '../src/state/open.js';
import { openPostgresState } from '../src/state/postgres.js';
import { postgresDdl, splitStatements } from '../src/state/schema.js';
import { JOBS_SCHEMA } from '../src/store/sql/jobs.js';
import { account, NOW, prospectId, syntheticEngine, businessId } from './support/job-child.js';
import { openTestEngine, STATE_KINDS, stateFor, type StateKind } from './support/state.js';

const router = buildRouter([...jobRoutes, ...uploadRoutes]);
const N = 10_000;
/** Prospects with primary-source contacts (`explorium_only`): kinds 2, 3, 4 of every 5. */
const withContacts = (rows: number) =>
  Array.from({ length: rows }, (_, i) => i % 5 >= 2).filter(Boolean).length;

/** Short leases, so a job whose process was killed is taken over within a second. */
const LEASE_MS = 1500;

let dir: string;
/** One snapshot file for every engine of the file; each suite opens it with a state store of its own. */
let snapshot: string;
let states = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobs-'));
  snapshot = join(dir, 'snapshot.db');
  (await syntheticEngine(dir, { businesses: 50, prospects: N }, snapshot)).close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A new state store of `kind`: a SQLite file of its own, or a fresh PostgreSQL database. */
const newState = async (kind: StateKind) =>
  kind === 'postgres' ? (await stateFor(kind))! : join(dir, `state-${++states}.db`);

/** An engine over the shared snapshot file and the state store `state`; workers are started by the tests. */
const openOn = (kind: StateKind, state: string) =>
  openTestEngine(kind, { path: snapshot, state, clock: () => NOW, jobs: { worker: false } });

/** Polls the state until every job of `ids` has ended (a generous hang guard). */
async function allEnded(engine: Engine, ids: readonly string[]): Promise<JobRow[]> {
  for (let tries = 0; tries < 600; tries++) {
    const jobs = await Promise.all(ids.map(async (id) => (await readJob(engine, id))!));
    if (jobs.every((j) => !['queued', 'running'].includes(j.status))) return jobs;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('jobs did not end within 30 s');
}

describe.each(STATE_KINDS)('jobs (%s state)', (kind) => {
  let engine: Engine;
  let key: string;
  let accountId: string;
  let state: string;

  beforeAll(async () => {
    state = await newState(kind);
    engine = await openOn(kind, state);
    const a = await account(engine);
    key = a.api_key;
    accountId = a.account_id;
  });
  afterAll(() => {
    engine.close();
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
      const count = async () => Number(await engine.state.value('SELECT count(*) FROM entity_id_lists'));
      const before = await count();
      const res = await upload([prospectId(0), 'nope', businessId(1)]);
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: any) => d.loc)).toEqual([
        ['body', 'file', 3],
        ['body', 'file', 4],
      ]);
      expect(await count()).toBe(before);
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
        onBatch: async (job) => {
          if (job.job_id === jobId && job.cursor === 300) await cancelJob(engine, accountId, jobId);
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

  describe('stores made before leases', () => {
    it('gains the lease columns and gives their running job to the first worker that asks', async () => {
      const spec = await newState(kind);
      const old = JOBS_SCHEMA.replace(/,\s*lease_owner TEXT,\s*lease_until INTEGER/, '');
      expect(old).not.toMatch(/lease/);
      const raw = kind === 'postgres' ? openPostgresState(spec) : openState(spec, []);
      for (const st of splitStatements(kind === 'postgres' ? postgresDdl(old) : old)) await raw.run(st);
      await raw.run(
        `INSERT INTO jobs (job_id, account_id, entity_type, enrichment, endpoint, list_id, row_count, status, cursor, created_at, started_at)
         VALUES ('job_old', 'acc', 'prospect', 'profiles', '/v2/prospects/profiles/job', 'lst', 10, 'running', 4, ?, ?)`,
        [NOW, NOW],
      );
      await raw.close();
      const migrated = await openOn(kind, spec);
      try {
        const job = await claimJob(migrated, LEASE_MS);
        expect(job).toMatchObject({
          job_id: 'job_old',
          status: 'running',
          cursor: 4,
          lease_owner: migrated.instance,
        });
        expect(job!.lease_until).toBeGreaterThan(Date.now());
        // Held now: a second claim finds nothing.
        expect(await claimJob(migrated, LEASE_MS)).toBeUndefined();
      } finally {
        migrated.close();
      }
    });
  });

  describe('many workers, one state', () => {
    it('runs every job once across two engines with their workers on: each row once, credits exact', async () => {
      const other = await openOn(kind, state);
      const jobs = 6;
      const rows = 400;
      const before = await balance(engine, accountId);
      const ids: string[] = [];
      for (let j = 0; j < jobs; j++) {
        const list = (await upload(prospects(rows, j * rows))).body.list_id;
        ids.push(await submit(list, 'contact_information', {}, j % 2 === 0 ? engine : other));
      }
      const batches: string[] = [];
      const owners = new Set<string>();
      const record = (eng: Engine) => (job: JobRow) => {
        batches.push(`${job.job_id}@${job.cursor}`);
        owners.add(eng.instance);
      };
      const options = { batchSize: 50, pollMs: 20, leaseMs: LEASE_MS };
      const workers = [
        startJobWorker(engine, { ...options, onBatch: record(engine) }),
        startJobWorker(other, { ...options, onBatch: record(other) }),
      ];
      try {
        const done = await allEnded(engine, ids);
        expect(done.map((j) => j.status)).toEqual(ids.map(() => 'succeeded'));
        // Every batch committed once, by one engine or the other, and both took part.
        expect(batches).toHaveLength(jobs * (rows / 50));
        expect(new Set(batches).size).toBe(batches.length);
        expect(owners.size).toBe(2);
        for (const [j, job] of done.entries()) {
          const stored = await engine.state.all<{ row: number }>(
            'SELECT row FROM job_rows WHERE job_id = ? ORDER BY row',
            [job.job_id],
          );
          expect(stored.map((r) => r.row)).toEqual(Array.from({ length: rows }, (_, i) => i));
          expect(job.total_credits).toBe(withContacts(rows) * 5);
          const csv = (await csvOf(jobStatusBody(engine, job), other)).slice(1);
          expect(csv.map((r) => r[0])).toEqual(prospects(rows, j * rows));
        }
        expect(await balance(other, accountId)).toBe(before - jobs * withContacts(rows) * 5);
      } finally {
        for (const w of workers) await w.stop();
        other.close();
      }
    });

    it('finishes a job on another engine after its process is killed with SIGKILL: every row once, credits exact', async () => {
      const list = (await upload(prospects(N))).body.list_id;
      const before = await balance(engine, accountId);
      const jobId = await submit(list);
      const child = spawn(
        process.execPath,
        [
          fileURLToPath(new URL('./support/job-worker.mjs', import.meta.url)),
          snapshot,
          state,
          '250',
          '15',
          String(LEASE_MS),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let lastCursor = 0;
      let worker: JobWorker | undefined;
      const committed: number[] = [];
      try {
        await new Promise<void>((resolve, reject) => {
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            for (const m of chunk.matchAll(/cursor (\d+)/g)) lastCursor = Number(m[1]);
            // The child holds the job: this engine's worker starts now and waits for the lease.
            if (lastCursor > 0 && !worker)
              worker = startJobWorker(engine, {
                batchSize: 1000,
                pollMs: 20,
                leaseMs: LEASE_MS,
                onBatch: (job) => void committed.push(job.cursor),
              });
            if (lastCursor >= 2500 && child.exitCode === null) child.kill('SIGKILL');
          });
          child.on('exit', () => resolve());
          child.on('error', reject);
        });
        expect(child.signalCode).toBe('SIGKILL');
        // Until the dead child's lease ends, nothing moves on: this engine's worker has not committed.
        const mid = (await readJob(engine, jobId))!;
        expect(mid.status).toBe('running');
        expect(mid.cursor).toBeGreaterThanOrEqual(2500);
        expect(mid.cursor).toBeLessThan(N);
        const [status] = await allEnded(engine, [jobId]);
        expect(status!.status).toBe('succeeded');
        expect(committed[0]).toBe(Math.min(N, mid.cursor + 1000));
        expect(status!.lease_owner).toBeNull();
        const rows = (await csvOf(jobStatusBody(engine, status!))).slice(1);
        expect(rows).toHaveLength(N);
        expect(rows.map((r) => r[0])).toEqual(prospects(N));
        expect(status!.total_credits).toBe(withContacts(N) * 5);
        expect(await balance(engine, accountId)).toBe(before - withContacts(N) * 5);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await worker?.stop();
      }
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
});
