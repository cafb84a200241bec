/**
 * The CLI restarted in a child process with `glibc.malloc.hugetlb=1` (`src/cli/main.ts`,
 * `src/cli/huge-pages.ts`), forced on a small file with `PROSPECTDB_HUGE_PAGES=1`: the child exists and
 * has the tunable, a command answers exactly as it does without the restart (output, exit code, stdin),
 * and `serve` started that way swaps on SIGHUP and stops cleanly on SIGTERM sent to the PID its user
 * sees, and once (not killed by a second signal) on a Ctrl-C that reaches the whole process group.
 * Only where the restart can work (Linux, glibc 2.35+, transparent huge pages in madvise mode).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hostFacts, hugePagesPlan } from '../src/cli/huge-pages.js';
import { buildIndexes } from '../src/core/warm.js';
import { openEngine } from '../src/engine.js';
import { settleSnapshotFile } from '../src/store/open.js';
import { BUILT_CLI } from './support/built-cli.js';
import { alive } from './support/serve-child.js';
import { namedBusinesses } from './support/snapshot.js';
import { tempDir } from './support/temp.js';

const forced = hostFacts({ PROSPECTDB_HUGE_PAGES: '1' });
const canRestart = hugePagesPlan('serve', ['--db', 'x.db'], forced).restart;
const TUNABLE = 'GLIBC_TUNABLES=glibc.malloc.hugetlb=1';

let dir: string;
let db: string;
let state: string;
let key: string;

/** The environment of a CLI run: the restart forced (`1`), off (`0`), or left to the size rule (undefined). */
function envWith(hugePages: '0' | '1' | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PROSPECTDB_DIAGNOSTICS: '1' };
  for (const name of ['PROSPECTDB_HUGE_PAGES', 'PROSPECTDB_HUGE_PAGES_RESTARTED', 'GLIBC_TUNABLES'])
    delete env[name];
  if (hugePages !== undefined) env.PROSPECTDB_HUGE_PAGES = hugePages;
  return env;
}

function cli(hugePages: '0' | '1', args: string[]) {
  const out = spawnSync(process.execPath, [BUILT_CLI, ...args], {
    encoding: 'utf8',
    env: envWith(hugePages),
  });
  return { code: out.status, signal: out.signal, stdout: stable(out.stdout), stderr: out.stderr };
}

/** An answer without its variable fields (correlation id, time taken). */
const stable = (text: string) =>
  text
    .replace(/"correlation_id": "\w+"/g, '"correlation_id": "…"')
    .replace(/"time_took_in_seconds": [\d.e-]+/g, '"time_took_in_seconds": 0');

/** The child processes of `pid` (Linux). */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(' ').map(Number);
}

/** The processes running `prospectdb <command> … --db <this file's database>`. */
function commandProcesses(command: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return argv.includes(BUILT_CLI) && argv.includes(command) && argv.includes(db);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The environment of process `pid`, as `NAME=value` lines. */
function environOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
}

