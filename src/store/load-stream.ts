/**
 * One stream of a load: its rows cleared and its secondary indexes dropped, every line prepared (on
 * this thread or the worker pool), bad and duplicate lines reported, the rest inserted, the indexes
 * rebuilt. The caller holds the transaction.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { EngineError } from '../errors.js';
import type { StreamFile, StreamName } from '../snapshot/files.js';
import { readBatches } from '../snapshot/read.js';
import { companyRows } from './load-companies.js';
import { inserter } from './load-insert.js';
import { hashFileOffThread } from './load-hash.js';
import { addKeys, type ProspectKeys } from './load-keys.js';
import { threadable, type LoadPool } from './load-pool.js';
import { preparer, type Prepared, type StreamSetup } from './load-worker.js';
import { hasInlineId, type Db } from './open.js';
import type { TABLE_INDEXES } from './schema.js';
import { createIndexes, dropIndexes, recreateTableSql } from './schema.js';
import { lineChecker, type LoadIssue, type LoadOptions, type StreamReport } from './load-report.js';
import { clearStreamSql } from './sql/load.js';

export interface StreamContext {
  asOfYear: number;
  report: (issue: LoadIssue) => void;
  onProgress: LoadOptions['onProgress'];
  /** Started on the first stream large enough to use it; `undefined` when threads are off. */
  pool: () => Promise<LoadPool | undefined>;
  /** Prospects only: where the rows' exact match keys go (see `load-keys.ts`). */
  keys?: ProspectKeys;
}

/** Loads one stream; resolves with its report and the SHA-256 (hex) of its file's bytes. */
export async function loadStream(
  db: Db,
  file: StreamFile,
  ctx: StreamContext,
): Promise<{ result: StreamReport; digest: string }> {
  const result: StreamReport = {
    stream: file.stream,
    file: file.path,
    read: 0,
    loaded: 0,
    invalid: 0,
    duplicates: 0,
  };
  const bytesTotal = statSync(file.path).size;
  let bytesRead = 0;
  // With workers, the file is hashed on a thread of its own; otherwise here, as it is read.
  const hash = createHash('sha256');
  let hashing = true;
  const onChunk = (chunk: Buffer) => {
    bytesRead += chunk.length;
    if (hashing) hash.update(chunk);
  };
  const progress = () => ctx.onProgress?.({ stream: file.stream, rows: result.read, bytesRead, bytesTotal });

  const tables = TABLES_OF[file.stream];
  // A table with its id's UNIQUE constraint (an older file) would keep that index through the inserts.
  for (const t of tables) if (hasInlineId(db, t)) db.exec(recreateTableSql(t));
  for (const t of tables) db.exec(dropIndexes(t));
  clearStream(db, file.stream);
  const setup: StreamSetup = {
    stream: file.stream,
    asOfYear: ctx.asOfYear,
    loadedAt: Date.now(),
    companies: file.stream === 'prospects' ? companyRows(db) : undefined,
  };
  const insert = inserter(db, file.stream);
  const check = lineChecker(file.path, result, ctx.report);
  const take = (line: number, prepared: Prepared) => {
    const item = check(line, prepared);
    if (!item) return;
    const rowid = insert.add(item.values);
    if (ctx.keys) addKeys(ctx.keys, item.keys, rowid);
    result.loaded++;
  };

  const pool = threadable(file) ? await ctx.pool() : undefined;
  let digest: Promise<string> | undefined;
  if (pool) {
    hashing = false;
    digest = hashFileOffThread(file.path);
    digest.catch(() => undefined); // awaited below; a read failure is reported by the load itself
    await pool.run(file, setup, onChunk, (batch) => {
      for (let i = 0; i < batch.items.length; i++) take(batch.lines[i]!, batch.items[i]!);
      progress();
    });
  } else {
    const prepare = preparer(setup);
    for await (const batch of unreadable(file.path, readBatches(file.path, file.format, onChunk))) {
      for (const raw of batch)
        take(raw.line, raw.error !== undefined ? raw.error : prepare(raw.value, raw.raw));
      progress();
    }
  }
  insert.flush();
  for (const t of tables) db.exec(createIndexes(t));
  return { result, digest: digest ? await digest : hash.digest('hex') };
}

/** A file that cannot be read or decompressed refuses the load, naming the file. */
async function* unreadable<T>(path: string, batches: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* batches;
  } catch (e) {
    throw new EngineError('SNAPSHOT_INVALID', `${path}: cannot be read (${(e as Error).message})`, {
      cause: e,
    });
  }
}

/** The tables whose secondary indexes a stream's bulk load drops and rebuilds (events keep theirs). */
const TABLES_OF: Record<StreamName, (keyof typeof TABLE_INDEXES)[]> = {
  businesses: ['businesses'],
  prospects: ['prospects'],
  events: [],
};

function clearStream(db: Db, stream: StreamName): void {
  db.exec(clearStreamSql(stream));
}
