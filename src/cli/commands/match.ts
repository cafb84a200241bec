/**
 * `prospectdb match --db FILE --businesses|--prospects INPUT.{jsonl,csv} [--explain] [--alternatives K]
 * [--min-confidence X]`:
 * streams the rows of INPUT through the match engine and writes one JSON result per line on stdout, in
 * input order; progress on stderr.
 */
import { statSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { matchBusinessStream, matchProspectStream } from '../../core/match/index.js';
import { openEngine } from '../../engine.js';
import { progress } from '../progress.js';
import { chunksOf, csvRows, jsonlRows, reportMissing } from '../rows.js';

const USAGE =
  'usage: prospectdb match --db FILE (--businesses|--prospects) INPUT.{jsonl,csv}[.gz] [--explain] [--alternatives K] [--min-confidence X]\n' +
  '       prospectdb match --db FILE (--businesses|--prospects) INPUT --truth COLUMN [--errors OUT.jsonl] [--json]';

// The input readers live in `../rows.ts` (match-truth reads them too); re-exported for callers.
export { chunksOf, csvRows, jsonlRows, reportMissing };

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