/** Waits until `check` returns a value (polled every 20 ms, up to 20 s). */
async function until<T>(check: () => T | undefined, what = 'a condition'): Promise<T> {
  for (let i = 0; i < 1000; i++) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const exitOf = (proc: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );

describe.skipIf(!canRestart)('prospectdb restarted with huge pages', () => {
  beforeAll(async () => {
    dir = tempDir('pdb-huge-pages-');
    const folder = join(dir, 'snap');
    db = join(dir, 'small.db');
    state = join(dir, 'state.db');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder);
    const rows = namedBusinesses([
      ['Acme', 'US'],
      ['Beta', 'FR'],
      ['Gamma', 'DE'],
    ]);
    writeFileSync(join(folder, 'businesses.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(
      join(folder, 'manifest.json'),
      JSON.stringify({ format_version: 1, as_of: '2026-11-01T00:00:00Z' }),
    );
    const engine = openEngine({ path: db, state });
    await engine.load(folder, { strict: true, threads: 0 });
    // Every index saved, as a load leaves them: the runs compared below only read them. Built and the
    // key made here, not by `prospectdb index` and `keys create` (two processes started for nothing).
    buildIndexes(engine);
    key = (await engine.accounts.create({ name: 't', credits: 1000 })).api_key;
    await engine.state.close();
    engine.close();
    settleSnapshotFile(db);
  });

  const request = (body: string) => [
    'request',
    'POST',
    '/v1/businesses/match',
    body,
    '--db',
    db,
    '--state',
    state,
    '--api-key',
    key,
    '--status',
  ];

  it('answers a request as the direct run does, with the same exit code', () => {
    const body = JSON.stringify({ businesses_to_match: [{ name: 'acme' }] });
    const direct = cli('0', request(body));
    const restarted = cli('1', request(body));
    expect(direct.code).toBe(0);
    expect(direct.stdout).toContain('"business_id"');
    expect(restarted).toEqual(direct);
    // A refused request: exit code 1 both ways.
    const refusedArgs = request(body).map((a) => (a === key ? 'pdb_wrong' : a));
    const refused = cli('1', refusedArgs);
    expect(refused.code).toBe(1);
    expect(refused).toEqual(cli('0', refusedArgs));
  });

  it('runs the command in a child with the tunable, reading the same stdin', async () => {
    const body = JSON.stringify({ businesses_to_match: [{ name: 'beta' }] });
    const direct = cli('0', request(body));
    for (const hugePages of ['1', undefined] as const) {
      const proc = spawn(process.execPath, [BUILT_CLI, ...request('-')], {
        env: envWith(hugePages),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      proc.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      const exited = exitOf(proc);
      if (hugePages === '1') {
        // The parent waits for the child, which waits for its stdin.
        const child = await until(() => childrenOf(proc.pid!)[0]);
        // The parent's environment until the child has started node (exec).
        await until(
          () => (environOf(child).includes(TUNABLE) ? true : undefined),
          'the tunable in the child',
        );
        expect(environOf(proc.pid!)).not.toContain(TUNABLE);
      } else {
        // The size rule: a small file runs in the process started.
        await new Promise((r) => setTimeout(r, 500));
        expect(childrenOf(proc.pid!)).toEqual([]);
      }
      proc.stdin!.end(body);
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(stable(stdout)).toBe(direct.stdout);
    }
  });

  /** `request … -` restarted, waiting for its stdin, and its child once the child runs node. */
  async function waitingRequest() {
    const proc = spawn(process.execPath, [BUILT_CLI, ...request('-')], {
      env: envWith('1'),
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = exitOf(proc);
    const child = await until(() => childrenOf(proc.pid!)[0]);
    // Following its parent's signals: it catches SIGTERM (SigCgt, a mask of signal numbers - 1).
    await until(() => (catches(child, 'SIGTERM') ? true : undefined), 'the child to catch SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    return { proc, child, exited };
  }
  const catches = (pid: number, signal: NodeJS.Signals) => {
    const mask = /SigCgt:\s*([0-9a-f]+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '0';
    return (BigInt(`0x${mask}`) >> BigInt(constants.signals[signal] - 1)) & 1n ? true : false;
  };

  it('ends the parent by the signal that ended the child', async () => {
    const { child, exited } = await waitingRequest();
    process.kill(child, 'SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('ends both on a signal sent to the parent that the command does not handle', async () => {
    for (const signal of ['SIGTERM', 'SIGUSR2'] as const) {
      const { proc, child, exited } = await waitingRequest();
      proc.kill(signal);
      expect(await exited).toEqual({ code: null, signal });
      expect(alive(child)).toBe(false);
    }
  });

  it('ends both on a signal that reaches the parent while the child starts', async () => {
    for (const delay of [0, 150]) {
      const proc = spawn(process.execPath, [BUILT_CLI, ...request('-')], {
        env: envWith('1'),
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      const exited = exitOf(proc);
      await new Promise((r) => setTimeout(r, delay));
      proc.kill('SIGTERM');
      expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
      // No process of this command is left (a child left behind would wait for its stdin).
      await new Promise((r) => setTimeout(r, 200));
      expect(commandProcesses('request')).toEqual([]);
    }
  });

  it('ends the child when the parent is killed', async () => {
    const { proc, child, exited } = await waitingRequest();
    proc.kill('SIGKILL');
    await exited;
    await until(() => (alive(child) ? undefined : true), 'the child to end');
  });

  it('says in prospectdb info whether huge pages are on for the file', () => {
    const lines = (env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [BUILT_CLI, 'info', '--db', db, '--state', state], {
        encoding: 'utf8',
        env,
      })
        .stdout.split('\n')
        .filter((l) => l.startsWith('huge pages'));
    // The other lines (size rule, turned off, ...) are the decision's, tested in huge-pages.test.ts.
    expect(lines(envWith('1'))).toEqual([
      'huge pages      on for serve, mcp, match, export, request: restarted with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (PROSPECTDB_HUGE_PAGES=0 turns it off)',
    ]);
  });

  describe('serve', () => {
    let proc: ChildProcess | undefined;
    afterEach(() => {
      if (proc && proc.exitCode === null && proc.signalCode === null) process.kill(-proc.pid!, 'SIGKILL');
      proc = undefined;
    });

    /** `serve --watch` restarted, in a process group of its own; resolves once it serves. */
    async function startServe() {
      const started = spawn(
        process.execPath,
        [BUILT_CLI, 'serve', '--workers', '1', '--db', db, '--state', state, '--watch', '--port', '0'],
        { env: envWith('1'), stdio: ['ignore', 'ignore', 'pipe'], detached: true },
      );
      proc = started;
      let log = '';
      started.stderr!.setEncoding('utf8').on('data', (c: string) => (log += c));
      const exited = exitOf(started);
      const waitLog = (re: RegExp) => until(() => log.match(re) ?? undefined);
      const url = (await waitLog(/serving .* on (http:\/\/\S+)/))[1]!;
      await waitLog(/watching/);
      return { proc: started, url, log: () => log, waitLog, exited };
    }

    it('swaps on SIGHUP and stops on SIGTERM sent to the parent', async () => {
      const serve = await startServe();
      const res = await fetch(`${serve.url}/healthcheck/http`);
      expect(res.status).toBe(200);
      // The answer comes from the child, which has the tunable.
      const server = Number(res.headers.get('x-prospectdb-pid'));
      expect(server).not.toBe(serve.proc.pid);
      expect(childrenOf(serve.proc.pid!)).toEqual([server]);
      expect(environOf(server)).toContain(TUNABLE);

      serve.proc.kill('SIGHUP');
      await serve.waitLog(/SIGHUP: now serving snapshot \w+ \(3 businesses/);
      serve.proc.kill('SIGTERM');
      expect(await serve.exited).toEqual({ code: 0, signal: null });
      expect(serve.log().match(/SIGHUP: now serving/g)).toHaveLength(1);
      expect(serve.log().match(/shutting down/g)).toHaveLength(1);
    });

    it('stops once on a SIGINT or SIGHUP that reaches the whole process group (Ctrl-C, hang-up)', async () => {
      const serve = await startServe();
      // Both processes get it; the child gets the parent's relay too and drops it: one swap.
      process.kill(-serve.proc.pid!, 'SIGHUP');
      await serve.waitLog(/SIGHUP: now serving snapshot/);
      await new Promise((r) => setTimeout(r, 500));
      expect(serve.log().match(/SIGHUP: now serving/g)).toHaveLength(1);
      // A second SIGINT would end serve at once (exit by signal): one stop, in-flight requests finish.
      process.kill(-serve.proc.pid!, 'SIGINT');
      expect(await serve.exited).toEqual({ code: 0, signal: null });
      expect(serve.log().match(/shutting down/g)).toHaveLength(1);
    });

    it('exits 0 when the parent gets to a Ctrl-C only after the child has stopped', async () => {
      // On a busy machine the parent may run its relay when the child has served its stop and is
      // tearing down: its channel to the parent closed, its signal listeners gone. A signal sent then
      // ended it (and so the parent) by SIGINT. Held with SIGSTOP until the child's channel (fd 3)
      // is closed, the parent meets that moment every time.
      const serve = await startServe();
      const child = childrenOf(serve.proc.pid!)[0]!;
      process.kill(serve.proc.pid!, 'SIGSTOP');
      try {
        process.kill(-serve.proc.pid!, 'SIGINT');
        const channelOpen = () => {
          try {
            readlinkSync(`/proc/${child}/fd/3`);
            return true;
          } catch {
            return false;
          }
        };
        // A tight poll: the moment lasts milliseconds.
        const until = Date.now() + 20_000;
        while (channelOpen() && Date.now() < until);
      } finally {
        process.kill(serve.proc.pid!, 'SIGCONT');
      }
      expect(await serve.exited).toEqual({ code: 0, signal: null });
      expect(serve.log().match(/shutting down/g)).toHaveLength(1);
    });
  });
});
