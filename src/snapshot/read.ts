/**
 * Streams the records of one snapshot file in batches. The only code that reads input files: it parses,
 * it does not validate. Raw bytes are hashed on the way so that the same files give the same snapshot id.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { UnpackrStream } from 'msgpackr';
import type { StreamFormat } from './files.js';

/**
 * One input record: its 1-based line (or record index for MessagePack) and its value or parse error.
 * JSON Lines records also carry `raw`, the line's bytes (surrounding blanks trimmed): the loader stores
 * them as the record's document instead of encoding the parsed value again.
 */
export type RawRecord =
  { line: number; value: unknown; raw?: Buffer; error?: undefined } | { line: number; error: string };

/**
 * Records per batch, yielded as soon as they are parsed (within a chunk too): a batch's parsed
 * objects then die young. A whole 1 MiB chunk (~550 prospects) parsed before its first record was
 * prepared lived across the scavenges of its own preparation: a 100k-prospect load on one thread
 * promoted 384 MB to the old generation (145 scavenges, 8 mark-compacts); in batches of 64, 88 MB (3).
 */
const BATCH = 64;
/** Decompressed chunk size: fewer, larger chunks cost less per byte than zlib's default 16 KiB. */
const GUNZIP_CHUNK = 1 << 18;

function source(path: string, onChunk: (chunk: Buffer) => void): Readable {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  file.on('data', (chunk) => onChunk(chunk as Buffer));
  return file;
}

const isBlank = (b: number) => b === 32 || b === 9 || b === 13 || b === 10;

/**
 * Splits the stream at `\n` on the bytes (a line that straddles two chunks is the only copy) and parses
 * each line. Blank lines are skipped but counted, as are the lines of a text editor.
 */
async function* jsonLines(input: Readable): AsyncGenerator<RawRecord[]> {
  let batch: RawRecord[] = [];
  let line = 0;
  let rest: Buffer | undefined;
  const take = (buf: Buffer, start: number, end: number) => {
    line++;
    while (start < end && isBlank(buf[start]!)) start++;
    while (end > start && isBlank(buf[end - 1]!)) end--;
    if (start === end) return;
    const text = buf.toString('utf8', start, end);
    try {
      batch.push({ line, value: JSON.parse(text), raw: buf.subarray(start, end) });
    } catch (e) {
      // Other Unicode blanks (what `String.prototype.trim` removes) make an empty line too.
      if (text.trim() !== '') batch.push({ line, error: `invalid JSON: ${(e as Error).message}` });
    }
  };
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(10);
    if (rest !== undefined) {
      if (nl === -1) {
        rest = Buffer.concat([rest, chunk]);
        continue;
      }
      const joined = Buffer.concat([rest, chunk.subarray(0, nl)]);
      rest = undefined;
      take(joined, 0, joined.length);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    while (nl !== -1) {
      take(chunk, start, nl);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (start < chunk.length) rest = chunk.subarray(start);
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (rest !== undefined) take(rest, 0, rest.length);
  if (batch.length) yield batch;
}

async function* msgpackValues(input: Readable): AsyncGenerator<RawRecord[]> {
  const values = input.pipe(new UnpackrStream({ mapsAsObjects: true }));
  let batch: RawRecord[] = [];
  let line = 0;
  try {
    for await (const value of values) {
      batch.push({ line: ++line, value });
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
  } catch (e) {
    // A corrupt MessagePack stream cannot be resynchronised: report where it broke and stop.
    batch.push({ line: line + 1, error: `invalid MessagePack: ${(e as Error).message}` });
  }
  if (batch.length) yield batch;
}

/** Reads a stream file in batches; `onChunk` sees the raw file bytes (for hashing and progress). */
export function readBatches(
  path: string,
  format: StreamFormat,
  onChunk: (chunk: Buffer) => void = () => undefined,
): AsyncGenerator<RawRecord[]> {
  const raw = source(path, onChunk);
  if (format === 'msgpack') return msgpackValues(raw);
  return jsonLines(format === 'jsonl.gz' ? raw.pipe(createGunzip({ chunkSize: GUNZIP_CHUNK })) : raw);
}
