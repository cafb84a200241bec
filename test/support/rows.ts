import { createHash } from 'node:crypto';
import type { Db } from '../../src/store/db.js';

/**
 * Test support: SQLite rows made cheap to compare. vitest's deep equality walks a Buffer byte by byte
 * through its iterator (about 1 µs a byte): comparing the 10,000 demo prospects' blobs took 30 s. A
 * blob becomes `base64:…` text, equal exactly when its bytes are, and a failure still shows the row.
 *
 * @example expect(comparableRows(db.prepare('SELECT * FROM prospects').all())).toEqual(comparableRows(other))
 */
export function comparableRows(rows: unknown[]): Record<string, unknown>[] {
  return (rows as Record<string, unknown>[]).map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? `base64:${v.toString('base64')}` : v]),
    ),
  );
}

/** A digest of a row's values: equal exactly when the values are (a blob by its bytes). */
export function rowDigest(row: readonly unknown[]): string {
  const h = createHash('sha256');
  for (const v of row) h.update(v instanceof Uint8Array ? v : `${typeof v}:${String(v)}`).update('\0');
  return h.digest('hex');
}

/**
 * The rows `sql` reads from `db`, each as its {@link rowDigest} (comparing megabytes of blobs value by
 * value is slow): a difference still names the row by its place.
 */
export function rowDigests(db: Db, sql: string): string[] {
  return (db.prepare(sql).raw().all() as unknown[][]).map(rowDigest);
}
