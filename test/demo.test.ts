/**
 * `prospectdb demo` as a new user starts it: the key it prints reaches every route (contact data
 * included), and `--allow-private-webhooks` lets a local receiver be registered (and says so).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI } from './support/built-cli.js';
import { freePort } from './support/postgres.js';

const cache = mkdtempSync(join(tmpdir(), 'pdb-demo-'));

interface Demo {
  child: ChildProcess;
  url: string;
  key: string;
  stderr: () => string;
}

/** Starts the demo on a free port with the shared cache; resolves once it printed its key. */
async function startDemo(args: string[]): Promise<Demo> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [BUILT_CLI, 'demo', '--port', String(port), '--cache', cache, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const key = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`demo did not start:\n${err}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`demo exited ${code}:\n${err}`)));
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /every entitlement; a new key each start\):\n\s+(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, key, stderr: () => err };
}

async function stop(demo: Demo | undefined) {
  if (!demo || demo.child.exitCode !== null) return;
  const exited = new Promise((resolve) => demo.child.once('exit', resolve));
  demo.child.kill('SIGTERM');
  await exited;
}

const post = (demo: Demo, path: string, body: unknown) =>
  fetch(`${demo.url}${path}`, {
    method: 'POST',
    headers: { api_key: demo.key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('prospectdb demo', () => {
  let strict: Demo | undefined;
  let local: Demo | undefined;
  beforeAll(async () => {
    strict = await startDemo([]);
  }, 120_000);
  afterAll(async () => {
    await stop(strict);
    await stop(local);
    rmSync(cache, { recursive: true, force: true });
  });

  it('gives the printed key every entitlement: contact data answers 200, not 403', async () => {
    const page = await post(strict!, '/v1/prospects', { mode: 'preview', page_size: 1 });
    expect(page.status).toBe(200);
    const [prospect] = ((await page.json()) as { data: { prospect_id: string }[] }).data;
    const res = await post(strict!, '/v1/prospects/contacts_information/enrich', {
      prospect_id: prospect!.prospect_id,
    });
    expect(res.status).toBe(200);
  });

  it('refuses a webhook on http://127.0.0.1 by default', async () => {
    const res = await post(strict!, '/v2/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(res.status).toBe(422);
    expect(strict!.stderr()).not.toContain('--allow-private-webhooks');
  });

  it('accepts it with --allow-private-webhooks, announced on stderr', async () => {
    await stop(strict);
    local = await startDemo(['--allow-private-webhooks']);
    expect(local.stderr()).toContain(
      'prospectdb: --allow-private-webhooks: webhooks may target http:// and private addresses',
    );
    const res = await post(local, '/v2/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(res.status).toBe(201);
  }, 120_000);
});
