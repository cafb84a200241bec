/**
 * The saved in-memory indexes (`indexes/persist.ts`): one row per part of an index's saved bytes (`indexes/format/container.ts`).
 * The table is created by the first engine that saves an index, not at open (most files never hold
 * one, and a readonly engine cannot create it), so the statements are prepared where they run, after
 * the table is known to exist, rather than once per database.
 */
export const INDEX_CACHE_DDL = `CREATE TABLE IF NOT EXISTS index_cache (
  name TEXT NOT NULL,
  part INTEGER NOT NULL,
  stamp TEXT NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (name, part)
) STRICT`;

export const INDEX_CACHE_SQL = {
  exists: `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'index_cache'`,
  // Stamps first (without reading the blobs): a stale index is not read at all.
  stamps: 'SELECT part, stamp FROM index_cache WHERE name = ? ORDER BY part',
  data: 'SELECT data FROM index_cache WHERE name = ? ORDER BY part',
  remove: 'DELETE FROM index_cache WHERE name = ?',
  dropStale: 'DELETE FROM index_cache WHERE stamp <> ?',
  insert: 'INSERT INTO index_cache (name, part, stamp, data) VALUES (?, ?, ?, ?)',
} as const;
