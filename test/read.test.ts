/**
 * The snapshot reader yields every line of a JSON Lines file, plain or gzipped, as a `JSON.parse` of
 * each line split at `\n` would: its 1-based number (blank lines counted, not yielded), its value and
 * raw bytes, or why it is not JSON; in order, whatever the batches and wherever the file's chunks
 * (1 MiB) cut a line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBatches, type RawRecord } from '../src/snapshot/read.js';
import { tempDir } from './support/temp.js';

const dir = tempDir('pdb-read-');

/** A line: a record (some long enough to straddle chunks), a blank line, or text that is not JSON. */
const line = fc.oneof(
  { weight: 8, arbitrary: fc.record({ id: fc.string(), n: fc.integer(), tags: fc.array(fc.string()) }) },
  { weight: 1, arbitrary: fc.string({ minLength: 20_000, maxLength: 300_000 }).map((pad) => ({ pad })) },
  { weight: 1, arbitrary: fc.constantFrom('', '  ', '\t\r') },
  { weight: 1, arbitrary: fc.constantFrom('{"open": ', 'nope', '[1,]') },
);

/** What the reader must yield for `text`. */
function oracle(text: string): { line: number; value?: unknown; raw?: string; error?: boolean }[] {
  const out: { line: number; value?: unknown; raw?: string; error?: boolean }[] = [];
  text.split('\n').forEach((l, i) => {
    const trimmed = l.replace(/^[ \t\r]+|[ \t\r]+$/g, '');
    if (trimmed === '') return;
    try {
      out.push({ line: i + 1, value: JSON.parse(trimmed), raw: trimmed });
    } catch {
      out.push({ line: i + 1, error: true });
    }
  });
  return out;
}

async function readAll(path: string, format: 'jsonl' | 'jsonl.gz'): Promise<RawRecord[][]> {
  const batches: RawRecord[][] = [];
  for await (const batch of readBatches(path, format)) batches.push(batch);
  return batches;
}

describe('readBatches', () => {
  it('yields every line in order with its number, value and raw bytes, plain or gzipped', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 400 }), fc.boolean(), async (lines, gz) => {
        const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
        const path = join(dir, `f${run++}.jsonl${gz ? '.gz' : ''}`);
        writeFileSync(path, gz ? gzipSync(text) : text);
        const batches = await readAll(path, gz ? 'jsonl.gz' : 'jsonl');
        const got = batches
          .flat()
          .map((r) =>
            r.error !== undefined
              ? { line: r.line, error: r.error.startsWith('invalid JSON: ') }
              : { line: r.line, value: r.value, raw: r.raw?.toString() },
          );
        expect(got).toEqual(oracle(text));
        expect(batches.every((b) => b.length > 0)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('yields small batches, within a chunk too, so a batch is prepared before the next is parsed', async () => {
    const path = join(dir, 'many.jsonl');
    writeFileSync(path, Array.from({ length: 1000 }, (_, i) => JSON.stringify({ i })).join('\n'));
    const batches = await readAll(path, 'jsonl');
    expect(batches.flat()).toHaveLength(1000);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(64);
  });
});
