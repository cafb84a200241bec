import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, revokeKey, listKeys } from '../src/account/accounts.js';
import { handle } from '../src/facade/handle.js';
import { BUILT_CLI } from './support/built-cli.js';
import { mcpFixture, type McpFixture } from './support/mcp-engine.js';

type Json = Record<string, unknown>;

let dir: string;
let f: McpFixture;
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pdb-mcp-'));
  f = await mcpFixture(join(dir, 'prospects.db'));
  client = new Client({ name: 'local-agent', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, 'mcp', '--db', join(dir, 'prospects.db'), '--api-key', f.apiKey],
      stderr: 'pipe',
    }),
  );
});
afterAll(async () => {
  await client?.close();
  f?.engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('prospectdb mcp (stdio)', () => {
  it('lists the tools and answers fetch_prospects as the REST route does, charging the same credits', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('fetch_prospects');
    const args = { mode: 'full', page_size: 3, page: 2, filters: { has_website: { value: true } } };
    const before = await balance(f.engine, f.accountId);
    const got = await client.callTool({ name: 'fetch_prospects', arguments: args });
    const toolCost = before - (await balance(f.engine, f.accountId));
    const rest = await handle(f.engine, {
      method: 'POST',
      path: '/v1/prospects',
      headers: { api_key: f.apiKey },
      body: args,
    });
    const restCost = before - toolCost - (await balance(f.engine, f.accountId));
    expect(rest.status).toBe(200);
    expect(got.isError).toBeUndefined();
    const { response_context: _a, ...toolBody } = got.structuredContent as Json;
    const { response_context: _b, ...restBody } = rest.body as Json;
    expect(toolBody).toEqual(restBody);
    expect(toolCost).toBe(restCost);
    expect((got.content as { text: string }[])[0]!.text).toMatch(/^3 prospects on page 2 of \d+/);
  });

  it('returns bad arguments as a tool error with their path', async () => {
    const got = await client.callTool({
      name: 'match_businesses',
      arguments: { businesses_to_match: [{ name: 'x', website: 'y' }] },
    });
    expect(got.isError).toBe(true);
    expect((got.structuredContent as { detail: Json[] }).detail).toEqual([
      {
        loc: ['businesses_to_match', 0, 'website'],
        path: 'businesses_to_match[0].website',
        msg: 'extra fields not permitted',
        type: 'value_error.extra',
      },
    ]);
  });

  it('stops serving the account once its key is revoked', async () => {
    const keyId = (await listKeys(f.engine, f.accountId))[0]!.key_id;
    await revokeKey(f.engine, keyId);
    const got = await client.callTool({ name: 'credits_balance', arguments: {} });
    expect(got).toMatchObject({ isError: true, structuredContent: { status: 401 } });
  });
});
