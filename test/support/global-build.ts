/**
 * vitest global setup of the `integration` and `postgres` projects: the files that run the BUILT package
 * (`docs.test.ts` runs the doc blocks through `dist/cli/main.js`, `package.test.ts` imports `dist/` by
 * name, servers and CLIs start as child processes from it: `built-cli.ts`) need a `dist/` no older
 * than `src/`, and the built CLI's development tools (`prospectdb generate` in the
 * docs, `dist-tools/`) no older than `src/` and `tools/`. Built here once, before any of them starts:
 * files that each built them when stale compiled twice (~20 s of CPU each) and removed each other's
 * build mid-run, and the docs' `generate` failed when it ran before the file that built the tools.
 *
 * The build runs in the background (one per run, whichever of the two projects sets up first): vitest
 * starts no test before every project's global setup has returned, so a build awaited here (≈30 s on
 * a fresh clone, one core: tsc compiles on one thread) held the whole run, the other core idle. The
 * `unit` project needs no build and runs first (the config's sequencer), beside it; the files of these
 * two projects wait for it in their setup file (`setup-build.ts`), through a status file the build
 * writes when it ends: empty when it succeeded, else what failed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file the background build writes when it ends: empty when it succeeded, else the failure. */
    buildStatus: string;
  }
}

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

/** Runs an npm script to its end; resolves with '' when it succeeded, else with what failed. */
function npmRun(script: string): Promise<string> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn('npm', ['run', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', (err) => resolve(`npm run ${script} could not start: ${err.message}`));
    child.once('close', (code, signal) =>
      resolve(code === 0 ? '' : `npm run ${script} exited with ${code ?? signal}:\n${output.trim()}`),
    );
  });
}

interface Build {
  /** The status file (see the module comment). */
  status: string;
  /** Resolves when the build has ended and its status file is written. */
  done: Promise<void>;
}

/** Starts the build of what is stale; its status file is written when it ends. */
function startBuild(): Build {
  const dir = mkdtempSync(join(tmpdir(), 'prospectdb-build-'));
  const status = join(dir, 'status');
  const done = (async () => {
    let failure = '';
    if (!builtIsFresh()) failure = await npmRun('build');
    if (!failure && !toolsAreFresh()) failure = await npmRun('build:tools');
    // Whole or not at all: a reader polls for the name.
    writeFileSync(`${status}.part`, failure);
    renameSync(`${status}.part`, status);
  })();
  return { status, done };
}

/** One build per run: both projects' setups run in vitest's main process, one after the other. */
const RUNNING = Symbol.for('prospectdb.test.build');
type WithBuild = typeof globalThis & { [RUNNING]?: { build: Build; users: number } };

export default function setup(project: TestProject): () => Promise<void> {
  const shared = globalThis as WithBuild;
  const running = (shared[RUNNING] ??= { build: startBuild(), users: 0 });
  running.users++;
  project.provide('buildStatus', running.build.status);
  return async () => {
    // A run that ends early (its files failed, or none needed the build) still lets the build end:
    // a build stopped midway would leave a dist/ that looks fresh but lacks files.
    await running.build.done;
    if (--running.users === 0) {
      rmSync(join(running.build.status, '..'), { recursive: true, force: true });
      delete shared[RUNNING];
    }
  };
}
