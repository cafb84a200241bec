/**
 * Test support: `prospectdb serve …` as a child process (the built CLI, `built-cli.ts`) on a free loopback
 * port, with `PROSPECTDB_DIAGNOSTICS=1` so every answer names the process that served it
 * (`x-prospectdb-pid`). Resolves once it serves; `stop` sends a signal and resolves with how it ended.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BUILT_CLI } from './built-cli.js';
import { freePort } from './postgres.js';

export interface ServeChild {
  readonly child: ChildProcess;
  readonly port: number;
  /** Everything the process wrote to stderr so far. */
  log(): string;
  /** Resolves once `pattern` has appeared in the log (a hang guard rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code and signal. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `serve --db <db> --port <free> …args`; resolves when it listens (all workers, with `--workers`). */
export async function startServe(
  db: string,
  args: string[] = [],
  options: { port?: number; timeoutMs?: number } = {},
): Promise<ServeChild> {
  const port = options.port ?? (await freePort());
  const workers = args.includes('--workers') && args[args.indexOf('--workers') + 1] !== '1';
  return startChild(
    [BUILT_CLI, 'serve', '--db', db, '--port', String(port), ...args],
    port,
    workers ? /workers listening/ : /serving .* on http/,
    options.timeoutMs,
  );
}

/**
 * Starts `node …nodeArgs` (a server on `port`) and resolves once its stderr matches `ready`. A test
 * support script in TypeScript runs with `--import tsx` first in `nodeArgs`.
 */
export async function startChild(
  nodeArgs: string[],
  port: number,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<ServeChild> {
  const child = spawn(process.execPath, nodeArgs, {
    env: { ...process.env, PROSPECTDB_DIAGNOSTICS: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (const w of waiters) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (pattern: RegExp, ms = timeoutMs) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = text.match(pattern);
        if (m) {
          done();
          resolve(m);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`serve exited before ${pattern}:\n${text}`));
        }
      };
      const guard = setTimeout(() => {
        done();
        reject(new Error(`no ${pattern} within ${ms} ms:\n${text}`));
      }, ms);
      const done = () => {
        clearTimeout(guard);
        waiters.delete(check);
      };
      waiters.add(check);
      void exited.then(check);
      check();
    });
  const served = child;
  const handle: ServeChild = {
    child: served,
    port,
    log: () => text,
    waitFor,
    async stop(signal = 'SIGTERM') {
      if (served.exitCode === null && served.signalCode === null) served.kill(signal);
      return exited;
    },
  };
  await waitFor(ready);
  return handle;
}

/** Whether process `pid` is still running (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
