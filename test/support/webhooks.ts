/**
 * Webhook-test support: a local receiver, engines on either state store, and a polling wait. The
 * delivery worker as a process of its own (the owner that dies mid-delivery) is `webhook-worker.mjs`.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ACCOUNT_SCHEMA } from '../../src/store/sql/accounts.js';
import { JOBS_SCHEMA } from '../../src/store/sql/jobs.js';
import { openEngine, type Engine, type EngineOptions } from '../../src/engine.js';
import { openTestEngine, stateFor, type StateKind } from './state.js';
import { tempDir } from './temp.js';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1; `reply` decides each answer (0: never answer). */
export async function receiver(
  reply: (n: number, r: Received) => number | [number, Record<string, string>] = () => 200,
) {
  const received: Received[] = [];
  let port = 0;
  let server: http.Server | null = null;
  const start = () =>
    new Promise<void>((resolve) => {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
          received.push(r);
          const out = reply(received.length, r);
          const [status, headers] = Array.isArray(out) ? out : [out, {}];
          if (status === 0) return; // hang: never answer
          res.writeHead(status, headers).end('secret body of the receiver');
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
      server = null;
    });
  await start();
  return { received, url: (p = '/hook') => `http://127.0.0.1:${port}${p}`, start, stop };
}

/** Waits until `check` holds (a hang guard, not a timing assertion). */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let dir: string | undefined;
let files = 0;

/**
 * A snapshot file for an engine whose state lives elsewhere (PostgreSQL, a SQLite state file shared
 * by two engines). Until accounts and jobs move to the state store (parallel branches), the engine
 * reads them from the snapshot's connection, so the file gets their tables; once they live in
 * `ctx.state` these tables stay empty and this is just a fresh file.
 */
export function snapshotFile(): string {
  // Removed when the test file ends; a worker running several files (`isolate: false`) makes another.
  if (dir === undefined || !existsSync(dir)) dir = tempDir('webhooks-');
  const path = join(dir, `snapshot-${++files}.db`);
  const db = new Database(path);
  db.exec(ACCOUNT_SCHEMA);
  db.exec(JOBS_SCHEMA);
  db.close();
  return path;
}

/** The webhook options of these tests: private targets allowed, a short schedule, no worker. */
export function webhookOptions(options: EngineOptions = {}, schedule: readonly number[] = [50, 100, 200]) {
  return {
    rateLimit: false as const,
    ...options,
    webhooks: { allowPrivateTargets: true, retrySchedule: schedule, worker: false, ...options.webhooks },
  };
}

/**
 * An engine on a fresh state of `kind` (SQLite: in memory, beside the snapshot; PostgreSQL: a fresh
 * database), or on `options.state` when given (several engines sharing one state).
 */
export async function webhookEngine(
  kind: StateKind,
  options: EngineOptions = {},
  schedule?: readonly number[],
): Promise<Engine> {
  if (kind === 'sqlite' && options.state === undefined && options.path === undefined)
    return openTestEngine(kind, webhookOptions(options, schedule));
  const engine = openEngine({
    path: snapshotFile(),
    ...webhookOptions(options, schedule),
    state: options.state ?? (await stateFor(kind)),
  });
  await engine.state.ready();
  return engine;
}
