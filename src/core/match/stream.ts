/**
 * Streaming batch API: any number of rows from a (sync or async) iterable, answered in order, in chunks
 * so a 1M-row file never sits in memory and the event loop breathes between chunks.
 */
import type { Context } from '../../runtime/context.js';
import { matchBusinessRows, matchProspectRows, minConfidenceOf } from './batch.js';
import type {
  BusinessMatchRow,
  BusinessRowInput,
  MatchOptions,
  ProspectMatchRow,
  ProspectRowInput,
} from './types.js';

export interface StreamOptions extends MatchOptions {
  /** Rows matched per chunk (default 2048). */
  chunkSize?: number;
  /** Called after each chunk with the number of rows answered so far. */
  onProgress?: (rows: number) => void;
}

async function* chunked<In, Out>(
  rows: AsyncIterable<In> | Iterable<In>,
  size: number,
  run: (chunk: In[]) => Out[],
  onProgress?: (rows: number) => void,
): AsyncGenerator<Out> {
  let chunk: In[] = [];
  let done = 0;
  for await (const row of rows) {
    chunk.push(row);
    if (chunk.length >= size) {
      const out = run(chunk);
      chunk = [];
      done += out.length;
      yield* out;
      onProgress?.(done);
    }
  }
  if (chunk.length > 0) {
    const out = run(chunk);
    done += out.length;
    yield* out;
    onProgress?.(done);
  }
}

/**
 * Matches a stream of business rows, yielding one result per row in input order.
 * @example for await (const r of matchBusinessStream(engine, rowsOf('crm.jsonl'))) write(r);
 */
export function matchBusinessStream(
  engine: Context,
  rows: AsyncIterable<BusinessRowInput> | Iterable<BusinessRowInput>,
  options: StreamOptions = {},
): AsyncGenerator<BusinessMatchRow> {
  minConfidenceOf(options); // a bad threshold fails at the call, not at the first row
  return chunked(
    rows,
    options.chunkSize ?? 2048,
    (c) => matchBusinessRows(engine, c, options),
    options.onProgress,
  );
}

/**
 * Matches a stream of prospect rows, yielding one result per row in input order.
 * @example for await (const r of matchProspectStream(engine, rowsOf('leads.csv'))) write(r);
 */
export function matchProspectStream(
  engine: Context,
  rows: AsyncIterable<ProspectRowInput> | Iterable<ProspectRowInput>,
  options: StreamOptions = {},
): AsyncGenerator<ProspectMatchRow> {
  minConfidenceOf(options); // a bad threshold fails at the call, not at the first row
  return chunked(
    rows,
    options.chunkSize ?? 2048,
    (c) => matchProspectRows(engine, c, options),
    options.onProgress,
  );
}
