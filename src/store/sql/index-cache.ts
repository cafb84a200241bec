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
  // An index's root and its parts (`name/…`): the names between `name/` and `name0` ('0' follows '/').
  // Names and part numbers only: the primary-key index answers it without reading a row (and its blob).
  listing: 'SELECT name, part FROM index_cache WHERE name = ? OR (name > ? AND name < ?) ORDER BY name, part',
  data: 'SELECT data FROM index_cache WHERE name = ? ORDER BY part',
  remove: 'DELETE FROM index_cache WHERE name = ?',
  insert: 'INSERT INTO index_cache (name, part, stamp, data) VALUES (?, ?, ?, ?)',
} as const;
