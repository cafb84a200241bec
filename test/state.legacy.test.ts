/**
 * The default layout of the two stores on disk: a single-file database made before the split (its
 * state tables beside the snapshot's) opens as both stores with its accounts, keys and balance intact
 * and the state's migrations applied, even with the snapshot opened read-only; a new snapshot file
 * keeps its state in a file of its own beside it (`x.db` → `x.state.db`); an in-memory engine keeps
 * both in one database.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { authenticate, balance, createAccount, grantCredits } from '../src/account/accounts.js';
import { generateKey } from '../src/account/keys.js';
import { defaultStateFile, openEngine } from '../src/engine.js';
import { STATE_AREAS } from '../src/state/areas.js';
import { openDatabase } from '../src/store/open.js';

const dir = mkdtempSync(join(tmpdir(), 'prospectdb-legacy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The account tables as every version before the split made them, in the snapshot's file. */
const OLD_ACCOUNT_DDL = `
CREATE TABLE accounts (
  account_id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  account_type TEXT NOT NULL CHECK (account_type IN ('trial', 'paid')),
  entitlements TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE api_keys (
  key_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (account_id),
  prefix TEXT NOT NULL UNIQUE,
  hash BLOB NOT NULL,
  name TEXT,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE TABLE credit_ledger (
  entry_id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (account_id),
  at INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'charge')),
  delta INTEGER NOT NULL,
  balance INTEGER NOT NULL CHECK (balance >= 0),
  operation TEXT,
  units INTEGER,
  endpoint TEXT,
  key_id TEXT,
  correlation_id TEXT
) STRICT;`;

const T = 1_700_000_000_000;

/** A file as a version before the split left it: snapshot tables, one account, a key, 480 credits. */
function buildOldFile(path: string): string {
  const db = openDatabase(path);
  const key = generateKey();
  db.exec(OLD_ACCOUNT_DDL);
  db.prepare('INSERT INTO accounts VALUES (?, ?, ?, ?, ?, ?)').run(
    'acc_legacy',
    'partner_legacy',
    'Legacy Co',
    'paid',
    '["*"]',
    T,
  );
  db.prepare('INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, ?, NULL)').run(
    'key_legacy',
    'acc_legacy',
    key.prefix,
    key.hash,
    'old key',
    T,
  );
  const ledger = db.prepare(
    'INSERT INTO credit_ledger (account_id, at, kind, delta, balance, operation) VALUES (?, ?, ?, ?, ?, ?)',
  );
  ledger.run('acc_legacy', T, 'grant', 500, 500, null);
  ledger.run('acc_legacy', T + 1, 'charge', -20, 480, 'match');
  db.close();
  return key.key;
}

const remaining = async (engine: ReturnType<typeof openEngine>, apiKey: string) => {
  const res = await engine.handle({ method: 'GET', path: '/v2/credits', headers: { api_key: apiKey } });
  expect(res.status).toBe(200);
  return (res.body as { remaining_credits: number }).remaining_credits;
};

describe('a single-file database made before the split', () => {
  it('opens as both stores, its accounts, keys and balance intact and the migrations applied', async () => {
    const path = join(dir, 'old.db');
    const apiKey = buildOldFile(path);
    const engine = openEngine({ path });
    try {
      expect(engine.state.location).toBe(path);
      expect(existsSync(defaultStateFile(path))).toBe(false);
      const auth = await authenticate(engine, apiKey);
      expect(auth).toMatchObject({ ok: true, keyId: 'key_legacy', account: { account_id: 'acc_legacy' } });
      expect(await balance(engine, 'acc_legacy')).toBe(480);
      expect(await remaining(engine, apiKey)).toBe(480);
      // Every area recorded at its version, and the tables the old file lacked made.
      for (const area of STATE_AREAS)
        expect(
          await engine.state.value('SELECT value FROM state_meta WHERE key = ?', [`schema.${area.name}`]),
        ).toBeTypeOf('string');
      for (const table of ['oauth_grants', 'jobs', 'webhooks'])
        expect(await engine.state.value(`SELECT count(*) FROM ${table}`)).toBe(0);
    } finally {
      engine.close();
    }
  });

  it('takes state writes with the snapshot opened read-only (the state on a second, writable connection)', async () => {
    const path = join(dir, 'old-ro.db');
    const apiKey = buildOldFile(path);
    const engine = openEngine({ path, readonly: true });
    try {
      expect(() => engine.db.exec('CREATE TABLE nope (x)')).toThrow(/readonly/);
      expect(await grantCredits(engine, 'acc_legacy', 5)).toBe(485);
      expect(await remaining(engine, apiKey)).toBe(485);
    } finally {
      engine.close();
    }
    const again = openEngine({ path });
    try {
      expect(await balance(again, 'acc_legacy')).toBe(485);
    } finally {
      again.close();
    }
  });
});

describe('the default layout', () => {
  it('names the state file beside the snapshot', () => {
    expect(defaultStateFile('/data/x.db')).toBe('/data/x.state.db');
    expect(defaultStateFile('/data/prospects.sqlite')).toBe('/data/prospects.state.sqlite');
    expect(defaultStateFile('/data/x')).toBe('/data/x.state.db');
  });

  it('keeps an in-memory engine in one database', async () => {
    const engine = openEngine();
    try {
      expect(engine.state.location).toBe(':memory:');
      await engine.state.run('INSERT INTO state_meta (key, value) VALUES (?, ?)', ['probe', '1']);
      expect(engine.db.prepare("SELECT value FROM state_meta WHERE key = 'probe'").pluck().get()).toBe('1');
    } finally {
      engine.close();
    }
  });

  it('gives a new snapshot file a state file of its own, writable with the snapshot read-only', async () => {
    const path = join(dir, 'x.db');
    const engine = openEngine({ path });
    const created = await createAccount(engine, { name: 'New Co', credits: 50, account_type: 'paid' });
    expect(engine.state.location).toBe(join(dir, 'x.state.db'));
    engine.close();
    expect(existsSync(join(dir, 'x.state.db'))).toBe(true);
    const snapshot = openDatabase(path, { readonly: true });
    expect(snapshot.prepare("SELECT 1 FROM sqlite_master WHERE name = 'accounts'").get()).toBeUndefined();
    snapshot.close();

    const ro = openEngine({ path, readonly: true });
    try {
      expect(await grantCredits(ro, created.account_id, 7)).toBe(57);
      expect(await remaining(ro, created.api_key)).toBe(57);
    } finally {
      ro.close();
    }
  });
});
