/**
 * The team's reference data beside the repository (`shared/data`: FEBRL 4, the US listings, the ELF
 * list), for the tests that read it. When a file is absent the
 * tests that need it are skipped, and this says so once per file, with the paths it looked in, on
 * stderr (a green run must not hide that they did not run).
 *
 * @example const csv = sharedFile('data', 'real/febrl4a.csv', 'persons on real labelled data');
 *   describe.skipIf(csv === null)('persons on real labelled data', () => { … });
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedDataCandidates, sharedDataFile } from '../../scripts/shared-data.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where `shared/<area>` may be: beside the clone, or one level up (a git worktree sits deeper). */
function candidates(area: 'data' | 'spec'): string[] {
  if (area === 'data') return sharedDataCandidates();
  return [join(ROOT, '../shared', area), join(ROOT, '../../shared', area)];
}

const told = new Set<string>();

/**
 * The path of `shared/<area>/<relative>`, or null when no candidate folder has it; then `skipped` (what
 * does not run) is reported once.
 */
export function sharedFile(area: 'data' | 'spec', relative: string, skipped: string): string | null {
  const tried = candidates(area).map((dir) => join(dir, relative));
  // The data is found as the benches and scripts find it (`scripts/shared-data.ts`).
  const found = area === 'data' ? sharedDataFile(relative) : tried.find((path) => existsSync(path));
  if (found) return found;
  const key = `${area}/${relative}\0${skipped}`;
  if (!told.has(key)) {
    told.add(key);
    console.warn(
      `skipped: ${skipped}: shared/${area}/${relative} not found (looked for ${tried.join(', ')})` +
        (area === 'data' ? '; set PROSPECTDB_SHARED_DATA to the folder that has it' : ''),
    );
  }
  return null;
}
