/**
 * `prospectdb match --db FILE --businesses|--prospects INPUT.{jsonl,csv} [--explain] [--alternatives K]
 * [--min-confidence X]`:
 * streams the rows of INPUT through the match engine and writes one JSON result per line on stdout, in
 * input order; progress on stderr.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createGunzip } from 'node:zlib';
import { parseArgs } from 'node:util';
import { matchBusinessStream, matchProspectStream } from '../../core/match/index.js';
import { openEngine } from '../../engine.js';
import { progress } from '../progress.js';

const USAGE =
  'usage: prospectdb match --db FILE (--businesses|--prospects) INPUT.{jsonl,csv}[.gz] [--explain] [--alternatives K] [--min-confidence X]\n' +
  '       prospectdb match --db FILE (--businesses|--prospects) INPUT --truth COLUMN [--errors OUT.jsonl] [--json]';

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

export async function run(argv: string[]): Promise<number> {
  // Evaluation against a labelled column is its own path (match-truth.ts): it reads the whole file.
  if (argv.some((a) => a === '--truth' || a.startsWith('--truth=')))
    return (await import('./match-truth.js')).run(argv);
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      businesses: { type: 'string' },
      prospects: { type: 'string' },
      explain: { type: 'boolean', default: false },
      alternatives: { type: 'string' },
      'min-confidence': { type: 'string' },
      quiet: { type: 'boolean', short: 'q', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const input = values.businesses ?? values.prospects;
  if (values.help || !values.db || !input || (values.businesses && values.prospects)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if (reportMissing([values.db, input])) return 1;
  const alternatives = values.alternatives === undefined ? 0 : Number(values.alternatives);
  if (!Number.isInteger(alternatives) || alternatives < 0) {
    console.error('prospectdb: --alternatives takes a whole number ≥ 0');
    return 2;
  }
  const minRaw = values['min-confidence'];
  const minConfidence = minRaw === undefined ? undefined : Number(minRaw);
  if (minConfidence !== undefined && (minRaw?.trim() === '' || !(minConfidence >= 0 && minConfidence <= 1))) {
    console.error('prospectdb: --min-confidence takes a number from 0 to 1');
    return 2;
  }
  const engine = openEngine({ path: values.db, readonly: true });
  const bar = values.quiet ? null : progress();
  const total = statSync(input).size;
  let bytes = 0;
  const label = values.businesses ? 'match businesses' : 'match prospects';
  try {
    const chunks = chunksOf(input, (n) => (bytes += n));
    const isCsv = /\.csv(\.gz)?$/i.test(input);
    const rows = isCsv ? csvRows(chunks) : jsonlRows(chunks);
    const options = {
      explain: values.explain,
      alternatives,
      ...(minConfidence === undefined ? {} : { minConfidence }),
      onProgress: (n: number) => bar?.update(label, n, bytes, total),
    };
    const results = values.businesses
      ? matchBusinessStream(engine, rows, options)
      : matchProspectStream(engine, rows, options);
    const out = process.stdout;
    let buffer = '';
    let matched = 0;
    let count = 0;
    for await (const r of results) {
      count++;
      if (('business_id' in r ? r.business_id : r.prospect_id) !== null) matched++;
      buffer += JSON.stringify(r) + '\n';
      if (buffer.length > 1 << 16) {
        if (!out.write(buffer)) await once(out, 'drain');
        buffer = '';
      }
    }
    if (buffer.length > 0 && !out.write(buffer)) await once(out, 'drain');
    bar?.finish();
    if (!values.quiet)
      console.error(
        `${label}: ${count.toLocaleString('en-US')} rows, ${matched.toLocaleString('en-US')} matched`,
      );
    return 0;
  } finally {
    engine.close();
  }
}
