/**
 * Streams the records of one snapshot file in batches. The only code that reads input files: it parses,
 * it does not validate. Raw bytes are hashed on the way so that the same files give the same snapshot id.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { UnpackrStream } from 'msgpackr';
import type { StreamFormat } from './files.js';

/** One input record: its 1-based line (or record index for MessagePack) and its value or parse error. */
export type RawRecord = { line: number; value: unknown; error?: undefined } | { line: number; error: string };

const BATCH = 2048;

function source(path: string, onChunk: (chunk: Buffer) => void): Readable {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  file.on('data', (chunk) => onChunk(chunk as Buffer));
  return file;
}

async function* jsonLines(input: Readable): AsyncGenerator<RawRecord[]> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let batch: RawRecord[] = [];
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    try {
      batch.push({ line, value: JSON.parse(text) });
    } catch (e) {
      batch.push({ line, error: `invalid JSON: ${(e as Error).message}` });
    }
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
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
  return jsonLines(format === 'jsonl.gz' ? raw.pipe(createGunzip()) : raw);
}
