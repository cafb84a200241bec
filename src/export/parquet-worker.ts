/**
 * The Parquet encoding of an export, on its own thread: the exporting thread reads and decodes the
 * stored records (SQLite, MessagePack) while this one encodes column pages, so the two costs overlap
 * instead of adding up. Receives batches of records packed with MessagePack (`null` ends the file),
 * acknowledges each batch once it is encoded (the sender keeps a few in flight, so memory stays bounded),
 * and answers `{ done: true }` once the file is complete, or `{ error }`.
 */
import { Unpackr } from 'msgpackr';
import { parentPort, workerData } from 'node:worker_threads';
import type { Column } from './columns.js';
import { ParquetSink } from './parquet.js';

export const PARQUET_WORKER_TAG = 'prospectdb-parquet-worker';

export interface ParquetWorkerData {
  tag: typeof PARQUET_WORKER_TAG;
  out: string;
  columns: Column[];
}

export type ParquetWorkerReply = { ack: true } | { done: true } | { error: string };

const data = workerData as Partial<ParquetWorkerData> | undefined;
if (parentPort && data?.tag === PARQUET_WORKER_TAG) {
  const port = parentPort;
  // One packer feeds one unpacker, in order: record structures are defined inline on first use.
  const unpackr = new Unpackr();
  let sink: ParquetSink | undefined;
  const reply = (m: ParquetWorkerReply) => port.postMessage(m);
  port.on('message', (batch: Uint8Array | null) => {
    try {
      sink ??= new ParquetSink(data.out!, data.columns!);
      if (batch === null) {
        sink.finish();
        reply({ done: true });
        return;
      }
      for (const r of unpackr.unpack(batch) as Record<string, unknown>[]) sink.add(r);
      reply({ ack: true });
    } catch (e) {
      reply({ error: e instanceof Error ? e.message : String(e) });
    }
  });
}
