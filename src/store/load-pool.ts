/**
 * The worker pool of a threaded load: JSON Lines cut into batches at line ends, prepared (parsed,
 * validated, encoded) on worker threads, consumed in order on this thread.
 */
import { createReadStream, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../errors.js';
import type { StreamFile } from '../snapshot/files.js';
import {
  attachBlobs,
  WORKER_TAG,
  type PreparedBatch,
  type StreamSetup,
  type WorkerMessage,
} from './load-worker.js';

/** Whether a stream is worth a worker: JSON Lines of at least `THREADED_MIN_BYTES`. */
export function threadable(file: StreamFile): boolean {
  return file.format !== 'msgpack' && statSync(file.path).size >= THREADED_MIN_BYTES;
}

/** Bytes of whole lines per batch sent to a worker (≈ 500 prospects or 140 businesses). */
const BATCH_BYTES = 1 << 20;
/** Smaller stream files load on this thread: starting workers costs more than they save. */
const THREADED_MIN_BYTES = 1 << 20;
/** Batches in flight per worker: one being prepared, one queued, so a worker never waits. */
const IN_FLIGHT = 2;

/**
 * Built, this module runs from `dist/` and its worker is `load-worker.js`. Under tsx or vitest it runs
 * from `src/` as TypeScript: a worker does not inherit the parent's module hooks for its entry file, so
 * it registers tsx itself before importing `load-worker.ts`; when tsx cannot be resolved, no threads.
 */
function workerSpawner(): (() => Worker) | undefined {
  const workerData = { tag: WORKER_TAG };
  if (!import.meta.url.endsWith('.ts')) {
    const url = new URL('./load-worker.js', import.meta.url);
    return () => new Worker(url, { workerData });
  }
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
  const url = new URL('./load-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(url)}))`;
  return () => new Worker(boot, { eval: true, workerData });
}

/**
 * Workers that turn raw JSON lines into prepared rows. This thread reads, hashes and decompresses the
 * file (zlib runs on the libuv pool), cuts it at line ends into batches it transfers round-robin, and
 * consumes the results in order: line numbers, bad-line reasons and duplicate detection are the same
 * as on the single-thread path.
 */
export class LoadPool {
  private constructor(private readonly workers: Worker[]) {}

  /** Starts `n` workers; `undefined` (load on this thread) when they cannot start. */
  static async start(n: number): Promise<LoadPool | undefined> {
    const spawn = workerSpawner();
    if (!spawn) return undefined;
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < n; i++) workers.push(spawn());
      // Only this code's listeners are removed: a Worker keeps its own on itself (`removeAllListeners`
      // stopped its message port, and no result ever arrived).
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve, reject) => {
              const onExit = (code: number) => done(new Error(`load worker exited (${code})`));
              const done = (error?: unknown) => {
                w.off('message', onReady);
                w.off('error', done);
                w.off('exit', onExit);
                if (error === undefined) resolve();
                else reject(error as Error);
              };
              const onReady = () => done();
              w.on('message', onReady);
              w.on('error', done);
              w.on('exit', onExit);
            }),
        ),
      );
      return new LoadPool(workers);
    } catch {
      await Promise.all(workers.map((w) => w.terminate()));
      return undefined;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  async run(
    file: StreamFile,
    setup: StreamSetup,
    onChunk: (chunk: Buffer) => void,
    consume: (batch: PreparedBatch) => void,
  ): Promise<void> {
    const waiting = new Map<number, { resolve: (b: PreparedBatch) => void; reject: (e: unknown) => void }>();
    const results: Promise<PreparedBatch>[] = [];
    let failure: unknown;
    const fail = (e: unknown) => {
      failure ??= e;
      for (const w of waiting.values()) w.reject(e);
      waiting.clear();
    };
    const onMessage = (batch: PreparedBatch) => {
      attachBlobs(batch);
      const w = waiting.get(batch.seq);
      waiting.delete(batch.seq);
      w?.resolve(batch);
    };
    const onExit = (code: number) => fail(new Error(`load worker exited (${code})`));
    for (const w of this.workers) {
      w.on('message', onMessage);
      w.on('error', fail);
      w.on('exit', onExit);
      w.postMessage({ type: 'stream', ...setup } satisfies WorkerMessage);
    }
    let seq = 0;
    let firstLine = 1;
    let consumed = 0;
    const dispatch = (piece: Buffer) => {
      const bytes = new Uint8Array(piece.length);
      bytes.set(piece);
      const s = seq++;
      results.push(
        new Promise<PreparedBatch>((resolve, reject) => {
          if (failure !== undefined) reject(failure);
          else waiting.set(s, { resolve, reject });
        }),
      );
      this.workers[s % this.workers.length]!.postMessage(
        { type: 'batch', seq: s, firstLine, bytes } satisfies WorkerMessage,
        [bytes.buffer],
      );
      for (let i = piece.indexOf(10); i !== -1; i = piece.indexOf(10, i + 1)) firstLine++;
    };
    const drain = async (keep: number) => {
      while (seq - consumed > keep) {
        const batch = await results[consumed]!;
        delete results[consumed];
        consumed++;
        consume(batch);
      }
    };
    try {
      const raw = createReadStream(file.path, { highWaterMark: 1 << 20 });
      raw.on('data', (chunk) => onChunk(chunk as Buffer));
      const input = file.format === 'jsonl.gz' ? raw.pipe(createGunzip({ chunkSize: 1 << 18 })) : raw;
      let parts: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of input as AsyncIterable<Buffer>) {
          parts.push(chunk);
          size += chunk.length;
          if (size < BATCH_BYTES) continue;
          const buf = Buffer.concat(parts, size);
          const cut = buf.lastIndexOf(10);
          if (cut === -1) {
            parts = [buf];
            continue;
          }
          dispatch(buf.subarray(0, cut + 1));
          const rest = buf.subarray(cut + 1);
          parts = rest.length ? [rest] : [];
          size = rest.length;
          await drain(IN_FLIGHT * this.workers.length);
        }
      } catch (e) {
        throw new EngineError('SNAPSHOT_INVALID', `${file.path}: cannot be read (${(e as Error).message})`, {
          cause: e,
        });
      }
      if (size > 0) dispatch(Buffer.concat(parts, size));
      await drain(0);
    } finally {
      for (const w of this.workers) {
        w.off('message', onMessage);
        w.off('error', fail);
        w.off('exit', onExit);
      }
      // Settle what is left (after an error) so no rejection goes unhandled.
      for (const r of results) r?.catch(() => undefined);
    }
  }
}
