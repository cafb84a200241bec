/**
 * The CLI's shared `--state` option: taken off the command line once (`cli/main.ts`) for every command
 * that opens a database, so the engines such a command opens use the store it names (a SQLite file, or
 * PostgreSQL from the run's throwaway server), and shown in the help.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { takeStateOption } from '../src/cli/state-option.js';
import { STATE_AREAS } from '../src/state/areas.js';
import { openState } from '../src/state/open.js';
import { openDatabase } from '../src/store/open.js';
import { BUILT_CLI } from './support/built-cli.js';
import { freshDatabase } from './support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'prospectdb-cli-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `prospectdb …` (built); the state variable cleared so only the flag can set it. */
function cli(...args: string[]) {
  const env = { ...process.env };
  delete env.PROSPECTDB_STATE;
  const out = spawnSync(process.execPath, [BUILT_CLI, ...args], { encoding: 'utf8', env });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** An empty snapshot file (no state tables in it). */
function snapshotFile(name: string): string {
  const path = join(dir, name);
  openDatabase(path).close();
  return path;
}

/** The areas a store records as migrated. */
async function migratedAreas(spec: string): Promise<string[]> {
  const store = openState(spec, []);
  try {
    await store.ready();
    const rows = await store.all<{ key: string }>(
      "SELECT key FROM state_meta WHERE key LIKE 'schema.%' ORDER BY key",
    );
    return rows.map((r) => r.key);
  } finally {
    await store.close();
  }
}
const ALL_AREAS = STATE_AREAS.map((a) => `schema.${a.name}`).sort();

describe('takeStateOption', () => {
  it('takes --state VALUE and --state=VALUE anywhere before --, and leaves the rest in order', () => {
    expect(takeStateOption(['create', '--db', 'x.db', '--state', 's.db', '--name', 'n'])).toEqual({
      ok: true,
      state: 's.db',
      args: ['create', '--db', 'x.db', '--name', 'n'],
    });
    expect(takeStateOption(['--state=postgres://u@h/db', '--db', 'x'])).toEqual({
      ok: true,
      state: 'postgres://u@h/db',
      args: ['--db', 'x'],
    });
    expect(takeStateOption(['--db', 'x', '--', '--state', 'y'])).toEqual({
      ok: true,
      state: undefined,
      args: ['--db', 'x', '--', '--state', 'y'],
    });
    for (const bad of [['--state'], ['--state', '--db', 'x'], ['--state=']])
      expect(takeStateOption(bad)).toEqual({
        ok: false,
        error: expect.stringMatching(/--state needs a value/),
      });
  });
});

describe('prospectdb <command> --state', () => {
  it('opens the state in the SQLite file it names, made and migrated there', async () => {
    const db = snapshotFile('snap.db');
    const state = join(dir, 'shared-state.db');
    const run = cli('info', '--db', db, '--state', state, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ path: db });
    expect(await migratedAreas(state)).toEqual(ALL_AREAS);
  });

  it('opens a postgres:// state: the database migrated on open', async () => {
    const url = await freshDatabase(inject('postgresUrl'));
    const run = cli('info', '--state', url, '--db', snapshotFile('snap-pg.db'));
    expect(run.code).toBe(0);
    expect(await migratedAreas(url)).toEqual(ALL_AREAS);
  });

  it('refuses --state without a value', () => {
    const missing = cli('info', '--db', 'x.db', '--state');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^prospectdb info: --state needs a value/);
  });

  it('documents --state in the help of the CLI and of each command that opens a database', () => {
    const top = cli('--help');
    expect(top.stdout).toMatch(/--state FILE\|postgres:\/\//);
    expect(top.stdout).toMatch(/PROSPECTDB_STATE/);
    const serve = cli('serve', '--help');
    expect(serve.code).toBe(0);
    expect(serve.stdout + serve.stderr).toMatch(/usage: prospectdb serve[\s\S]*--state FILE\|postgres:\/\//);
  });
});
