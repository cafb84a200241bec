/**
 * The worker pool of a threaded load: JSON Lines cut into batches at line ends, prepared (parsed,
 * validated, encoded) on worker threads, consumed in order on this thread.
 */
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../errors.js';
import type { StreamFile } from '../snapshot/files.js';
import {
  attachBlobs,
  preparer,
  prepareLines,
  WORKER_TAG,
  type PreparedBatch,
  type StreamSetup,
  type WorkerMessage,
} from './load-worker.js';

/** Whether a stream is worth a worker: JSON Lines of at least `THREADED_MIN_BYTES`. */
export function threadable(file: StreamFile): boolean {
  return file.format !== 'msgpack' && statSync(file.path).size >= THREADED_MIN_BYTES;
}

/**
 * Bytes of whole lines per batch sent to a worker (≈ 140 prospects or 35 businesses). A worker holds a
 * batch's prepared rows until it posts them, and this thread holds them until it inserts them: in
 * batches of 1 MiB they outlived scavenges and were promoted to the old generation. 100k prospects on
 * two threads, quiet box, two runs: 256 KiB batches load 10,610–11,483 rows/s against 9,034–9,092 for
 * 1 MiB, with 16.5–18.3 s of CPU against 21.2–21.6 (128 KiB: the same as 256).
 */
const BATCH_BYTES = 1 << 18;
/** Smaller stream files load on this thread: starting workers costs more than they save. */
const THREADED_MIN_BYTES = 1 << 20;
/**
 * Batches in flight per worker: one being prepared and three queued in its port. A worker is handed its
 * next batch only when this thread runs its event loop, which it does not while it inserts or prepares
 * a batch itself (tens of ms each); with two in flight a worker sat idle a third of the rows phase
 * (CPU profile, 50k prospects, 2 threads), with four it has work for the whole of such a stretch.
 */
const IN_FLIGHT = 4;
/**
 * Batches read ahead per worker (given to a worker, queued, or prepared and not yet inserted): room for
 * this thread to prepare queued batches while the oldest one is still on a worker.
 */
const READ_AHEAD = 8;
/** Lets this thread's event loop run: the workers' finished batches are taken and new ones handed out. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * What starts a worker thread running the module `name` (without extension) beside the module of
 * `base` (its `import.meta.url`). Built, modules run from `dist/` as `name.js`. Under tsx or vitest they
 * run from `src/` as TypeScript: a worker does not inherit the parent's module hooks for its entry file,
 * so it registers tsx itself before importing `name.ts`; when tsx cannot be resolved, `undefined` (the
 * caller does the work on its own thread).
 */
