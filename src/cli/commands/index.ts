/** `prospectdb index --db FILE`: builds every index of a loaded file and saves it there. */
import { parseArgs } from 'node:util';
import { buildIndexesThreaded } from '../../core/warm.js';
import { openEngine } from '../../engine.js';
import { settleSnapshotFile } from '../../store/open.js';

const HELP = `usage: prospectdb index --db FILE

Builds every index of FILE's data (search and match, businesses and prospects) and saves them in FILE,
so a later process answers its first query without building them. \`prospectdb load\` does this after
loading; run it on a file loaded by an older version (or whose saved indexes are stale).`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { db: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || !values.db) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
  const ms = await saveEveryIndex(values.db);
  console.error(`search and match indexes built and saved in ${(ms / 1000).toFixed(1)}s`);
  return 0;
}

/**
 * Builds and saves every index of the file at `path` on `threads` threads (default: the cores
 * available), then backs the file out of WAL mode as a load does (ready to be renamed over a file a
 * server has open). Returns the build time in ms.
 */
export async function saveEveryIndex(path: string, threads?: number): Promise<number> {
  const engine = openEngine({ path });
  let ms: number;
  try {
    ms = await buildIndexesThreaded(engine, { threads });
  } finally {
    await engine.state.close();
    engine.close();
  }
  try {
    settleSnapshotFile(path);
  } catch (e) {
    console.error(`prospectdb: ${path} stays in WAL mode (${(e as Error).message})`);
  }
  return ms;
}
