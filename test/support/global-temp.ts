/**
 * vitest global setup of every project: the project's test files write into a temp folder of the
 * project's own (the config's `PROSPECTDB_TEST_TMPDIR`; each file a folder inside it, `setup-temp.ts`).
 * When the project ends that folder must be empty: anything left (a file whose clean-up never ran, a
 * child process that wrote after its test) fails the run, named. The folder is removed either way.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { TOOL_CACHE } from './temp.js';

export default function setup(project: TestProject): () => void {
  const dir = project.config.env.PROSPECTDB_TEST_TMPDIR;
  if (!dir) throw new Error(`test project ${project.name}: the config sets no PROSPECTDB_TEST_TMPDIR`);
  // The run's demo cache, shared by the projects (`demo.ts`): removed by whichever teardown comes first
  // (they all run when the last file has ended).
  const demo = project.config.env.PROSPECTDB_DEMO_CACHE;
  if (!demo) throw new Error(`test project ${project.name}: the config sets no PROSPECTDB_DEMO_CACHE`);
  // Anyone may enter them: processes the tests start may run as another user.
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  mkdirSync(demo, { recursive: true, mode: 0o755 });
  // An interrupted run skips the teardown: the folders go anyway.
  const remove = () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(demo, { recursive: true, force: true });
  };
  process.once('exit', remove);
  return () => {
    process.removeListener('exit', remove);
    // A file whose tests were all skipped never runs its hooks: its own folder stays, empty.
    const left = readdirSync(dir).filter(
      (name) => !(name.startsWith('file-') && readdirSync(join(dir, name)).every((n) => TOOL_CACHE.test(n))),
    );
    remove();
    if (left.length > 0) {
      const shown = left.slice(0, 20).join(', ') + (left.length > 20 ? `, … (${left.length} in all)` : '');
      const message =
        `the ${project.name} tests left ${left.length} entries in their temp folder ${dir}: ${shown}. ` +
        'Each test must remove what it writes (e.g. with tempDir() from test/support/temp.ts).';
      // vitest only prints an error thrown from a global teardown: fail the run explicitly.
      console.error(`\nFAIL ${message}`);
      process.exitCode = 1;
    }
  };
}
