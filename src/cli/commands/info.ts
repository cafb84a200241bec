/** `prospectdb info --db FILE`: what a database holds. */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openEngine } from '../../engine.js';
import { describeHugePages, hostFacts } from '../huge-pages.js';

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.db) {
    console.error('usage: prospectdb info --db FILE [--json]');
    return values.help ? 0 : 2;
  }
  if (!existsSync(values.db)) {
    console.error(`prospectdb: ${values.db}: no such database`);
    return 1;
  }
  const engine = openEngine({ path: values.db, readonly: true });
  try {
    const info = engine.info();
    if (values.json) {
      console.log(JSON.stringify(info, null, 2));
    } else {
      console.log(`database        ${info.path}`);
      console.log(`snapshot        ${info.snapshotId ?? '(none loaded)'}`);
      console.log(`as of           ${info.asOf ?? '-'}`);
      console.log(`format version  ${info.formatVersion ?? '-'}`);
      console.log(`businesses      ${info.counts.businesses.toLocaleString('en-US')}`);
      console.log(`prospects       ${info.counts.prospects.toLocaleString('en-US')}`);
      console.log(`events          ${info.counts.events.toLocaleString('en-US')}`);
      // What `serve`, `request`, … do for this file (`huge-pages.ts`).
      console.log(`huge pages      ${describeHugePages(values.db, hostFacts())}`);
    }
    return 0;
  } finally {
    engine.close();
  }
}
