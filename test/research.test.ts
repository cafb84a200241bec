/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted by value */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../src/account/accounts.js';
import { chatCompletionsProvider } from '../src/core/research/chat.js';
import { answerOffline } from '../src/core/research/offline.js';
import { renderPrompt, runResearch } from '../src/core/research/research.js';
import { compileOutputSchema } from '../src/core/research/schema.js';
import type { Engine } from '../src/engine.js';
import { buildRouter, handle } from '../src/facade/handle.js';
import { routes } from '../src/facade/routes/research.js';
import { routes as jobRoutes } from '../src/facade/routes/jobs.js';
import { routes as uploadRoutes } from '../src/facade/routes/uploads.js';
import { startJobWorker } from '../src/jobs/worker.js';
import { parseCsv } from '../src/jobs/csv.js';
import { account, businessId, prospectId, syntheticEngine } from './support/job-child.js';
import { startChatServer } from './support/chat-server.js';
import { OUTPUT_SCHEMA_LIMITS } from '../src/schemas/research.js';

const router = buildRouter([...routes, ...jobRoutes, ...uploadRoutes]);
let dir: string;
let engine: Engine;
let key: string;
let accountId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'research-'));
  engine = await syntheticEngine(dir, { businesses: 6, prospects: 10 });
  const a = await account(engine, 1000);
  key = a.api_key;
  accountId = a.account_id;
});
afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = async (path: string, body: unknown) =>
  (await handle(engine, { method: 'POST', path, headers: { api_key: key }, body }, router)) as {
    status: number;
    body: any;
  };

/** Nested objects, arrays, enums and required properties. */
const SCHEMA = {
  type: 'object',
  required: ['name', 'size', 'public', 'hq', 'technologies', 'investors_count'],
  properties: {
    name: { type: 'string', description: 'Company name' },
    size: {
      type: 'string',
      enum: ['1-10', '11-50', '51-200', '201-500'],
      description: 'number of employees range',
    },
    public: { type: 'boolean', description: 'is public company' },
    hq: {
      type: 'object',
      required: ['city_name', 'country_name'],
      properties: {
        city_name: { type: 'string' },
        country_name: { type: 'string' },
        zip_code: { type: 'string' },
      },
    },
    technologies: { type: 'array', items: { type: 'string' }, description: 'company tech stack' },
    investors_count: { type: 'integer', description: 'number of funding rounds' },
    segment: { type: 'string', description: 'customer segment from custom fields' },
    ceo_name: { type: 'string' },
  },
};

