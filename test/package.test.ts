/**
 * The package as a user gets it: what `npm pack` makes from the BUILT `dist/`, unpacked as `npm install`
 * lays it out, imported by name (`prospectdb`, `prospectdb/server`) through package.json `exports` from
 * a plain Node process in the installing project (no tsx, no vitest transform), every exported function
 * called on the demo snapshot (`support/use-package.mjs`). Also:
 * the functions the docs show are all exported and documented, and the entries load only what they need.
 *
 * `dist/` exists after `npm ci` (its `prepare` script builds it); when it is missing or older than a
 * source file, the project's global setup builds it first (`support/global-build.ts`, ~20 s of CPU).
 */
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DIR } from './support/demo.js';
import { exportedDoc } from './support/export-docs.js';
import { toolsAreFresh } from './support/global-build.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/** What `support/use-package.mjs` printed: each function's answer on the demo snapshot. */
interface Used {
  exports: Record<string, string>;
  server: Record<string, string>;
  [call: string]: unknown;
}

let used: Used;
let tmp: string;
/** The installed copy: `<tmp>/install/node_modules/prospectdb`, unpacked from what `npm pack` made. */
let pkg: string;
let packedFiles: string[];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'prospectdb-package-'));
  // `npm pack` is what `npm publish` uploads; unpacked into a node_modules of its own, it is what a
  // user's `npm install` writes (its dependencies are the repository's, linked beside it).
  const install = join(tmp, 'install');
  pkg = join(install, 'node_modules', 'prospectdb');
  mkdirSync(pkg, { recursive: true });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', install], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
  });
  const [tarball] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  packedFiles = tarball!.files.map((f) => f.path);
  await run('tar', ['-xzf', join(install, tarball!.filename), '-C', pkg, '--strip-components=1']);
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  // The user's script sits in the project that installed the package, and imports it by name.
  copyFileSync(join(ROOT, 'test', 'support', 'use-package.mjs'), join(install, 'use-package.mjs'));
  const { stdout } = await run('node', ['use-package.mjs', DEMO_DIR, tmp], {
    cwd: install,
    maxBuffer: 16 << 20,
  });
  used = JSON.parse(stdout) as Used;
}, 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every function of docs/api.md (the README's quickstart and the docs pages call them). */
const ROOT_FUNCTIONS = [
  'applyDelta',
  'applyDeltaFile',
  'autocomplete',
  'buildIndexes',
  'buildIndexesThreaded',
  'businessStats',
  'evaluateMatches',
  'exportBusinesses',
  'exportColumns',
  'exportProspects',
  'fetchBusinesses',
  'fetchProspects',
  'isEngineError',
  'matchBusinessRows',
  'matchBusinessStream',
  'matchBusinesses',
  'matchProspectRows',
  'matchProspectStream',
  'matchProspects',
  'openEngine',
  'prospectStats',
  'serve',
  'warmEngine',
  'writeExport',
];
/** "The HTTP server" and "Agent tools (MCP)". */
const SERVER_FUNCTIONS = ['createHttpServer', 'mcpHttpHandler', 'serve'];

describe('the installed package, imported by name', () => {
  it('exports every function the README shows, from the entry or prospectdb/server', () => {
    const functions = (m: Record<string, string>) =>
      Object.keys(m)
        .filter((k) => m[k] === 'function')
        .sort();
    expect(functions(used.exports)).toEqual([...ROOT_FUNCTIONS].sort());
    expect(functions(used.server)).toEqual(SERVER_FUNCTIONS);
    expect(used.exports.EngineError).toBe('class');
  });

  it('has every function the docs call on an engine, and every name the docs import', () => {
    const readme = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ]
      .map((f) => readFileSync(join(ROOT, f), 'utf8'))
      .join('\n');
    const called = new Set([...readme.matchAll(/(?<![.\w])(\w+)\(engine\b/g)].map((m) => m[1]!));
    expect(called.size).toBeGreaterThan(10);
    for (const name of called)
      expect(used.exports[name] ?? used.server[name], `the docs call ${name}(engine…)`).toBe('function');
    const imports = [...readme.matchAll(/import \{([^}]*)\} from '(prospectdb(?:\/server)?)'/g)];
    expect(imports.length).toBeGreaterThan(3);
    for (const [, names, from] of imports)
      for (const name of names!.split(',').map((n) => n.trim()))
        expect(
          (from === 'prospectdb' ? used.exports : used.server)[name],
          `${name} from ${from}`,
        ).toBeDefined();
  });

  it('loads the demo snapshot from DEMO_SNAPSHOT, builds and warms the indexes', () => {
    expect(used.load).toBe(0);
    expect(used.counts).toEqual({ businesses: 2000, prospects: 10000, events: 3000 });
    expect(used.buildIndexes).toBe('number');
    expect(used.warmEngine).toBeGreaterThan(10);
  });

  it('fetches, counts and autocompletes', () => {
    const page = used.fetchProspects as { rows: number; total: number };
    expect(page.rows).toBe(5);
    expect(page.total).toBeGreaterThan(1000);
    expect(used.prospectStats).toBe(page.total);
    expect(used.fetchBusinesses).toBe(2);
    expect(used.businessStats).toBe(2000);
    expect(used.autocomplete).toContain((used.business as { name: string }).name);
  });

  it('matches businesses and prospects alike in batches, rows and streams', () => {
    const b = (used.business as { business_id: string }).business_id;
    const p = (used.prospect as { prospect_id: string }).prospect_id;
    for (const call of ['matchBusinesses', 'matchBusinessRows', 'matchBusinessStream'])
      expect(used[call], call).toEqual([b, null]);
    for (const call of ['matchProspects', 'matchProspectRows', 'matchProspectStream'])
      expect(used[call], call).toEqual([p, null]);
    expect(used.evaluateMatches).toEqual({ precision: 1, recall: 1 });
  });

  it('exports every matching record, writes a file and throws typed errors', () => {
    const total = (used.fetchProspects as { total: number }).total;
    expect(used.exportProspects).toBe(total);
    expect(used.exportBusinesses).toEqual({ total: 2000, seen: 2000 });
    expect(used.exportColumns).toContain('prospect_id');
    expect(used.writeExport).toBe(total);
    expect(used.csvLines).toBe(total + 1);
    expect(used.isEngineError).toEqual({ is: true, status: 422, instance: true });
    expect(used.misspelledFilter).toEqual([
      {
        loc: ['body', 'filters', 'contry_code'],
        msg: 'extra fields not permitted',
        type: 'value_error.extra',
      },
    ]);
  });

  it('serves the facade and the MCP tool server from prospectdb/server', () => {
    const serve = used.serve as { health: number; mcpMetadata: string };
    expect(serve.health).toBe(200);
    expect(used.entryServe).toBe(200);
    expect(serve.mcpMetadata).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(used.createHttpServer).toBe(200);
    const mcp = used.mcpHttpHandler as { base: string; issuer: string; other: number };
    expect(mcp.issuer).toBe(mcp.base);
    expect(mcp.other).toBe(404);
  });
});

