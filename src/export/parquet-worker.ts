/**
 * The column thread of a Parquet export (`parquet.ts`): stored records in (a step's buffer at a time,
 * from the reading thread), typed columns built from their bytes (`columnar.ts`), written as one Arrow
 * IPC stream per row group (`arrow-ipc.ts`) and handed to the encoder's thread. Buffers go back and
 * forth (transferred, reused) instead of being allocated per step or per row group. The reading thread
 * only steps SQLite; this thread and the encoder's share the rest, about evenly.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { isEngineError } from '../errors.js';
import { writeRecordBatch } from './arrow-ipc.js';
import { ColumnarBatch } from './columnar.js';
import { COLUMNS_TAG, type ColumnsReply, type ColumnsSetup, type Frame } from './parquet.js';
import { readSource, type StoredBatch } from '../core/stored-records.js';

/** Builds row groups from stored batches and hands each, framed, to the encoder. */
function columnThread(port: MessagePort, setup: ColumnsSetup) {
  const rows = new ColumnarBatch(setup.columns);
  const { encoder } = setup;
  /** Frames the encoder gave back, to write the next row groups into. */
  const frames: ArrayBuffer[] = [];
  let ahead = 0;
  let taken: (() => void) | undefined;
  encoder.on('message', (m: Frame) => {
    frames.push(m.frame);
    ahead--;
    taken?.();
  });

  /** Writes the buffered records as one IPC stream and hands it to the encoder. */
  async function send() {
    while (ahead >= setup.ahead) await new Promise<void>((r) => (taken = r));
    const ipc = writeRecordBatch(setup.schema, setup.columns, rows.finish(), rows.length, frames.pop());
    rows.reset();
    ahead++;
    encoder.postMessage(ipc satisfies Frame, [ipc.frame]);
  }

  let sent = 0;
  /** Adds a batch's records, handing each full row group over. */
  async function add({ bytes, starts, ends, replace }: StoredBatch) {
    for (let i = 0; i < starts.length; i++) {
      rows.add(bytes.subarray(starts[i], ends[i]), replace?.[i]);
      if (rows.length === setup.rowGroup) {
        await send();
        sent++;
      }
    }
  }
  async function flush() {
    if (rows.length > 0 || sent === 0) await send();
    encoder.postMessage(null);
    port.postMessage('flushed' satisfies ColumnsReply);
  }
  const failed = (e: unknown) => {
    const reply: ColumnsReply = {
      error: String((e instanceof Error && e.stack) || e),
      ...(isEngineError(e) && e.code === 'CONFLICT' ? { conflict: true } : {}),
    };
    port.postMessage(reply);
  };

  if (setup.source) {
    // This thread reads the records itself, a step at a time, and reports progress.
    const source = setup.source;
    void (async () => {
      let n = 0;
      for (const batch of readSource(source)) {
        await add(batch);
        n += batch.starts.length;
        port.postMessage({ read: n } satisfies ColumnsReply);
      }
      await flush();
    })().catch(failed);
    return;
  }
  // Batches are handled one at a time, in order: each waits for the previous one (and its sends).
  let chain = Promise.resolve();
  port.on('message', (m: StoredBatch | null) => {
    chain = chain
      .then(async () => {
        if (m === null) return flush();
        await add(m);
        const reply: ColumnsReply = { taken: m.bytes.buffer as ArrayBuffer };
        port.postMessage(reply, [reply.taken]);
      })
      .catch(failed);
  });
}

if (parentPort && (workerData as { tag?: string } | undefined)?.tag === COLUMNS_TAG) {
  columnThread(parentPort, workerData as ColumnsSetup);
}
