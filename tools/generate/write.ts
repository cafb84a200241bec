/**
 * Writing a record stream to disk as JSON Lines, gzip-compressed JSON Lines or a MessagePack stream
 * (concatenated values). Records are encoded one by one into a ~1 MB buffer that is handed to the file
 * with back-pressure, so memory stays flat whatever the count. (Encoding each small string into the
 * buffer is several times faster than UTF-8-encoding one large concatenated string.)
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { PassThrough, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Packr } from 'msgpackr';

export type SnapshotFormat = 'jsonl' | 'jsonl.gz' | 'msgpack';
export const FORMATS: readonly SnapshotFormat[] = ['jsonl', 'jsonl.gz', 'msgpack'];

const CHUNK = 1 << 20;
const NEWLINE = 10;

/** Writes `records` to `path`; resolves with how many were written once the file is complete. */
export async function writeRecords(
  path: string,
  format: SnapshotFormat,
  records: Iterable<unknown> | AsyncIterable<unknown>,
): Promise<number> {
  const out: Duplex = format === 'jsonl.gz' ? createGzip() : new PassThrough();
  const done = pipeline(out, createWriteStream(path));
  // Plain maps (no msgpackr record extension), so any MessagePack reader can decode the stream.
  const packr = format === 'msgpack' ? new Packr({ useRecords: false }) : null;
  let buffer = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  let count = 0;
  const flush = async (): Promise<void> => {
    if (used === 0) return;
    const full = buffer.subarray(0, used);
    buffer = Buffer.allocUnsafe(CHUNK);
    used = 0;
    if (!out.write(full)) await once(out, 'drain');
  };
  const put = async (record: unknown): Promise<void> => {
    if (packr) {
      const bytes = packr.pack(record);
      if (used + bytes.length > CHUNK) await flush();
      if (bytes.length > CHUNK) {
        if (!out.write(Buffer.from(bytes))) await once(out, 'drain');
      } else {
        used += bytes.copy(buffer, used);
      }
    } else {
      const line = JSON.stringify(record);
      // A UTF-16 code unit takes at most 3 UTF-8 bytes.
      if (used + line.length * 3 + 1 > CHUNK) await flush();
      if (line.length * 3 + 1 > CHUNK) {
        if (!out.write(line + '\n')) await once(out, 'drain');
      } else {
        used += buffer.write(line, used);
        buffer[used++] = NEWLINE;
      }
    }
  };
  // A synchronous source is not awaited per record (a million awaits cost more than the writes).
  if (Symbol.iterator in records) {
    for (const record of records) {
      count++;
      await put(record);
    }
  } else {
    for await (const record of records) {
      count++;
      await put(record);
    }
  }
  await flush();
  out.end();
  await done;
  return count;
}
