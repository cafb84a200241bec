/**
 * Where the team's reference data lives: `shared/data` beside the repository (the ISO 20275 legal-forms
 * list, FEBRL 4, the early-childhood organisations, the US listings). A git worktree sits one level
 * deeper than a plain clone, so both places are tried; `PROSPECTDB_SHARED_DATA` names another folder.
 * Benches, scripts and quality tests read it from here; tests skip when it is absent.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The `shared/data` folder, or null when it is not there. */
export function sharedDataDir(): string | null {
  const candidates = [
    process.env.PROSPECTDB_SHARED_DATA,
    join(ROOT, '../shared/data'),
    join(ROOT, '../../shared/data'),
  ];
  for (const dir of candidates) if (dir && existsSync(join(dir, 'README.md'))) return dir;
  return null;
}

/** A file of `shared/data` (e.g. `real/febrl4a.csv`), or null when it is absent. */
export function sharedDataFile(relative: string): string | null {
  const dir = sharedDataDir();
  const path = dir === null ? null : join(dir, relative);
  return path !== null && existsSync(path) ? path : null;
}