describe('offline research provider', () => {
  it('answers nested objects, arrays, enums and required properties from the record and custom fields', async () => {
    const res = await post('/v2/businesses/research/enrich', {
      parameters: { output_schema: SCHEMA, query: 'Profile {name} for our team' },
      businesses: [
        { business_id: businessId(0), custom_fields: { segment: 'enterprise' } },
        { business_id: businessId(1) },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.total_results).toBe(2);
    expect(res.body.generated_prompt).toBe('Profile Company 0 for our team');
    expect(res.body.data[0]).toEqual({
      business_id: businessId(0),
      data: {
        research_result: {
          name: 'Company 0',
          size: '51-200',
          public: true,
          hq: { city_name: 'austin', country_name: 'united states', zip_code: '78701' },
          technologies: ['react', 'postgresql'],
          investors_count: 3,
          segment: 'enterprise',
          ceo_name: null,
        },
        research_provider: 'offline',
        research_note: expect.stringContaining('offline'),
        unanswered: ['ceo_name'],
      },
    });
    expect(res.body.data[1].data.research_result.segment).toBeNull();
    const validate = compileOutputSchema(SCHEMA);
    for (const row of res.body.data) expect(validate(row.data.research_result)).toBe(true);
  });

  it('is deterministic and charges research per entity', async () => {
    const before = await balance(engine, accountId);
    const body = {
      parameters: { output_schema: SCHEMA, query: 'x' },
      businesses: { business_id: businessId(3) },
    };
    const a = await post('/v2/businesses/research/enrich', body);
    const b = await post('/v2/businesses/research/enrich', body);
    expect(a.body.data).toEqual(b.body.data);
    expect(before - (await balance(engine, accountId))).toBe(10);
  });

  it('answers prospects with their company columns', () => {
    const r = answerOffline({
      record: { full_name: 'Ada', job_title: 'CTO', company_name: 'Acme' },
      custom_fields: {},
      output_schema: {
        type: 'object',
        properties: {
          title: { type: 'string', description: 'current job title' },
          employer: { type: 'string', description: 'company name' },
        },
      },
    });
    expect(r.result).toEqual({ title: 'CTO', employer: 'Acme' });
  });

  it('answers 422 for an invalid output_schema or a missing query', async () => {
    const bad = await post('/v2/prospects/research/enrich', {
      parameters: { output_schema: { type: 'strnig' }, query: 'x' },
      prospects: [{ prospect_id: prospectId(0) }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'parameters', 'output_schema']);
    const noQuery = await post('/v2/prospects/research/enrich', {
      parameters: { output_schema: SCHEMA },
      prospects: [{ prospect_id: prospectId(0) }],
    });
    expect(noQuery.status).toBe(422);
  });

  it('fills prompt templates from custom fields, then the record', () => {
    expect(
      renderPrompt(
        { output_schema: {}, prompt_template: 'Hi {{first_name}} at {{company}} {missing}' },
        { first_name: 'Ada' },
        { company: 'Acme' },
      ),
    ).toBe('Hi Ada at Acme {missing}');
  });
});

describe('hostile output schemas', () => {
  const enrich = (output_schema: unknown, custom_fields?: Record<string, unknown>) =>
    post('/v2/businesses/research/enrich', {
      parameters: { output_schema, query: 'q' },
      businesses: [{ business_id: businessId(0), custom_fields }],
    });
  /** `n` string properties. */
  const wide = (n: number) => ({
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])),
  });

  it('runs a catastrophic pattern in linear time (hang guard: a child process killed after 20 s)', async () => {
    const script = fileURLToPath(new URL('./support/research-guard.mjs', import.meta.url));
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [script], { timeout: 20_000 }, (err, out) =>
        err ? reject(err) : resolve(out),
      ),
    );
    expect(JSON.parse(stdout)).toEqual({
      evil: false,
      evilErrors: '/code must match pattern "^(a+)+$"',
      good: true,
      badKey: false,
    });
  }, 30_000);

  it('validates answers against caller patterns through the facade, with the pattern semantics of JavaScript', async () => {
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^(a+)+$' },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
      },
    };
    const ok = await enrich(schema, { code: 'aaaa', country: 'FR' });
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].data.research_result).toMatchObject({ code: 'aaaa', country: 'FR' });
    const bad = await enrich(schema, { code: `${'a'.repeat(34)}!`, country: 'FR' });
    expect(bad.status).toBe(200);
    expect(bad.body.data[0]).toMatchObject({
      data: { research_result: null },
      error: 'result does not match output_schema: /code must match pattern "^(a+)+$"',
    });
  });

  it('refuses with 422 a pattern the linear-time engine cannot run (lookaround, backreference)', async () => {
    for (const pattern of ['^(?=a)a$', '(a)\\1']) {
      const res = await enrich({ type: 'object', properties: { x: { type: 'string', pattern } } });
      expect(res.status).toBe(422);
      expect(res.body.detail).toHaveLength(1);
      expect(res.body.detail[0]).toMatchObject({
        loc: ['body', 'parameters', 'output_schema'],
        type: 'value_error.output_schema.pattern',
      });
      expect(res.body.detail[0].msg).toContain(JSON.stringify(pattern));
    }
    const key = await enrich({ type: 'object', patternProperties: { '(?<=a)b': { type: 'string' } } });
    expect(key.status).toBe(422);
    expect(key.body.detail[0].type).toBe('value_error.output_schema.pattern');
  });

  it('checks the regex format with the same engine', () => {
    const validate = compileOutputSchema({ type: 'string', format: 'regex' });
    expect(validate('^[a-z]+$')).toBe(true);
    expect(validate('(?=a)')).toBe(false);
    expect(validate('(')).toBe(false);
  });

  it('answers 422 beyond the size bounds, naming the bound, before compiling', async () => {
    const L = OUTPUT_SCHEMA_LIMITS;
    const many = await enrich(wide(10_000));
    expect(many.status).toBe(422);
    expect(many.body.detail).toEqual([
      {
        loc: ['body', 'parameters', 'output_schema', 'properties', `p${L.maxProperties}`],
        msg: `output_schema has more than ${L.maxProperties} properties`,
        type: 'value_error.output_schema.properties',
      },
    ]);
    expect((await enrich(wide(L.maxProperties))).status).toBe(200);

    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < L.maxDepth; i++) deep = { type: 'array', items: deep };
    const tooDeep = await enrich(deep);
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body.detail[0].type).toBe('value_error.output_schema.depth');

    const longPattern = await enrich({
      type: 'object',
      properties: { x: { type: 'string', pattern: 'a'.repeat(L.maxPatternLength + 1) } },
    });
    expect(longPattern.body.detail[0]).toEqual({
      loc: ['body', 'parameters', 'output_schema', 'properties', 'x', 'pattern'],
      msg: `pattern longer than ${L.maxPatternLength} characters`,
      type: 'value_error.output_schema.string_length',
    });
    const longText = await enrich({
      type: 'object',
      properties: { x: { type: 'string', description: 'd'.repeat(L.maxStringLength + 1) } },
    });
    expect(longText.body.detail[0].type).toBe('value_error.output_schema.string_length');
    const bigEnum = await enrich({
      type: 'string',
      enum: Array.from({ length: L.maxNodes }, (_, i) => `v${i}`),
    });
    expect(bigEnum.body.detail[0].type).toBe('value_error.output_schema.size');
    const manyChars = await enrich({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'string', description: 'd'.repeat(1000) }]),
      ),
    });
    expect(manyChars.body.detail[0].type).toBe('value_error.output_schema.size');
  });

  it('does not count a property named "pattern" as a regex', async () => {
    const res = await enrich({
      type: 'object',
      properties: { pattern: { type: 'string', description: 'x'.repeat(600) } },
    });
    expect(res.status).toBe(200);
  });
});

