/**
 * `npm run build:tools`: compiles the tools (tools/: the fixture generator and the bench command) to
 * dist-tools/tools/, file by file (type-checking is `npm run typecheck`'s job), and links dist-tools/src
 * to the library's build (dist/, built first when missing). The tools import the library as `../../src/…`;
 * through the link they run on the library's one build, so nothing of the library is compiled twice and
 * its own relative paths (to package.json, say) hold. dist/ stays the library alone.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist-tools');

if (!existsSync(join(ROOT, 'dist', 'index.js')))
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });

/** Every .ts file under dir. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

rmSync(OUT, { recursive: true, force: true });
const compilerOptions = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2022,
  verbatimModuleSyntax: true,
  sourceMap: true,
};
for (const file of sources(join(ROOT, 'tools'))) {
  const rel = relative(ROOT, file);
  const out = join(OUT, rel.replace(/\.ts$/, '.js'));
  const { outputText, sourceMapText, diagnostics } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions,
    fileName: file,
    reportDiagnostics: true,
  });
  if (diagnostics?.length) {
    console.error(ts.formatDiagnostics(diagnostics, ts.createCompilerHost({})));
    process.exit(1);
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, outputText);
  if (sourceMapText) writeFileSync(`${out}.map`, sourceMapText);
}
symlinkSync(join('..', 'dist'), join(OUT, 'src'), 'dir');
