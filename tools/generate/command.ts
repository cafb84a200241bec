/** `prospectdb generate --out DIR …`: writes a seeded synthetic snapshot (tools/generate). */
import { parseArgs } from 'node:util';
import { DEFAULT_AS_OF, DEFAULT_SEED, FORMATS, generateSnapshot, type SnapshotFormat } from './index.js';
import { generateDelta } from './delta.js';

const HELP = `usage: prospectdb generate --out DIR [--businesses N] [--prospects N] [--events N]
                          [--seed S] [--as-of ISO] [--format jsonl|jsonl.gz|msgpack]
       prospectdb generate --out DIR --delta-of BASE_DIR [--fraction F] [--merged DIR] [--seed S]
                          [--as-of ISO] [--format jsonl|jsonl.gz]

Writes manifest.json and businesses|prospects|events files of a realistic synthetic snapshot into DIR.
The same options always give byte-identical files. Defaults: 1000 businesses, 5000 prospects,
1000 events, seed ${DEFAULT_SEED}, as of ${DEFAULT_AS_OF}, format jsonl.

With --delta-of, writes a random delta against the snapshot in BASE_DIR instead (manifest with its
base_snapshot_id, upserts, new records, deletions): a share F of each stream (default 0.01) replaced,
as many added, as many deleted. --merged DIR also writes the base with the delta applied, as a full
snapshot. Defaults: seed the base's + 1, as of the base's.`;

function count(value: string, name: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new RangeError(`--${name} must be a non-negative integer`);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      businesses: { type: 'string', default: '1000' },
      prospects: { type: 'string', default: '5000' },
      events: { type: 'string', default: '1000' },
      seed: { type: 'string', default: String(DEFAULT_SEED) },
      'as-of': { type: 'string', default: DEFAULT_AS_OF },
      format: { type: 'string', default: 'jsonl' },
      'delta-of': { type: 'string' },
      fraction: { type: 'string', default: '0.01' },
      merged: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.out) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
  if (values['delta-of'] !== undefined) return delta(values, argv);
  if (!FORMATS.includes(values.format as SnapshotFormat)) {
    console.error(`prospectdb generate: --format must be one of ${FORMATS.join(', ')}`);
    return 2;
  }
  if (!/^-?\d+$/.test(values.seed)) {
    console.error('prospectdb generate: --seed must be an integer');
    return 2;
  }
  let options;
  try {
    options = {
      dir: values.out,
      businesses: count(values.businesses, 'businesses'),
      prospects: count(values.prospects, 'prospects'),
      events: count(values.events, 'events'),
      seed: Number(values.seed),
      asOf: values['as-of'],
      format: values.format as SnapshotFormat,
    };
  } catch (e) {
    console.error(`prospectdb generate: ${(e as Error).message}`);
    return 2;
  }
  const result = await generateSnapshot(options);
  const { businesses, prospects, events } = result.counts;
  const seconds = result.elapsedMs / 1000;
  console.error(
    `generated ${businesses.toLocaleString('en-US')} businesses, ${prospects.toLocaleString('en-US')} prospects, ${events.toLocaleString('en-US')} events (seed ${options.seed}, ${options.format}) in ${result.dir} in ${seconds.toFixed(1)}s`,
  );
  return 0;
}

async function delta(
  values: {
    out?: string;
    'delta-of'?: string;
    fraction: string;
    merged?: string;
    seed: string;
    'as-of': string;
    format: string;
  },
  argv: string[],
): Promise<number> {
  const fraction = Number(values.fraction);
  if (!(fraction > 0 && fraction <= 1)) {
    console.error('prospectdb generate: --fraction must be a number in (0, 1]');
    return 2;
  }
  if (values.format !== 'jsonl' && values.format !== 'jsonl.gz') {
    console.error('prospectdb generate: a delta is written as jsonl or jsonl.gz');
    return 2;
  }
  const explicit = (name: string) => argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const result = await generateDelta({
    base: values['delta-of']!,
    dir: values.out!,
    fraction,
    merged: values.merged,
    seed: explicit('seed') ? Number(values.seed) : undefined,
    asOf: explicit('as-of') ? values['as-of'] : undefined,
    format: values.format,
  });
  const c = result.counts;
  console.error(
    `generated a delta of ${c.businesses} businesses, ${c.prospects} prospects, ${c.events} events, ${c.deletions} deletions ` +
      `against snapshot ${result.baseSnapshotId} in ${result.dir} in ${(result.elapsedMs / 1000).toFixed(1)}s`,
  );
  return 0;
}