describe('chat-completions provider', () => {
  it('sends structured output requests to a local server and validates the answers', async () => {
    const server = await startChatServer((req) =>
      req.body.messages[1]!.content.includes(`business ${businessId(1)} record`)
        ? { name: 42 } // does not match the schema
        : {
            name: 'Company 0',
            size: '51-200',
            public: true,
            hq: { city_name: 'austin', country_name: 'united states' },
            technologies: ['react'],
            investors_count: 3,
          },
    );
    try {
      const provider = chatCompletionsProvider({
        baseUrl: server.url,
        apiKey: 'sk-test',
        model: 'tiny',
        webSearch: true,
      });
      const rows = await runResearch(
        engine,
        'business',
        [{ id: businessId(0) }, { id: businessId(1) }, { id: 'f'.repeat(32) }],
        { output_schema: SCHEMA, query: 'Profile it' },
        provider,
      );
      expect(rows.map((r) => r.status)).toEqual(['ok', 'error', 'not_found']);
      expect(rows[0]).toMatchObject({
        data: {
          research_provider: 'chat_completions',
          research_result: { name: 'Company 0' },
          sources: ['https://news.example/article'],
        },
      });
      expect(rows[1]).toMatchObject({ error: expect.stringContaining('does not match output_schema') });
      const sent = server.requests[0]!;
      expect(sent.headers.authorization).toBe('Bearer sk-test');
      expect(sent.body).toMatchObject({
        model: 'tiny',
        response_format: { type: 'json_schema', json_schema: { name: 'research_result', schema: SCHEMA } },
        web_search_options: {},
      });
    } finally {
      await server.close();
    }
  });

  it('turns an endpoint error into an error row', async () => {
    const server = await startChatServer(() => ({ status: 500, error: 'boom' }));
    try {
      const provider = chatCompletionsProvider({ baseUrl: server.url, model: 'tiny' });
      const rows = await runResearch(
        engine,
        'prospect',
        [{ id: prospectId(0) }],
        { output_schema: SCHEMA, query: 'q' },
        provider,
      );
      expect(rows[0]).toMatchObject({ status: 'error', error: expect.stringContaining('500') });
    } finally {
      await server.close();
    }
  });
});

