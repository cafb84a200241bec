/** `prospectdb generate --out DIR …`: writes a seeded synthetic snapshot (tools/generate). */
import { parseArgs } from 'node:util';
import { DEFAULT_AS_OF, DEFAULT_SEED, FORMATS, generateSnapshot, type SnapshotFormat } from './index.js';

const HELP = `usage: prospectdb generate --out DIR [--businesses N] [--prospects N] [--events N]
                          [--seed S] [--as-of ISO] [--format jsonl|jsonl.gz|msgpack]

Writes manifest.json and businesses|prospects|events files of a realistic synthetic snapshot into DIR.
The same options always give byte-identical files. Defaults: 1000 businesses, 5000 prospects,
1000 events, seed ${DEFAULT_SEED}, as of ${DEFAULT_AS_OF}, format jsonl.`;

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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.out) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
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
