/** `prospectdb migrate --db FILE [--out FILE]`: rewrites a file of an older layout into the current one. */
import { parseArgs } from 'node:util';
import { migrateFile } from '../../store/migrate.js';
import { saveEveryIndex } from './index.js';

const USAGE = `usage: prospectdb migrate --db FILE [--out NEW_FILE]
  Rewrites a database written by an older prospectdb (schema < 7) into the current layout, in place
  or into NEW_FILE (FILE is then left as it is), and saves every index in it: files before schema 6
  must be (they are refused on open); a schema-6 file is read as it is, and migrating it only drops
  the employer columns it kept beside each prospect (a smaller file). Stop servers reading FILE first.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.db) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const started = performance.now();
  const r = migrateFile(values.db, values.out === undefined ? {} : { out: values.out });
  // The saved indexes of the old file are stale for this build: save new ones, so the first query
  // after a migration does not build them.
  const indexMs = await saveEveryIndex(r.path);
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(
    `migrated ${r.path} from schema ${r.fromVersion ?? 'unknown'}: ${r.businesses} businesses, ` +
      `${r.prospects} prospects; ${mb(r.bytesBefore)} → ${mb(r.bytesAfter)} in ` +
      `${((performance.now() - started) / 1000).toFixed(1)}s (indexes built and saved in ${(indexMs / 1000).toFixed(1)}s)`,
  );
  return 0;
}
