/**
 * Every fenced code block of README.md and docs/*.md runs, so the documentation cannot rot.
 *
 * - ```ts / ```js blocks are written to a temporary module whose `prospectdb` and `prospectdb/server`
 *   imports point at `src/`, then imported here, with the working directory in a temporary folder that
 *   holds `prospects.db` (a copy of the demo snapshot the test project loads once) and the input files the pages name. A block
 *   that uses `engine` without declaring it gets the shared engine over that file. A single-line
 *   `console.log(x); // → text` is checked: what it prints must contain `text`.
 * - ```sh / ```bash blocks run in bash (`set -euo pipefail`) in the same folder, with `prospectdb` and
 *   `npx prospectdb` running the built CLI (`dist/`, built first when stale by the project's global
 *   setup, `support/global-build.ts`). Every command of a runnable block must be a prospectdb command
 *   (or `mv`/`cp`/`cat`); anything else must be marked.
 * - ```ts installed blocks run in plain Node (no tsx) from the folder, importing the BUILT package by
 *   name, as a user's project does.
 * - ```json blocks parse.
 * - A block that is intentionally not run says so: the language `text`, or `no-run` after the language
 *   (```sh no-run). Those are counted, and the counts per kind are part of the expected result, so no
 *   block changes kind silently.
 *
 * docs/spec/ and docs/api/ (generated) are not read.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatWithOptions, promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildIndexes } from '../src/core/warm.js';
import type { Engine } from '../src/engine.js';
import { demoEngine } from './support/demo.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

interface Block {
  file: string;
  line: number;
  lang: string;
  noRun: boolean;
  /** `installed` after the language: run as a plain Node module importing the BUILT package by name. */
  installed: boolean;
  code: string;
}

