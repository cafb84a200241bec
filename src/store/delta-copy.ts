/**
 * The first step of a delta made into a new file: the base file copied whole. Three ways, measured in
 * `bench/delta.bench.ts`: a byte copy (`copy`, a reflink where the file system has them), SQLite's
 * online backup (`backup`, page by page through a connection) and `VACUUM INTO` (`vacuum`, rewrites
 * every table and index: the slowest, the most compact).
 */
import { closeSync, constants, copyFileSync, existsSync, fsync, openSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

export type CopyMethod = 'copy' | 'backup' | 'vacuum';
export const COPY_METHODS: readonly CopyMethod[] = ['copy', 'backup', 'vacuum'];

/**
 * Copies the SQLite file `from` to `to` (which must not exist); returns the method used. `auto` is a
 * byte copy unless `from` has a write-ahead log with frames in it (its pages are not all in the main
 * file yet), then a backup, which reads through SQLite.
 */
export async function copySnapshotFile(
  from: string,
  to: string,
  method: CopyMethod | 'auto' = 'auto',
): Promise<CopyMethod> {
  const wal = `${from}-wal`;
  const m = method !== 'auto' ? method : existsSync(wal) && statSync(wal).size > 0 ? 'backup' : 'copy';
  if (m === 'copy') {
    copyFileSync(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    return m;
  }
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    if (m === 'backup') await db.backup(to);
    else db.prepare('VACUUM INTO ?').run(to);
  } finally {
    db.close();
  }
  return m;
}

/**
 * Starts writing the copy at `path` out to disk on libuv's pool while the delta is applied, so that
 * settling the new file waits only for the pages the delta and the index build changed, not for the
 * whole copy: at 1M prospects (a 2.4 GB copy) the settle took 1.9 s, 1.1–1.2 s with this. Resolves
 * when done, never rejects (the settle's own sync still makes the file durable).
 */
export function flushInBackground(path: string): Promise<void> {
  return new Promise((resolve) => {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      resolve();
      return;
    }
    fsync(fd, () => {
      closeSync(fd);
      resolve();
    });
  });
}
