/**
 * Setup file of every test project: each test file gets a temp folder of its own (`TMPDIR`, so
 * `os.tmpdir()` in the file and in every process it starts points there), and when its tests end the
 * folders made with {@link tempDir} are removed and the file's folder must be empty: anything else
 * left is a leak, and fails the file with the names of what was left.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTempDirs, TOOL_CACHE } from './temp.js';

const project = process.env.PROSPECTDB_TEST_TMPDIR;
if (!project) throw new Error('the vitest config sets no PROSPECTDB_TEST_TMPDIR');
const mine = mkdtempSync(join(project, 'file-'));
process.env.TMPDIR = mine;
// tsx compiles the sources of child processes into `<tmpdir>/tsx-<uid>`: keep using the warm cache.
const system = process.env.PROSPECTDB_SYSTEM_TMPDIR;
const uid = process.getuid?.();
if (system && uid !== undefined) {
  const cache = join(system, `tsx-${uid}`);
  mkdirSync(cache, { recursive: true, mode: 0o700 }); // a link to a missing folder would stop tsx
  symlinkSync(cache, join(mine, `tsx-${uid}`));
}

afterAll(() => {
  removeTempDirs();
  const left = readdirSync(mine).filter((name) => !TOOL_CACHE.test(name));
  rmSync(mine, { recursive: true, force: true });
  if (left.length > 0) {
    const err = new Error(
      `this file left ${left.length} entries in its temp folder: ${left.join(', ')}. ` +
        'Each test must remove what it writes (e.g. with tempDir() from test/support/temp.ts).',
    );
    err.stack = `Error: ${err.message}`;
    throw err;
  }
});
