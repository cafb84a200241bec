/**
 * The shared state store on PostgreSQL, for several processes or machines (`--state postgres://…`).
 * `pg` (node-postgres, the most used driver, pure JavaScript) is loaded only when a PostgreSQL URL is
 * given. The state's SQL is written with `?` placeholders for both stores; they become `$1…$n` here.
 * Integers come back as numbers (times are milliseconds, balances and counts far below 2^53), bytea as
 * Buffers. A transaction holds one pooled connection; statements outside one use the pool.
 */
import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import type { Param, StateDb } from './db.js';
import { currentFrame, runInFrame, type TxFrame } from './transactions.js';

const INT8 = 20;
const NUMERIC = 1700;

/** `?` → `$n`, outside quotes (the state's SQL never has `?` in a string, but an identifier might). */
export function toPositional(sql: string): string {
  let n = 0;
  let out = '';
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '?') {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

/** The URL as it may be shown (logs, `info()`): the password left out. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

export interface PostgresStateOptions {
  /** Pool size per process; default 10. */
  max?: number;
}

/** Opens a pool (no connection is made until the first statement). */
export function openPostgresState(url: string, options: PostgresStateOptions = {}): StateDb {
  // Loaded here, synchronously (it is CommonJS), so that `openEngine` stays synchronous and a user
  // of the embedded store never loads it.
  const pg = createRequire(import.meta.url)('pg') as typeof Pg;
  const parse = (v: string) => Number(v);
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8 || oid === NUMERIC
        ? parse
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool: Pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types });
  // An idle client that loses its server (a restart) must not take the process down.
  pool.on('error', () => {});
  return postgresState(pool, redactUrl(url));
}

function postgresState(pool: Pool, location: string): StateDb {
  const texts = new Map<string, { text: string; name?: string }>();
  const owner = {};
  /**
   * The statement as sent: `$n` placeholders, and a name for the statements requests repeat (reads
   * and writes), so each pooled connection parses and plans them once (DDL stays unnamed).
   */
  const prepared = (sql: string) => {
    let t = texts.get(sql);
    if (t === undefined) {
      const named = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql);
      texts.set(sql, (t = { text: toPositional(sql), ...(named ? { name: `pdb${texts.size}` } : {}) }));
    }
    return t;
  };
  const query = async (sql: string, params: readonly Param[], rowMode?: 'array') => {
    const frame = currentFrame<PoolClient>(owner);
    const config = { ...prepared(sql), values: params as Param[], ...(rowMode ? { rowMode } : {}) };
    return frame ? frame.conn.query(config) : pool.query(config);
  };

  return {
    dialect: 'postgres',
    location,
    all: async <T>(sql: string, params: readonly Param[] = []) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params: readonly Param[] = []) =>
      (await query(sql, params)).rows[0] as T | undefined,
    value: async <T>(sql: string, params: readonly Param[] = []) =>
      ((await query(sql, params, 'array')).rows[0] as unknown[] | undefined)?.[0] as T | undefined,
    run: async (sql: string, params: readonly Param[] = []) => (await query(sql, params)).rowCount ?? 0,
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      if (currentFrame(owner)) return fn();
      const client = await pool.connect();
      const frame: TxFrame<PoolClient> = { owner, conn: client, open: true };
      let broken = false;
      try {
        await client.query('BEGIN');
        try {
          const out = await runInFrame(frame, fn);
          frame.open = false;
          await client.query('COMMIT');
          return out;
        } catch (e) {
          frame.open = false;
          await client.query('ROLLBACK').catch(() => (broken = true));
          throw e;
        }
      } finally {
        client.release(broken);
      }
    },
    ready: () => Promise.resolve(),
    get inTransaction() {
      return currentFrame(owner) !== undefined;
    },
    close: () => pool.end(),
  };
}