describe('the package as npm installs it', () => {
  it('ships the demo snapshot, and DEMO_SNAPSHOT finds it inside the installed copy', () => {
    expect(packedFiles).toContain('fixtures/demo/prospects.jsonl.gz');
    expect(used.demoSnapshot).toBe(join(realpathSync(pkg), 'fixtures', 'demo'));
  });
});

describe('the entries', () => {
  it('document every exported value on its declaration (where editors show it), with an @example', () => {
    for (const [file, kinds] of [
      ['src/index.ts', used.exports],
      ['src/serve/server.ts', used.server],
    ] as const) {
      for (const [name, kind] of Object.entries(kinds)) {
        if (kind !== 'function' && name !== 'DEMO_SNAPSHOT') continue;
        const doc = exportedDoc(join(ROOT, file), name);
        expect(doc?.text.trim().length ?? 0, `${file}: ${name} has no doc line`).toBeGreaterThan(20);
        expect(doc?.example, `${file}: ${name} has no @example`).toBe(true);
        expect(doc?.onSpecifier, `${file}: ${name} is documented on its export specifier`).toBe(false);
      }
    }
  });

  /**
   * Module URLs a new process resolves when it runs `args` (see support/trace-imports.mjs). Traced once
   * per `args` in this file: the entry's graph, which two tests read, is the same in every process.
   */
  const traces = new Map<string, Promise<string[]>>();
  function resolved(args: string[]): Promise<string[]> {
    const key = JSON.stringify(args);
    let trace = traces.get(key);
    if (trace === undefined) {
      trace = run('node', ['--import', './test/support/trace-imports.mjs', ...args], { cwd: ROOT }).then(
        ({ stderr }) =>
          stderr
            .split('\n')
            .filter((l) => l.startsWith('resolved '))
            .map((l) => l.slice('resolved '.length)),
      );
      traces.set(key, trace);
    }
    return trace;
  }
  const HEAVY = [
    /node_modules\/@modelcontextprotocol\//,
    /node_modules\/jose\//,
    /node_modules\/nodemailer\//,
    /node_modules\/ajv(-formats)?\//,
    /node_modules\/re2js\//,
    // ~90 modules with its metadata: loaded on the first phone number to normalise.
    /node_modules\/libphonenumber-js\//,
  ];
  const inDist = (url: string, dir: string) => url.startsWith(`file://${join(ROOT, 'dist', dir)}/`);
  /** The tools (generator, bench command), in source or built: never part of the library's graph. */
  const isTool = (url: string) =>
    url.startsWith(`file://${join(ROOT, 'tools')}/`) || url.startsWith(`file://${join(ROOT, 'dist-tools')}/`);

  it('import the tools nowhere, and the MCP SDK, mail and research schemas only where needed', async () => {
    const entry = await resolved(['--input-type=module', '-e', "await import('prospectdb')"]);
    expect(entry.some((u) => u.endsWith('/dist/index.js'))).toBe(true);
    expect(entry.filter((u) => isTool(u) || inDist(u, 'cli'))).toEqual([]);
    expect(entry.filter((u) => HEAVY.some((h) => h.test(u)))).toEqual([]);

    const server = await resolved(['--input-type=module', '-e', "await import('prospectdb/server')"]);
    expect(server.some((u) => u.endsWith('/dist/serve/server.js'))).toBe(true);
    expect(server.filter(isTool)).toEqual([]);
    expect(server.some((u) => /node_modules\/@modelcontextprotocol\//.test(u))).toBe(true);
  });

  it('import no route area, worker slice, loader or delta reader with the entry: each loads on first use', async () => {
    const entry = await resolved(['--input-type=module', '-e', "await import('prospectdb')"]);
    // The loader and its native MessagePack reader (msgpackr's node entry) come with the first load.
    const lazy = (u: string) =>
      /\/dist\/(facade\/routes\/(?!index\.js|table\.generated\.js)|jobs\/(?!slot\.js)|webhooks\/|snapshot\/|store\/(load|load-stream|load-pool|load-worker|delta)\.js$)/.test(
        u,
      ) || /node_modules\/msgpackr\/(node-index|stream)\.js$/.test(u);
    expect(entry.filter(lazy)).toEqual([]);
    // The route table routes a request without its area; the area comes with the first request to it.
    expect(entry.some((u) => u.endsWith('/dist/facade/routes/table.generated.js'))).toBe(true);
  });

  it('hold only the library in dist/: the tools are not built into it', () => {
    const dirs = readdirSync(join(ROOT, 'dist'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(dirs).not.toContain('generate');
    expect(dirs).not.toContain('bench');
    expect(dirs).toContain('serve');
  });

  it('start the CLI with only the command that runs', async () => {
    const help = await resolved(['dist/cli/main.js', '--help']);
    expect(help.filter((u) => inDist(u, '')).map((u) => u.slice(`file://${ROOT}dist/`.length))).toEqual([
      'cli/main.js',
      'errors.js',
    ]);
    const info = await resolved(['dist/cli/main.js', 'info', '--help']);
    expect(info.filter(isTool)).toEqual([]);
    expect(info.filter((u) => HEAVY.some((h) => h.test(u)))).toEqual([]);
  });

  it('start the export and index threads without the record schemas (zod) or the facade', async () => {
    // A worker thread pays its own imports: zod alone is ~230 modules, most of a thread's start.
    for (const worker of ['export/parquet-worker.js', 'core/index-worker.js']) {
      const graph = await resolved([
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(join(ROOT, 'dist', worker))}).catch(() => {})`,
      ]);
      expect(graph.some((u) => u.endsWith(`/dist/${worker}`))).toBe(true);
      expect(graph.filter((u) => /node_modules\/zod\//.test(u) || inDist(u, 'facade'))).toEqual([]);
    }
  });

  it('say so clearly when a tool is not installed (an installed package has no tools)', async () => {
    // The CLI as a package install lays it out: dist/ without the tools' build beside it.
    const pkg = join(tmp, 'installed');
    mkdirSync(join(pkg, 'dist', 'cli'), { recursive: true });
    copyFileSync(join(ROOT, 'dist/cli/main.js'), join(pkg, 'dist/cli/main.js'));
    copyFileSync(join(ROOT, 'dist/errors.js'), join(pkg, 'dist/errors.js'));
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'prospectdb', type: 'module' }));
    for (const tool of ['generate', 'bench']) {
      const failed = await run('node', [join(pkg, 'dist/cli/main.js'), tool, '--help']).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr.trim()).toBe(
        `prospectdb: '${tool}' is a development tool, not part of the installed package. From a checkout ` +
          `of the repository: npm run build:tools, then prospectdb ${tool} …; or npm run ${tool} -- …`,
      );
    }
  });

  it('run the tools from their build in a checkout', async () => {
    // Built by the project's global setup when stale (`support/global-build.ts`).
    expect(toolsAreFresh()).toBe(true);
    const { stderr } = await run('node', ['dist/cli/main.js', 'generate', '--help'], { cwd: ROOT });
    expect(stderr).toMatch(/^usage: prospectdb generate --out DIR/);
    const { stdout } = await run('node', ['dist/cli/main.js', 'bench', '--help'], { cwd: ROOT });
    expect(stdout).toMatch(/^usage: prospectdb bench /);
  }, 180_000);
});
