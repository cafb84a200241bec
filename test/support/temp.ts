/**
 * Temp folders for tests: `tempDir(prefix)` makes one under the system temp folder and removes it when
 * the test file ends (`setup-temp.ts`, a setup file of every project), so a test that forgets its own
 * clean-up does not leave data behind. The leak checks (`setup-temp.ts` per file, `global-temp.ts` per
 * project) fail the run when anything else is left in the temp folder.
 *
 * @example const dir = tempDir('pdb-export-'); // removed after this file's last test
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/** What tools keep in the temp folder on their own: tsx's compile cache (`tsx-<uid>`). */
export const TOOL_CACHE = /^tsx-\d+$/;
/** Names of the demo loaded once per worker process, in a project's temp folder (`demo.ts`). */
export const DEMO_CACHE_PREFIX = 'demo-cache-';

/** A new empty folder `<tmpdir>/<prefix>XXXXXX`, removed when the test file ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder {@link tempDir} made so far. */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
