/**
 * Test support for the tool-server tests: an engine over the demo snapshot (or, while the demo snapshot
 * is not committed, the seeded synthetic one of the search tests) with one funded account, and a
 * clock the test can move.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount } from '../../src/account/accounts.js';
import { openEngine, type Engine } from '../../src/engine.js';
import { DEMO_DIR, DEMO_LOAD, DEMO_NOW } from './demo.js';
import { NOW as SYNTHETIC_NOW, synthetic } from '../search.oracle.js';

export interface McpFixture {
  engine: Engine;
  apiKey: string;
  accountId: string;
  /** Moves the engine clock forward by `ms`. */
  advance(ms: number): void;
}

export const HAS_DEMO = existsSync(join(DEMO_DIR, 'manifest.json'));

/** A snapshot folder: the demo one, or a synthetic one written to a temporary folder. */
export function snapshotDir(): { dir: string; now: number } {
  return HAS_DEMO ? { dir: DEMO_DIR, now: DEMO_NOW } : { dir: synthetic(7, 80, 400).dir, now: SYNTHETIC_NOW };
}

/**
 * A fresh engine (in memory unless `path` is given) with the snapshot loaded and a funded account; its
 * state is the embedded default unless `state` names another store (a PostgreSQL URL).
 */
export async function mcpFixture(path?: string, state?: string): Promise<McpFixture> {
  const { dir, now } = snapshotDir();
  let t = now;
  const engine = openEngine({ path, state, clock: () => t, rateLimit: false } as Parameters<
    typeof openEngine
  >[0]);
  await engine.state.ready();
  await engine.load(dir, { strict: HAS_DEMO, threads: DEMO_LOAD.threads });
  const account = await createAccount(engine, {
    name: 'Tool tests',
    credits: 100_000,
    account_type: 'paid',
    entitlements: ['*'],
  });
  return {
    engine,
    apiKey: account.api_key,
    accountId: account.account_id,
    advance(ms) {
      t += ms;
    },
  };
}
