/**
 * The state store: everything requests change (accounts, keys, the credit ledger, rate-limit windows,
 * webhooks, enrollments, the delivery outbox, uploads, jobs, OAuth), kept apart from the read-only
 * snapshot so that many processes and many machines can share it. One small asynchronous SQL port with
 * two implementations: SQLite (`sqlite.ts`, the embedded default, a file of its own) and PostgreSQL
 * (`postgres.ts`, for many nodes). The state's SQL is written once, in the subset both dialects read
 * (`?` placeholders, `INSERT … ON CONFLICT`, `RETURNING`, integers for times and booleans), and lives in
 * `store/sql/<area>.ts` like every other statement.
 */

import type { StateMigration } from '../store/sql/migration.js';

/** A bound value: what both drivers take and give back alike. */
export type Param = string | number | bigint | Buffer | null;

export type Row = Record<string, unknown>;

export type Dialect = 'sqlite' | 'postgres';

export interface StateDb {
  readonly dialect: Dialect;
  /** Where the state lives: a SQLite path (`:memory:` included) or the PostgreSQL URL without its password. */
  readonly location: string;
  all<T = Row>(sql: string, params?: readonly Param[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Row>(sql: string, params?: readonly Param[]): Promise<T | undefined>;
  /** The first column of the first row, or undefined (counts, sums, a single id). */
  value<T = unknown>(sql: string, params?: readonly Param[]): Promise<T | undefined>;
  /** Runs a write; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly Param[]): Promise<number>;
  /**
   * Runs `fn` in one transaction and commits it, or rolls it back when `fn` throws (the error is
   * rethrown). Every statement `fn` issues through this store, however deep (the async context carries
   * it), joins the transaction; a `transaction` inside it joins the outer one. SQLite: `BEGIN
   * IMMEDIATE` (the write lock up front, so two processes never deadlock on an upgrade), and the
   * process's other statements wait until it ends. PostgreSQL: one pooled connection, READ COMMITTED;
   * writers that must not race lock their row (`UPDATE … WHERE … RETURNING`, `FOR UPDATE SKIP LOCKED`).
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Resolves once the store can be used (PostgreSQL: connected and migrated); rejects if it cannot. */
  ready(): Promise<void>;
  /** Whether the caller runs inside a transaction of this store. */
  readonly inTransaction: boolean;
  close(): Promise<void>;
}

/**
 * One area's tables (accounts, webhooks, jobs, OAuth …): its DDL in the SQLite dialect (translated for
 * PostgreSQL by `schema.ts`, or given for it explicitly) and the migrations of files made by older
 * versions, numbered per area. A new store runs `ddl` and records the last migration's number; an
 * older one runs the migrations it has not seen, in order.
 */
export interface StateArea {
  readonly name: string;
  readonly ddl: string;
  /** PostgreSQL DDL when the translation of `ddl` does not fit. */
  readonly postgresDdl?: string;
  readonly migrations?: readonly StateMigration[];
}

export type { StateMigration } from '../store/sql/migration.js';