/** The markdown pages whose blocks run: README.md, CHANGELOG.md and docs/**.md but docs/spec, docs/api. */
function pages(): string[] {
  const out = ['README.md', 'CHANGELOG.md'];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = join(dir, e.name);
      if (e.isDirectory()) {
        if (rel !== join('docs', 'spec') && rel !== join('docs', 'api')) walk(rel);
      } else if (e.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out.sort();
}

/** Fenced blocks (``` or ~~~, at the start of a line) with their info string's language and flags. */
export function extractBlocks(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(```+|~~~+)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const info = open[2]!.trim().split(/\s+/).filter(Boolean);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith(fence)) body.push(lines[j++]!);
    blocks.push({
      file,
      line: i + 1,
      lang: info[0] ?? '',
      noRun: info.slice(1).includes('no-run'),
      installed: info.slice(1).includes('installed'),
      code: body.join('\n'),
    });
    i = j;
  }
  return blocks;
}

type Kind = 'ts' | 'installed' | 'sh' | 'json' | 'text' | 'no-run' | 'unmarked';
function kindOf(b: Block): Kind {
  if (b.lang === 'text') return 'text';
  if (b.noRun) return 'no-run';
  if (b.installed && ['ts', 'js'].includes(b.lang)) return 'installed';
  if (['ts', 'typescript', 'js', 'javascript'].includes(b.lang)) return 'ts';
  if (['sh', 'bash', 'shell'].includes(b.lang)) return 'sh';
  if (b.lang === 'json') return 'json';
  return 'unmarked';
}

const blocks = pages().flatMap((file) => extractBlocks(file, readFileSync(join(ROOT, file), 'utf8')));
const where = (b: Block) => `${b.file}:${b.line}`;
const of = (kind: Kind) => blocks.filter((b) => kindOf(b) === kind);

/** Logical shell lines: continuations joined, comments and blank lines dropped. */
function shellCommands(code: string): string[] {
  return code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
}
/** Collapses runs of white space, so a printed object reads as its one-line comment. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * A single-line `console.log(ARGS); // → TEXT` becomes a call that records what it prints, and TEXT
 * (white space collapsed) is what that print must contain. Other lines are left as they are.
 */
export function withPrintChecks(code: string): { source: string; expected: string[] } {
  const expected: string[] = [];
  const source = code
    .split('\n')
    .map((line) => {
      const m = /^(\s*)console\.log\((.*)\);\s*\/\/\s*→\s*(.+)$/.exec(line);
      if (!m) return line;
      expected.push(oneLine(m[3]!));
      return `${m[1]}(globalThis as unknown as { __docsPrinted: (a: unknown[]) => void }).__docsPrinted([${m[2]}]);`;
    })
    .join('\n');
  return { source, expected };
}

const RUNNABLE_SHELL = /^(?:[A-Z_]+=\$\()?(?:npx )?prospectdb\s|^(?:mv|cp|cat)\s/;

let world: string;
let engine: Engine;
let blockDir: string;
let cwd: string;

/** The folder every block runs in: the demo database and the inputs the pages name. */
async function makeWorld(): Promise<void> {
  world = mkdtempSync(join(tmpdir(), 'prospectdb-docs-'));
  // An installed package's layout, so `node_modules/prospectdb/fixtures/demo` exists as on a user's disk.
  mkdirSync(join(world, 'node_modules'));
  symlinkSync(ROOT, join(world, 'node_modules', 'prospectdb'));
  engine = await demoEngine({ path: join(world, 'prospects.db') });
  buildIndexes(engine);

  // Labelled inputs for `match --truth` and evaluateMatches: three demo businesses, one unknown row.
  const some = engine.db
    .prepare('SELECT business_id, name, domain FROM businesses ORDER BY rowid LIMIT 3')
    .all() as { business_id: string; name: string; domain: string }[];
  const csv = (rows: string[][]) =>
    rows.map((r) => r.map((c) => JSON.stringify(c)).join(',')).join('\n') + '\n';
  writeFileSync(
    join(world, 'labelled.csv'),
    csv([
      ['name', 'domain', 'expected_id'],
      ...some.map((b) => [b.name, b.domain, b.business_id]),
      ['Nobody Such Ltd', '', ''],
    ]),
  );
  writeFileSync(join(world, 'crm.csv'), csv([['name', 'domain'], ...some.map((b) => [b.name, ''])]));
  writeFileSync(join(world, 'filters.json'), JSON.stringify({ job_level: { values: ['director'] } }));

  // `prospectdb` and `npx prospectdb` as a user's shell has them, over the built CLI.
  const bin = join(world, '.bin');
  mkdirSync(bin);
  const cli = join(ROOT, 'dist/cli/main.js');
  writeFileSync(join(bin, 'prospectdb'), `#!/bin/sh\nexec node ${JSON.stringify(cli)} "$@"\n`);
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = prospectdb ]; then shift; exec node ${JSON.stringify(cli)} "$@"; fi\n` +
      `echo "docs test: only npx prospectdb runs here" >&2; exit 99\n`,
  );
  chmodSync(join(bin, 'prospectdb'), 0o755);
  chmodSync(join(bin, 'npx'), 0o755);

  // `snapshot/`: a small next snapshot for the pages that load one beside a running server.
  execFileSync(
    'node',
    [
      cli,
      'generate',
      '--out',
      join(world, 'snapshot'),
      '--businesses',
      '100',
      '--prospects',
      '300',
      '--events',
      '50',
    ],
    { stdio: 'ignore' },
  );
}

beforeAll(async () => {
  await makeWorld();
  blockDir = mkdtempSync(join(ROOT, 'test', '.docs-blocks-'));
  cwd = process.cwd();
  process.chdir(world);
}, 300_000);

afterAll(() => {
  process.chdir(cwd);
  engine?.close();
  rmSync(world, { recursive: true, force: true });
  rmSync(blockDir, { recursive: true, force: true });
});

describe('the code blocks of README.md and docs/', () => {
  it('are each marked with what they are', () => {
    const unmarked = of('unmarked').map((b) => `${where(b)} (\`\`\`${b.lang})`);
    expect(unmarked, 'give each block a language: ts, sh, json, text, or `<lang> no-run`').toEqual([]);
    const counts = Object.fromEntries(
      (['ts', 'installed', 'sh', 'json', 'text', 'no-run'] as const).map((k) => [k, of(k).length]),
    );
    // Change these when a page adds or removes a block: a block never changes kind unnoticed.
    expect(counts).toEqual(EXPECTED_COUNTS);
  });

  it.each(of('json').map((b) => [where(b), b] as const))('%s parses as JSON', (_, b) => {
    expect(() => JSON.parse(b.code) as unknown).not.toThrow();
  });

  it.each(of('sh').map((b) => [where(b), b] as const))(
    '%s runs through the CLI',
    async (_, b) => {
      const foreign = shellCommands(b.code).filter((c) => !RUNNABLE_SHELL.test(c));
      expect(foreign, 'only prospectdb commands run here; mark the block `sh no-run`').toEqual([]);
      await run('bash', ['-c', `set -euo pipefail\n${b.code}`], {
        cwd: world,
        env: { ...process.env, PATH: `${join(world, '.bin')}:${process.env.PATH ?? ''}` },
        maxBuffer: 64 << 20,
      });
    },
    120_000,
  );
  it.each(of('installed').map((b, i) => [where(b), b, i] as const))(
    '%s runs in plain Node from the installed package, printing what its `// →` comments say',
    async (_, b, i) => {
      // The folder has node_modules/prospectdb (the package root): `import 'prospectdb'` resolves through
      // package.json `exports` to dist/, as in a user's project. The block must be plain JavaScript.
      const file = join(world, `installed-${i}.mjs`);
      writeFileSync(file, b.code);
      const { stdout } = await run('node', [file], { cwd: world, maxBuffer: 64 << 20 });
      const out = oneLine(stdout);
      let from = 0;
      for (const want of withPrintChecks(b.code).expected) {
        const at = out.indexOf(want, from);
        expect(at, `prints ${want} (after what it printed before)`).toBeGreaterThanOrEqual(0);
        from = at + want.length;
      }
    },
    120_000,
  );
  it.each(of('ts').map((b, i) => [where(b), b, i] as const))(
    '%s runs against the library, printing what its `// →` comments say',
    async (_, b, i) => {
      const { source, expected } = withPrintChecks(
        b.code
          .replace(/from 'prospectdb\/server'/g, `from ${JSON.stringify(join(ROOT, 'src/serve/server.ts'))}`)
          .replace(/from 'prospectdb'/g, `from ${JSON.stringify(join(ROOT, 'src/index.ts'))}`),
      );
      const declaresEngine = /\b(const|let|var)\s+engine\b/.test(source);
      const prelude = declaresEngine
        ? ''
        : 'const engine = (globalThis as unknown as { __docsEngine: never }).__docsEngine;\n';
      const file = join(blockDir, `block-${i}.ts`);
      writeFileSync(file, `${prelude}${source}\nexport {};\n`);
      (globalThis as unknown as { __docsEngine: Engine }).__docsEngine = engine;
      const printed: string[] = [];
      (globalThis as unknown as { __docsPrinted: (args: unknown[]) => void }).__docsPrinted = (args) =>
        printed.push(oneLine(formatWithOptions({ colors: false, depth: 4 }, ...args)));
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      try {
        await import(pathToFileURL(file).href);
      } finally {
        log.mockRestore();
      }
      expect(printed.length, 'every checked console.log ran').toBe(expected.length);
      expected.forEach((want, k) => expect(printed[k], `printed line ${k + 1}`).toContain(want));
    },
    120_000,
  );
});

/** How many blocks of each kind the pages hold. */
const EXPECTED_COUNTS = { ts: 17, installed: 1, sh: 15, json: 4, text: 15, 'no-run': 14 };
