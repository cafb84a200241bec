/**
 * `prospectdb bench [--db FILE | --businesses N --prospects M] [--out DIR]`: measures match, fetch,
 * stats, autocomplete, cursors, open time and memory beside same-run baselines and writes
 * `report.md`, `report.html` (inline SVG charts), `report.json` and `charts/*.svg` to DIR; progress on
 * stderr.
 * `prospectdb bench --compare A.json B.json` prints the ratio of every metric of B against A.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultCacheDir } from './data.js';
import { charts, comparisonRows, toHtml, toMarkdown } from './render.js';
import { advantage, compareReports, fmt, parseReport, ratioText } from './report.js';
import { runBench } from './run.js';
import { textTable } from '../../src/cli/table.js';

const USAGE = `usage: prospectdb bench [--businesses N --prospects M | --db FILE] [options]
       prospectdb bench --compare A.json B.json

  --businesses N, --prospects M  generate a snapshot of this size (cached; default 20000 / 100000)
  --db FILE                      measure an existing database instead (opened read-only)
  --out DIR                      where report.md, report.html, report.json and charts/ go (default bench-report)
  --cache DIR                    cache of generated databases (default ~/.cache/prospectdb)
  --seed S                       generator and sampling seed (default 7)
  --rows N                       exact-key rows per entity (default 20000)
  --per-kind N                   labelled mixed rows per perturbation kind (default 200)
  --requests N                   requests per latency workload (default 200)
  --min-time MS                  time each rows/s figure runs for at least (default 250)
  --api-key KEY                  measure the facade on --db FILE with this key
  --compare A.json B.json        print the regression table of B against A`;

function whole(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} takes a whole number ≥ ${min}`);
  return n;
}

class UsageError extends Error {}

/** The command line that re-runs this bench, quoted for a POSIX shell. */
function commandLine(argv: readonly string[]): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return ['npx', 'prospectdb', 'bench', ...argv.filter((a) => !a.startsWith('--api-key')).map(quote)].join(
    ' ',
  );
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      businesses: { type: 'string' },
      prospects: { type: 'string' },
      out: { type: 'string', default: 'bench-report' },
      cache: { type: 'string' },
      seed: { type: 'string' },
      rows: { type: 'string' },
      'per-kind': { type: 'string' },
      requests: { type: 'string' },
      'min-time': { type: 'string' },
      'api-key': { type: 'string' },
      compare: { type: 'boolean', default: false },
      quiet: { type: 'boolean', short: 'q', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.compare) {
    if (positionals.length !== 2) {
      console.error(USAGE);
      return 2;
    }
    const [a, b] = positionals.map((p) => parseReport(readFileSync(p, 'utf8'), p)) as [
      ReturnType<typeof parseReport>,
      ReturnType<typeof parseReport>,
    ];
    const rows = compareReports(a, b);
    console.log(`A: ${positionals[0]} (${a.created}, ${a.machine.version}, node ${a.machine.node})`);
    console.log(`B: ${positionals[1]} (${b.created}, ${b.machine.version}, node ${b.machine.node})`);
    console.log(
      '"B vs A" > 1× means B is better (faster, smaller, more accurate); beyond 10% is a verdict.\n',
    );
    console.log(textTable(comparisonRows(rows)));
    const worse = rows.filter((r) => r.verdict === 'worse').length;
    console.log(
      `\n${worse} metric${worse === 1 ? '' : 's'} worse, ${rows.filter((r) => r.verdict === 'better').length} better`,
    );
    return 0;
  }
  if (
    positionals.length > 0 ||
    (values.db !== undefined && (values.businesses ?? values.prospects) !== undefined)
  ) {
    console.error(USAGE);
    return 2;
  }
  if (values.db !== undefined && !existsSync(values.db)) {
    console.error(`prospectdb: ${values.db}: no such file`);
    return 1;
  }
  let options;
  try {
    options = {
      db: values.db,
      businesses: whole('businesses', values.businesses, 1),
      prospects: whole('prospects', values.prospects, 0),
      seed: whole('seed', values.seed, 0),
      exactRows: whole('rows', values.rows, 1),
      perKind: whole('per-kind', values['per-kind'], 1),
      requests: whole('requests', values.requests, 1),
      minMs: whole('min-time', values['min-time'], 1),
    };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`prospectdb: ${e.message}`);
    return 2;
  }
  const log = values.quiet ? () => {} : (m: string) => process.stderr.write(`bench: ${m}\n`);
  const report = await runBench({
    ...options,
    cacheDir: resolve(values.cache ?? defaultCacheDir()),
    apiKey: values['api-key'] ?? process.env.PROSPECTDB_API_KEY,
    command: commandLine(argv),
    log,
  });
  for (const note of report.notes) log(`note: ${note}`);
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'report.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(out, 'report.md'), toMarkdown(report));
  writeFileSync(join(out, 'report.html'), toHtml(report));
  // Each chart also as its own .svg file, for a README or a slide.
  mkdirSync(join(out, 'charts'), { recursive: true });
  for (const [id, , svg] of charts(report)) writeFileSync(join(out, 'charts', `${id}.svg`), svg + '\n');
  console.log(
    textTable([
      ['metric', 'prospectdb', 'baseline', 'advantage'],
      ...report.metrics.map((m) => {
        const a = advantage(m);
        return [
          m.label,
          fmt(m.value, m.unit),
          m.baseline ? fmt(m.baseline.value, m.unit) : '–',
          a === null ? '–' : ratioText(a),
        ];
      }),
    ]),
  );
  console.log(
    `\nbench finished in ${report.seconds.toFixed(1)} s; report: ${join(out, 'report.html')}, report.md, report.json`,
  );
  return 0;
}
