/**
 * Writes `src/normalise/place-tables.generated.json`: the country and place lists of
 * `src/normalise/company-places.ts` as this Node's CLDR (ICU) and the repo's lists give them, with the
 * CLDR version. A process whose Node has that CLDR reads them instead of building them (~0.15 s of CPU
 * on its first company name); any other builds them as before.
 *
 *   node --import tsx scripts/place-tables.ts [--check]
 *
 * `--check` exits 1 when the committed lists differ from what this Node builds (the test does too).
 */
import { buildPlaceLists } from '../src/normalise/company-places.js';
import { writeOrCheck } from './generated-file.js';

writeOrCheck(
  new URL('../src/normalise/place-tables.generated.json', import.meta.url),
  `${JSON.stringify(buildPlaceLists())}\n`,
  'scripts/place-tables.ts',
);
