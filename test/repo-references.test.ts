/**
 * What the code cites stays in the repository: no absolute paths of one machine, no documents outside
 * the repo (the interface documents are in docs/spec/, cited by that path), no issue-tracker numbers
 * (the why is said in words), and every cited docs/ file and spec section exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['src', 'tools', 'test', 'bench', 'scripts', 'fixtures'];
/** This file names the patterns it looks for. */
const SELF = 'test/repo-references.test.ts';

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join('fixtures', 'demo') ? [] : sources(path);
    return /\.(ts|mts|mjs|cjs|js)$/.test(e.name) ? [path] : [];
  });
}

const files = DIRS.flatMap((d) => sources(d))
  .map((f) => relative(ROOT, join(ROOT, f)))
  .filter((f) => f !== SELF)
  .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

/** `path:line: text` of every line matching `re`. */
function hits(re: RegExp): string[] {
  return files.flatMap(({ path, text }) =>
    text.split('\n').flatMap((line, i) => (re.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
}

const SPEC = ['api-reference', 'interface.md', 'snapshot-format.md', 'openapi-v1.json'];

describe('references in the code', () => {
  it('reads the sources it checks', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.some((f) => f.path === join('src', 'index.ts'))).toBe(true);
  });

  it('holds no absolute path of a machine', () => {
    expect(hits(/(?<![\w.])\/(work|root|home|Users)\/[\w.-]/)).toEqual([]);
  });

  it('cites no document outside the repository', () => {
    expect(hits(/shared\/spec/)).toEqual([]);
    for (const doc of SPEC)
      expect(hits(new RegExp(`(?<!docs/spec/)${doc.replace(/\./g, '\\.')}`)), doc).toEqual([]);
  });

  it('cites no issue numbers', () => {
    expect(hits(/\bissues? #?\d+|\(#\d+\b|\bgoal #\d+/i)).toEqual([]);
  });

  it('cites docs/ files and folders that exist, and spec sections that exist in them', () => {
    const cited = new Set(
      files.flatMap(({ text }) => [...text.matchAll(/(?<![\w/.-])docs\/[\w./-]*\w/g)].map((m) => m[0])),
    );
    expect(cited.size).toBeGreaterThan(3);
    // docs/api is generated (`npm run docs`), not kept in the repository.
    for (const path of cited) if (path !== 'docs/api') expect(existsSync(join(ROOT, path)), path).toBe(true);

    const headings = (doc: string) =>
      readFileSync(join(ROOT, 'docs/spec', doc), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => l.replace(/^#+\s*/, ''));
    const api = headings('api-reference.md');
    const sections = files.flatMap(({ path, text }) =>
      [...text.matchAll(/docs\/spec\/api-reference\.md §(\d+(?:\.\d+)?)/g)].map((m) => ({ path, n: m[1]! })),
    );
    expect(sections.length).toBeGreaterThan(20);
    for (const { path, n } of sections)
      expect(
        api.some((h) => h.startsWith(`${n} `) || h.startsWith(`${n}. `)),
        `${path}: api-reference.md §${n}`,
      ).toBe(true);

    const snapshot = headings('snapshot-format.md');
    for (const [, name] of files.flatMap(({ text }) => [...text.matchAll(/snapshot-format\.md § (\w+)/g)]))
      expect(snapshot, `snapshot-format.md § ${name}`).toContain(name);
  });
});