export function workerSpawner(base: string, name: string, workerData: unknown): (() => Worker) | undefined {
  if (!base.endsWith('.ts')) {
    const url = new URL(`./${name}.js`, base);
    return () => new Worker(url, { workerData });
  }
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
  const url = new URL(`./${name}.ts`, base).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(url)}))`;
  return () => new Worker(boot, { eval: true, workerData });
}

/**
 * Workers that turn raw JSON lines into prepared rows. This thread reads and decompresses the file
 * (zlib runs on the libuv pool), cuts it at line ends into batches it transfers to the least busy
 * worker, and consumes the results in order: line numbers, bad-line reasons and duplicate detection
 * are the same as on the single-thread path. A batch read while every worker already has `IN_FLIGHT`
 * batches (or is still loading its module) waits in a queue: the next worker to finish or to become
 * ready takes it, or this thread prepares it when the batch it must insert next is not ready. This
 * thread is one of the load's threads, and its own share of the work (the inserts) is smaller than a
 * worker's: waiting would leave a core idle. So it does not wait for the workers to start either: it
 * prepares the first batches itself while they load their modules (up to 1-2 s of CPU each under tsx).
 */
export class LoadPool {
  /** Per worker: loading its module, ready for batches, or gone (it failed to start: never used). */
  private readonly state: ('booting' | 'ready' | 'gone')[];
  /** What the running stream does when a worker becomes ready or gone. */
  private onState: ((worker: number) => void) | undefined;

  private constructor(private readonly workers: Worker[]) {
    this.state = workers.map(() => 'booting');
    // Only this code's listeners are removed: a Worker keeps its own on itself (`removeAllListeners`
    // stopped its message port, and no result ever arrived).
    workers.forEach((w, i) => {
      const settle = (state: 'ready' | 'gone') => {
        w.off('message', onReady);
        w.off('error', onGone);
        w.off('exit', onGone);
        this.state[i] = state;
        this.onState?.(i);
      };
      const onReady = () => settle('ready');
      const onGone = () => settle('gone');
      w.on('message', onReady);
      w.on('error', onGone);
      w.on('exit', onGone);
    });
  }

  /**
   * Starts `n` workers without waiting for them to load; `undefined` (load on this thread) when they
   * cannot be started at all. A worker that fails while it loads is left out: this thread prepares
   * what it would have. (`spawn`: what starts one, by default the load worker.)
   */
  static async start(
    n: number,
    spawn = workerSpawner(import.meta.url, 'load-worker', { tag: WORKER_TAG }),
  ): Promise<LoadPool | undefined> {
    if (!spawn) return undefined;
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < n; i++) workers.push(spawn());
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
    let local: ReturnType<typeof preparer> | undefined;
    const busy = this.workers.map(() => 0);
    const waiting = new Map<number, { resolve: (b: PreparedBatch) => void; reject: (e: unknown) => void }>();
    const results: Promise<PreparedBatch>[] = [];
    let failure: unknown;
    const fail = (e: unknown) => {
      failure ??= e;
      for (const w of waiting.values()) w.reject(e);
      waiting.clear();
    };
    // Batches read but not yet given to anyone: the next free worker takes the oldest, and this thread
    // prepares the oldest itself when the batch it must insert next is not ready yet.
    const queued: { s: number; bytes: Uint8Array }[] = [];
    const ready = new Set<number>();
    const settle = (batch: PreparedBatch) => {
      ready.add(batch.seq);
      const w = waiting.get(batch.seq);
      waiting.delete(batch.seq);
      w?.resolve(batch);
    };
    const send = (w: number, s: number, bytes: Uint8Array) => {
      busy[w]!++;
      this.workers[w]!.postMessage({ type: 'batch', seq: s, firstLine: 1, bytes } satisfies WorkerMessage, [
        bytes.buffer as ArrayBuffer,
      ]);
    };
    /** Hands queued batches to worker `w` while it has room. */
    const feed = (w: number) => {
      while (busy[w]! < IN_FLIGHT && queued.length > 0 && failure === undefined) {
        const next = queued.shift()!;
        send(w, next.s, next.bytes);
      }
    };
    const onMessages = this.workers.map((_, i) => (m: PreparedBatch | { type: 'ready' }) => {
      if ('type' in m) return; // its start, seen by the constructor's listener
      busy[i]!--;
      attachBlobs(m);
      settle(m);
      feed(i);
    });
    // A worker that fails once started loses batches: the load fails. One that fails while it loads
    // (its state is `gone` by then: the constructor's listeners run first) had none.
    const onFailures = this.workers.map((_, i) => (e: unknown) => {
      if (this.state[i] === 'ready') fail(typeof e === 'number' ? new Error(`load worker exited (${e})`) : e);
    });
    this.onState = (w) => {
      if (this.state[w] === 'ready') feed(w);
    };
    this.workers.forEach((w, i) => {
      if (this.state[i] === 'gone') return;
      w.on('message', onMessages[i]!);
      w.on('error', onFailures[i]!);
      w.on('exit', onFailures[i]!);
      w.postMessage({ type: 'stream', ...setup } satisfies WorkerMessage);
    });
    let seq = 0;
    let consumed = 0;
    // Line numbers: each worker numbers the lines of its batch from 1 and counts its line ends; the
    // batches are consumed in order, so the lines before a batch are the sum of its predecessors' counts.
    let linesBefore = 0;
    const dispatch = (bytes: Uint8Array) => {
      const s = seq++;
      results.push(
        new Promise<PreparedBatch>((resolve, reject) => {
          if (failure !== undefined) reject(failure);
          else waiting.set(s, { resolve, reject });
        }),
      );
      let w = -1;
      for (let i = 0; i < busy.length; i++) {
        if (this.state[i] === 'ready' && (w < 0 || busy[i]! < busy[w]!)) w = i;
      }
      if (w >= 0 && busy[w]! < IN_FLIGHT) send(w, s, bytes);
      else queued.push({ s, bytes });
    };
    const prepareHere = () => {
      const { s, bytes } = queued.shift()!;
      if (!waiting.has(s)) return; // failed meanwhile
      local ??= preparer(setup);
      settle(prepareLines(local, { seq: s, firstLine: 1, bytes }));
    };
    const drain = async (keep: number) => {
      while (seq - consumed > keep) {
        if (!ready.has(consumed) && queued.length > 0 && failure === undefined) {
          prepareHere();
          await turn();
          continue;
        }
        const batch = await results[consumed]!;
        ready.delete(consumed);
        delete results[consumed];
        consumed++;
        if (linesBefore > 0)
          for (let i = 0; i < batch.lines.length; i++) batch.lines[i] = batch.lines[i]! + linesBefore;
        linesBefore += batch.newlines;
        consume(batch);
        // A ready result resolves without a trip through the event loop: take one between batches.
        await turn();
      }
    };
    try {
      // Whole lines go to a worker in a buffer of their own (transferred, not copied again): the bytes
      // after the last line end start the next buffer.
      let buf = new Uint8Array(BATCH_BYTES * 2);
      let size = 0;
      const cutAndSend = async (final: boolean) => {
        const cut = final ? size : buf.lastIndexOf(10, size - 1) + 1;
        if (cut <= 0) return;
        const rest = size - cut;
        const next = new Uint8Array(Math.max(BATCH_BYTES * 2, rest * 2));
        next.set(buf.subarray(cut, size));
        dispatch(buf.subarray(0, cut));
        buf = next;
        size = rest;
        await drain(final ? 0 : READ_AHEAD * this.workers.length);
      };
      const append = async (chunk: Uint8Array) => {
        if (size + chunk.length > buf.length) {
          const grown = new Uint8Array((size + chunk.length) * 2);
          grown.set(buf.subarray(0, size));
          buf = grown;
        }
        buf.set(chunk, size);
        size += chunk.length;
        if (size >= BATCH_BYTES) await cutAndSend(false);
      };
      try {
        if (file.format === 'jsonl') {
          // Read straight into the batch buffer: no stream chunks to copy.
          const handle = await open(file.path, 'r');
          try {
            for (;;) {
              if (buf.length - size < BATCH_BYTES) {
                const grown = new Uint8Array(size + BATCH_BYTES * 2);
                grown.set(buf.subarray(0, size));
                buf = grown;
              }
              const { bytesRead } = await handle.read(buf, size, buf.length - size, null);
              if (bytesRead === 0) break;
              onChunk(Buffer.from(buf.buffer, buf.byteOffset + size, bytesRead));
              size += bytesRead;
              if (size >= BATCH_BYTES) await cutAndSend(false);
            }
          } finally {
            await handle.close();
          }
        } else {
          const raw = createReadStream(file.path, { highWaterMark: 1 << 20 });
          raw.on('data', (chunk) => onChunk(chunk as Buffer));
          const input = raw.pipe(createGunzip({ chunkSize: 1 << 18 }));
          for await (const chunk of input as AsyncIterable<Buffer>) await append(chunk);
        }
      } catch (e) {
        if (e instanceof EngineError) throw e;
        throw new EngineError('SNAPSHOT_INVALID', `${file.path}: cannot be read (${(e as Error).message})`, {
          cause: e,
        });
      }
      if (size > 0) await cutAndSend(true);
      await drain(0);
    } finally {
      this.onState = undefined;
      this.workers.forEach((w, i) => {
        w.off('message', onMessages[i]!);
        w.off('error', onFailures[i]!);
        w.off('exit', onFailures[i]!);
      });
      // Settle what is left (after an error) so no rejection goes unhandled.
      for (const r of results) r?.catch(() => undefined);
    }
  }
}
