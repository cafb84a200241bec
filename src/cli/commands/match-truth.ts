/**
 * `prospectdb match --db FILE --businesses|--prospects INPUT --truth COLUMN [--errors OUT.jsonl]`: scores
 * the matcher against a labelled file (the COLUMN holds the expected id, empty for "no match") and prints
 * precision, recall and F1 overall and per `matched_on` kind, and the curve over `min_confidence`; the
 * rows that were wrong or missed go to OUT.jsonl for inspection. The file is read whole: a labelled set
 * is meant to be inspected, not streamed.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { evaluateMatches, type Evaluation, type Scores } from '../../core/match/evaluate.js';
import { openEngine } from '../../engine.js';
import { textTable } from '../table.js';
import { chunksOf, csvRows, jsonlRows, reportMissing } from '../rows.js';

const USAGE =
  'usage: prospectdb match --db FILE (--businesses|--prospects) INPUT.{jsonl,csv}[.gz] --truth COLUMN [--errors OUT.jsonl] [--min-confidence X] [--json]';

const pct = (x: number) => (x * 100).toFixed(2) + '%';

function scoreRow(name: string, s: Scores): string[] {
  return [
    name,
    String(s.rows),
    String(s.matched),
    String(s.correct),
    pct(s.precision),
    pct(s.recall),
    s.f1.toFixed(4),
  ];
}

/** The evaluation as text: overall, per matched_on kind, the curve. */
export function formatEvaluation(e: Evaluation): string {
  const head = ['', 'rows', 'matched', 'correct', 'precision', 'recall', 'F1'];
  const kinds = Object.entries(e.byMatchedOn).map(([k, s]) => scoreRow(k, s));
  const curve = e.curve.map((p) => scoreRow(`≥ ${p.threshold.toFixed(2)}`, p));
  return [
    `${e.entity}: ${e.overall.rows} rows, ${e.overall.positives} labelled with an id`,
    '',
    textTable([head, scoreRow('overall', e.overall)]),
    '',
    'per matched_on (recall among the rows answered that way; "none" holds the missed rows)',
    textTable([['matched_on', ...head.slice(1)], ...kinds]),
    '',
    'curve over min_confidence (a row keeps its answer iff match_confidence ≥ the threshold)',
    textTable([['min_confidence', ...head.slice(1)], ...curve]),
    '',
    `wrong: ${e.wrong.length}, missed: ${e.missed.length}`,
  ].join('\n');
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      businesses: { type: 'string' },
      prospects: { type: 'string' },
      truth: { type: 'string' },
      errors: { type: 'string' },
      'min-confidence': { type: 'string' },
      json: { type: 'boolean', default: false },
      quiet: { type: 'boolean', short: 'q', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const input = values.businesses ?? values.prospects;
  if (values.help || !values.db || !input || !values.truth || (values.businesses && values.prospects)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if (reportMissing([values.db, input])) return 1;
  const threshold = values['min-confidence'] === undefined ? undefined : Number(values['min-confidence']);
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) {
    console.error('prospectdb: --min-confidence takes a number from 0 to 1');
    return 2;
  }
  const column = values.truth;
  const rows: Record<string, unknown>[] = [];
  const truths: (string | null)[] = [];
  const chunks = chunksOf(input, () => {});
  const source = /\.csv(\.gz)?$/i.test(input) ? csvRows(chunks) : jsonlRows(chunks);
  let line = 0;
  for await (const row of source) {
    line++;
    const t = row[column];
    if (t !== undefined && t !== null && typeof t !== 'string' && typeof t !== 'number') {
      console.error(`prospectdb: row ${line}: the ${column} column holds neither an id nor empty`);
      return 2;
    }
    truths.push(t === undefined || t === null || String(t).trim() === '' ? null : String(t).trim());
    const { [column]: _label, ...rest } = row;
    rows.push(rest);
  }
  // Every label empty is legal (rows that should all stay unmatched) but more often a misspelt column.
  if (rows.length > 0 && truths.every((t) => t === null) && !values.quiet)
    console.error(`prospectdb: note: column ${column} is empty in every row`);
  const engine = openEngine({ path: values.db, readonly: true });
  try {
    const options: Record<string, unknown> = { entity: values.businesses ? 'businesses' : 'prospects' };
    if (threshold !== undefined) options.minConfidence = threshold;
    const evaluation = evaluateMatches(engine, rows, truths, options);
    const errorsPath = values.errors ?? `${input.replace(/\.(jsonl|csv)(\.gz)?$/i, '')}.errors.jsonl`;
    const out = createWriteStream(errorsPath);
    for (const [reason, list] of [
      ['wrong', evaluation.wrong],
      ['missed', evaluation.missed],
    ] as const)
      for (const r of list) if (!out.write(JSON.stringify({ reason, ...r }) + '\n')) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    if (values.json) {
      const { wrong, missed, ...summary } = evaluation;
      console.log(
        JSON.stringify({ ...summary, wrong: wrong.length, missed: missed.length, errors_file: errorsPath }),
      );
    } else {
      console.log(formatEvaluation(evaluation));
      console.log(`wrong and missed rows written to ${errorsPath}`);
    }
    return 0;
  } finally {
    engine.close();
  }
}
