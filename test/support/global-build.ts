/**
 * vitest global setup of the `integration` and `postgres` projects: the files that run the BUILT package
 * (`docs.test.ts` runs the doc blocks through `dist/cli/main.js`, `package.test.ts` imports `dist/` by
 * name, servers and CLIs start as child processes from it: `built-cli.ts`) need a `dist/` no older
 * than `src/`, and the built CLI's development tools (`prospectdb generate` in the
 * docs, `dist-tools/`) no older than `src/` and `tools/`. Built here once, before any of them starts:
 * files that each built them when stale compiled twice (~20 s of CPU each) and removed each other's
 * build mid-run, and the docs' `generate` failed when it ran before the file that built the tools.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The entries the built-package tests run. */
const ENTRIES = ['dist/index.js', 'dist/serve/server.js', 'dist/cli/main.js'];
/** What `npm run build:tools` writes (the tools the built CLI loads). */
const TOOLS = 'dist-tools/tools/generate/command.js';

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

/** Whether the tools' build exists and is newer than every file of `src/` and `tools/`. */
export function toolsAreFresh(): boolean {
  try {
    const built = statSync(join(ROOT, TOOLS)).mtimeMs;
    return built >= Math.max(newestSource(), newestSource(join(ROOT, 'tools')));
  } catch {
    return false;
  }
}

export default function setup(): void {
  if (!builtIsFresh()) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  if (!toolsAreFresh()) execFileSync('npm', ['run', 'build:tools'], { cwd: ROOT, stdio: 'ignore' });
}
