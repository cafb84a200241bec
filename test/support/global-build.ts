/**
 * vitest global setup of the `integration` project: the files that run the BUILT package (`docs.test.ts`
 * runs the doc blocks through `dist/cli/main.js`, `package.test.ts` imports `dist/` by name) need a
 * `dist/` no older than `src/`. Built here once, before any of them starts: two files that each built
 * it when stale would both compile (~20 s of CPU each) and remove each other's `dist/` mid-run.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The entries the built-package tests run. */
const ENTRIES = ['dist/index.js', 'dist/serve/server.js', 'dist/cli/main.js'];

/** Newest modification time of the files `npm run build` compiles. */
export function newestSource(dir = join(ROOT, 'src')): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether every entry exists and is newer than every source file. */
export function builtIsFresh(): boolean {
  try {
    return Math.min(...ENTRIES.map((f) => statSync(join(ROOT, f)).mtimeMs)) >= newestSource();
  } catch {
    return false;
  }
}

export default function setup(): void {
  if (!builtIsFresh()) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}
