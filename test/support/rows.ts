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
