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

/** The folders `shared/data` is looked for in, in order. */
export function sharedDataCandidates(): string[] {
  const env = process.env.PROSPECTDB_SHARED_DATA;
  return [...(env ? [env] : []), join(ROOT, '../shared/data'), join(ROOT, '../../shared/data')];
}

/** The `shared/data` folder, or null when it is not there. */
export function sharedDataDir(): string | null {
  for (const dir of sharedDataCandidates()) if (existsSync(join(dir, 'README.md'))) return dir;
  return null;
}

/** A file of `shared/data` (e.g. `real/febrl4a.csv`), or null when it is absent. */
export function sharedDataFile(relative: string): string | null {
  const dir = sharedDataDir();
  const path = dir === null ? null : join(dir, relative);
  return path !== null && existsSync(path) ? path : null;
}
