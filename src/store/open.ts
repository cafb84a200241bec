/** Opens a SQLite file (or `:memory:`) with the pragmas a read-mostly analytical store wants. */
import Database from 'better-sqlite3';
import { SCHEMA, SCHEMA_VERSION } from './schema.js';

export type Db = Database.Database;

export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  const db = new Database(path, { readonly: options.readonly ?? false });
  if (path !== ':memory:' && !options.readonly) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -262144'); // 256 MiB page cache
  db.pragma('mmap_size = 1073741824');
  db.pragma('foreign_keys = ON');
  if (!options.readonly) {
    for (const ddl of SCHEMA) db.exec(ddl);
    setMeta(db, 'schema_version', String(SCHEMA_VERSION));
  }
  return db;
}

export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}