describe('research job', () => {
  it('runs research over an uploaded list and writes the results to CSV', async () => {
    const ids = [businessId(0), businessId(1), 'e'.repeat(32)];
    const boundary = 'b0undary';
    const form =
      ['entity_type', 'business', 'name', 'n', 'description', 'd']
        .reduce<string[]>(
          (acc, v, i, a) =>
            i % 2
              ? acc
              : [
                  ...acc,
                  `--${boundary}\r\nContent-Disposition: form-data; name="${v}"\r\n\r\n${a[i + 1]}\r\n`,
                ],
          [],
        )
        .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\n${ids.join('\r\n')}\r\n--${boundary}--\r\n`;
    const up = await handle(
      engine,
      {
        method: 'POST',
        path: '/v2/async/entity-id-datasets/upload',
        headers: { api_key: key, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.from(form),
      },
      router,
    );
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    // The list is checked before the schema is compiled: an unknown list wins over a bad schema.
    const unknownList = await post('/v2/businesses/research/job', {
      list_id: 'lst_unknown',
      parameters: { output_schema: { type: 1 }, query: 'q' },
    });
    expect(unknownList.status).toBe(422);
    expect(unknownList.body.detail[0].loc).toEqual(['body', 'list_id']);
    const huge = await post('/v2/businesses/research/job', {
      list_id: (up.body as any).list_id,
      parameters: {
        output_schema: {
          type: 'object',
          properties: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, {}])),
        },
        query: 'q',
      },
    });
    expect(huge.status).toBe(422);
    expect(huge.body.detail[0].type).toBe('value_error.output_schema.properties');
    const bad = await post('/v2/businesses/research/job', {
      list_id: (up.body as any).list_id,
      parameters: { output_schema: { type: 1 }, query: 'q' },
    });
    expect(bad.status).toBe(422);
    const sub = await post('/v2/businesses/research/job', {
      list_id: (up.body as any).list_id,
      parameters: { output_schema: schema, query: 'q' },
    });
    expect(sub.status).toBe(202);
    const worker = startJobWorker(engine, { pollMs: 20 });
    await worker.idle();
    await worker.stop();
    const status = (
      await handle(
        engine,
        { method: 'GET', path: `/v2/jobs/status/${sub.body.job_id}`, headers: { api_key: key } },
        router,
      )
    ).body as any;
    expect(status).toMatchObject({
      status: 'succeeded',
      credit_usage: { total_credits: 10, total_results: 2 },
    });
    const url = new URL(status.results.download_url, 'http://x');
    const csv = parseCsv(
      (await handle(engine, { method: 'GET', path: url.pathname + url.search }, router)).body as string,
    );
    expect(csv).toEqual([
      ['business_id', 'result_status', 'research_result'],
      [businessId(0), 'ok', '{"name":"Company 0"}'],
      [businessId(1), 'ok', '{"name":"Company 1"}'],
      ['e'.repeat(32), 'not_found', ''],
    ]);
  });
});
