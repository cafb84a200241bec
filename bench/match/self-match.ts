/**
 * Self-match on the real listed-company names (`shared/data/real`): every distinct `Company Name` of the
 * Nasdaq and NYSE listings loaded as a business and matched by its own name, as stored. Prints how many
 * rows answer null, how many a wrong business, and the first misses:
 *
 *   node --import tsx bench/match/self-match.ts
 */
import { matchBusinessRows } from '../../src/core/match/index.js';
import { engineOf, namedBusinesses } from '../../test/support/snapshot.js';
import { listedCompanyNames, realDataDir } from './real-data.js';

async function main(): Promise<void> {
  const dir = realDataDir();
  if (dir === null) throw new Error('shared/data/real not found');
  const names = listedCompanyNames(dir);
  const engine = await engineOf({ businesses: namedBusinesses(names.map((n) => [n, 'US'])) });
  const rows = matchBusinessRows(
    engine,
    names.map((name) => ({ name })),
  );
  let none = 0;
  let wrong = 0;
  const misses: string[] = [];
  rows.forEach((r, i) => {
    const want = i.toString(16).padStart(32, '0');
    if (r.business_id === null) {
      none++;
      misses.push(names[i] as string);
    } else if (r.business_id !== want) wrong++;
  });
  process.stdout.write(`${names.length} names: ${none} null, ${wrong} wrong\n${misses.join('\n')}\n`);
  engine.close();
}

await main();
