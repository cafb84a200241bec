/** Input rows for the match commands: JSONL or CSV files, gunzipped when they end in `.gz`. */
import { createReadStream, existsSync } from 'node:fs';
import { createGunzip } from 'node:zlib';

/** Says on stderr which of `paths` does not exist; true when one is missing. */
export function reportMissing(paths: readonly string[]): boolean {
  const missing = paths.find((path) => !existsSync(path));
  if (missing !== undefined) console.error(`prospectdb: ${missing}: no such file`);
  return missing !== undefined;
}

/** Raw byte chunks of a file (gunzipped when it ends in .gz), counting the bytes read on disk. */
export async function* chunksOf(path: string, onBytes: (n: number) => void): AsyncGenerator<string> {
  const file = createReadStream(path);
  file.on('data', (b) => onBytes((b as Buffer).length));
  const source = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  source.setEncoding('utf8');
  for await (const chunk of source) yield chunk as string;
}

/** One JSON object per non-blank line. */
export async function* jsonlRows(chunks: AsyncIterable<string>): AsyncGenerator<Record<string, unknown>> {
  let rest = '';
  let line = 0;
  const parse = (text: string) => {
    line++;
    try {
      const v = JSON.parse(text) as unknown;
      return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      throw new Error(`line ${line}: not valid JSON`);
    }
  };
  for await (const chunk of chunks) {
    rest += chunk;
    let nl = rest.indexOf('\n');
    while (nl !== -1) {
      const text = rest.slice(0, nl).trim();
      rest = rest.slice(nl + 1);
      if (text.length > 0) yield parse(text);
      else line++;
      nl = rest.indexOf('\n');
    }
  }
  if (rest.trim().length > 0) yield parse(rest.trim());
}

/** RFC 4180 CSV (quoted fields may hold commas, quotes and newlines); the first record names the columns. */
export async function* csvRows(chunks: AsyncIterable<string>): AsyncGenerator<Record<string, string>> {
  let header: string[] | null = null;
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let afterQuote = false;
  const emit = (): Record<string, string> | null => {
    record.push(field);
    field = '';
    const r = record;
    record = [];
    if (r.length === 1 && r[0] === '') return null; // blank line
    if (header === null) {
      header = r.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim());
      return null;
    }
    const row: Record<string, string> = {};
    header.forEach((h, i) => {
      const v = r[i];
      if (v !== undefined && v !== '') row[h] = v;
    });
    return row;
  };
  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as string;
      if (quoted) {
        if (c === '"') {
          quoted = false;
          afterQuote = true;
        } else field += c;
      } else if (c === '"') {
        if (afterQuote) field += '"'; // "" inside a quoted field
        quoted = true;
        afterQuote = false;
      } else {
        afterQuote = false;
        if (c === ',') {
          record.push(field);
          field = '';
        } else if (c === '\n') {
          const row = emit();
          if (row !== null) yield row;
        } else if (c !== '\r') field += c;
      }
    }
  }
  if (field !== '' || record.length > 0) {
    const row = emit();
    if (row !== null) yield row;
  }
}
