/** `prospectdb bench` on a tiny generated snapshot: the three report files, their contents, `--compare`. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../tools/bench/command.js';
import { generatedDatabase } from '../tools/bench/data.js';
import { advantage, type BenchReport } from '../tools/bench/report.js';
import { launchBrowser } from './support/browser.js';

let dir: string;
let report: BenchReport;
let stdout: string;
let stderr: string;

/** Runs the command, capturing what it prints. */
async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  try {
    const code = await run(argv);
    return { code, out: out.join('\n'), err: err.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pdb-bench-'));
  const r = await cli([
    '--businesses',
    '300',
    '--prospects',
    '1500',
    '--cache',
    join(dir, 'cache'),
    '--out',
    join(dir, 'out'),
    '--rows',
    '300',
    '--per-kind',
    '6',
    '--requests',
    '12',
    '--min-time',
    '20',
  ]);
  expect(r.code).toBe(0);
  stdout = r.out;
  stderr = r.err;
  report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as BenchReport;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('prospectdb bench', () => {
  it('writes progress on stderr and the summary table on stdout', () => {
    expect(stderr).toContain('bench: generated 300 businesses, 1500 prospects');
    expect(stderr).toContain('bench: open → first answer, in a fresh process');
    expect(stdout).toMatch(/^metric\s+prospectdb\s+baseline\s+advantage/m);
    expect(stdout).toContain('report.html, report.md, report.json');
  });

  it('records the machine, the data and the command that re-runs it', () => {
    expect(report.format).toBe('prospectdb-bench/1');
    expect(report.machine.cpus).toBeGreaterThan(0);
    expect(report.machine.node).toBe(process.version);
    expect(report.machine.version).toBe(
      (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
    );
    expect(report.data).toMatchObject({
      source: 'generated',
      businesses: 300,
      prospects: 1500,
      seed: 7,
      cached: false,
    });
    expect(report.command).toBe(
      `npx prospectdb bench --businesses 300 --prospects 1500 --cache ${join(dir, 'cache')} --out ${join(dir, 'out')} --rows 300 --per-kind 6 --requests 12 --min-time 20`,
    );
  });

  it('measures every workload, each beside its same-run baseline', () => {
    const byKey = new Map(report.metrics.map((m) => [m.key, m]));
    const withBaseline = [
      'open.first_fetch',
      'memory.rss',
      'match.business.exact.batch',
      'match.business.exact.facade',
      'match.prospect.exact.batch',
      'match.prospect.exact.facade',
      'quality.business.precision',
      'quality.business.recall',
      'quality.prospect.f1',
      'fetch.p50',
      'fetch.p99',
      'stats.p99',
      'autocomplete.p99',
      'cursor.last.p99',
    ];
    for (const key of withBaseline) {
      const m = byKey.get(key);
      expect(m, key).toBeDefined();
      expect(m?.value, key).toBeGreaterThan(0);
      expect(m?.baseline?.value, key).toBeGreaterThan(0);
    }
    for (const key of [
      'match.business.mixed.batch',
      'match.prospect.mixed.facade',
      'open.first_match',
      'cursor.ratio',
    ])
      expect(byKey.get(key)?.value, key).toBeGreaterThan(0);
    expect(byKey.get('match.business.exact.batch')?.baseline?.name).toBe('plain Map of exact keys');
    expect(byKey.get('fetch.p50')?.baseline?.name).toBe('plain SQLite');
    // Shares stay shares.
    for (const m of report.metrics.filter((x) => x.unit === 'share')) {
      expect(m.value).toBeLessThanOrEqual(1);
      expect(m.value).toBeGreaterThanOrEqual(0);
    }
  });

  it('keeps the distributions, rows/s by batch size and the min_confidence curve', () => {
    expect(report.latencies.map((l) => l.key)).toEqual([
      'fetch',
      'stats',
      'autocomplete',
      'cursor.first',
      'cursor.last',
    ]);
    for (const l of report.latencies) {
      expect(l.ours.n).toBe(12);
      expect(l.oursQuantiles).toHaveLength(101);
      expect(l.ours.p50).toBeLessThanOrEqual(l.ours.p99);
    }
    expect(report.throughputByBatch.map((p) => p.batch)).toEqual([1, 10, 100, 1000]);
    expect(report.curves.map((c) => c.entity)).toEqual(['businesses', 'prospects']);
    for (const c of report.curves) {
      expect(c.points).toHaveLength(20);
      // Raising the threshold can only drop answers: recall never rises along the curve.
      for (let i = 1; i < c.points.length; i++)
        expect(c.points[i]!.recall).toBeLessThanOrEqual(c.points[i - 1]!.recall);
    }
    expect(report.quality.map((q) => q.entity)).toEqual(['businesses', 'prospects']);
  });

  it('writes a Markdown report with the results table and the re-run command', () => {
    const md = readFileSync(join(dir, 'out', 'report.md'), 'utf8');
    expect(md).toContain('# prospectdb bench');
    expect(md).toContain(report.command);
    expect(md).toContain('| metric | prospectdb | same-run baseline | advantage |');
    expect(md).toContain('## Match quality: businesses');
  });

  it('writes a well-formed HTML page whose SVG charts parse', () => {
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    // The whole page is well-formed XML (void elements self-closed), so a strict parser reads it.
    expect(XMLValidator.validate(html.replace(/^<!DOCTYPE html>/, ''))).toBe(true);
    const svgs = html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    // ratios, batch sizes, five latency distributions, two curves
    expect(svgs).toHaveLength(1 + 1 + 5 + 2);
    const parser = new XMLParser({ ignoreAttributes: false });
    for (const svg of svgs) {
      expect(XMLValidator.validate(svg)).toBe(true);
      const doc = parser.parse(svg) as { svg: Record<string, unknown> };
      expect(doc.svg['@_xmlns']).toBe('http://www.w3.org/2000/svg');
      expect(doc.svg['@_viewBox']).toMatch(/^0 0 \d+ \d+$/);
      expect(typeof doc.svg.title).toBe('string');
      // Every chart draws something: lines (path) or bars (rect beyond the background).
      expect(svg.includes('<path') || (svg.match(/<rect/g) ?? []).length > 1).toBe(true);
      expect(svg).not.toMatch(/NaN|Infinity|undefined/);
    }
    // The same charts as standalone files.
    const files = readdirSync(join(dir, 'out', 'charts')).sort();
    expect(files).toEqual([
      'batch.svg',
      'curve-businesses.svg',
      'curve-prospects.svg',
      'latency-autocomplete.svg',
      'latency-cursor.first.svg',
      'latency-cursor.last.svg',
      'latency-fetch.svg',
      'latency-stats.svg',
      'ratios.svg',
    ]);
    for (const f of files)
      expect(XMLValidator.validate(readFileSync(join(dir, 'out', 'charts', f), 'utf8'))).toBe(true);
  });

  it('renders every chart of the HTML page in a headless browser', async () => {
    // What each chart must draw, from the report: bars (beside the background rect), lines, point marks.
    const expected = new Map<
      string,
      { rects?: number; paths?: number; circles?: number; labels: string[] }
    >();
    const bars = report.metrics.filter((m) => advantage(m) !== null).length;
    expected.set('ratios', { rects: bars + 1, labels: ['1×'] });
    expected.set('batch', { paths: 2, circles: 2 * 4, labels: ['rows per call', 'rows/s'] });
    for (const l of report.latencies)
      expected.set(`latency-${l.key}`, {
        paths: l.baseline ? 2 : 1,
        circles: 0,
        labels: ['milliseconds (log)', 'percentile'],
      });
    for (const c of report.curves)
      expected.set(`curve-${c.entity}`, {
        paths: 3,
        circles: 3 * c.points.length,
        labels: ['min_confidence', 'share of rows'],
      });

    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page: ${String(e)}`));
      page.on('requestfailed', (r) => problems.push(`request: ${r.url()}`));
      await page.setViewport({ width: 1200, height: 900 });
      await page.goto(`file://${join(dir, 'out', 'report.html')}`, { waitUntil: 'load', timeout: 30_000 });
      const figures = await page.$$eval('figure', (els) =>
        els.map((f) => {
          const box = (e: (typeof els)[number]) => {
            const r = e.getBoundingClientRect();
            return { x: r.x, y: r.y, w: r.width, h: r.height };
          };
          const svg = f.querySelector('svg')!;
          const frame = box(svg);
          return {
            id: f.id,
            svg: frame,
            rects: [...svg.querySelectorAll('rect')].map(box),
            paths: [...svg.querySelectorAll('path')].map(box),
            circles: [...svg.querySelectorAll('circle')].map(box),
            texts: [...svg.querySelectorAll('text')].map((t) => {
              const b = box(t);
              const style = t.ownerDocument.defaultView!.getComputedStyle(t);
              return {
                text: t.textContent ?? '',
                size: b.w > 0 && b.h > 0,
                inside:
                  b.x >= frame.x - 1 &&
                  b.y >= frame.y - 1 &&
                  b.x + b.w <= frame.x + frame.w + 1 &&
                  b.y + b.h <= frame.y + frame.h + 1,
                shown: style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0',
              };
            }),
          };
        }),
      );
      expect(figures.map((f) => f.id)).toEqual([...expected.keys()]);
      for (const f of figures) {
        const want = expected.get(f.id)!;
        expect(f.svg.w, f.id).toBeGreaterThan(100);
        expect(f.svg.h, f.id).toBeGreaterThan(100);
        if (want.rects !== undefined) {
          expect(f.rects, f.id).toHaveLength(want.rects);
          for (const r of f.rects) expect(r.w > 0 && r.h > 0, f.id).toBe(true);
        }
        if (want.paths !== undefined) {
          expect(f.paths, f.id).toHaveLength(want.paths);
          for (const p of f.paths) expect(p.w + p.h, f.id).toBeGreaterThan(0);
        }
        if (want.circles !== undefined) expect(f.circles, f.id).toHaveLength(want.circles);
        for (const c of f.circles) expect(c.w > 0 && c.h > 0, f.id).toBe(true);
        // The title, the axis labels and every tick label are laid out inside the chart and visible.
        const texts = f.texts.map((t) => t.text);
        for (const label of want.labels) expect(texts, f.id).toContain(label);
        for (const t of f.texts)
          expect(t, `${f.id}: ${t.text}`).toMatchObject({ size: true, inside: true, shown: true });
      }
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('caches the generated database for the next run', async () => {
    const again = await generatedDatabase({
      businesses: 300,
      prospects: 1500,
      seed: 7,
      cacheDir: join(dir, 'cache'),
      log: () => {
        throw new Error('a cached database is not rebuilt');
      },
    });
    expect(again).toEqual({ path: report.data.path, cached: true });
  });

  it('--compare prints the ratio of every metric of B against A', async () => {
    const a = join(dir, 'out', 'report.json');
    const slower: BenchReport = {
      ...report,
      metrics: report.metrics.map((m) =>
        m.key === 'match.business.exact.batch' ? { ...m, value: m.value / 2 } : m,
      ),
    };
    const b = join(dir, 'b.json');
    writeFileSync(b, JSON.stringify(slower));
    const r = await cli(['--compare', a, b]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^metric\s+A\s+B\s+B vs A\s+verdict$/m);
    const line = r.out.split('\n').find((l) => l.startsWith('business match, exact domains, batch API '));
    expect(line).toMatch(/0\.500×\s+worse$/);
    const same = r.out.split('\n').find((l) => l.startsWith('stats p99'));
    expect(same).toMatch(/1\.00×\s+same$/);
    expect(r.out).toContain('1 metric worse, 0 better');
  });

  it('refuses a file that is not a report', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hello": 1}');
    await expect(cli(['--compare', bad, bad])).rejects.toThrow('not a prospectdb bench report');
  });

  it('answers usage errors with exit code 2', async () => {
    expect((await cli(['--businesses', 'ten'])).code).toBe(2);
    expect((await cli(['--db', 'x.db', '--businesses', '10'])).code).toBe(2);
    expect((await cli(['--compare', 'a.json'])).code).toBe(2);
    const missing = await cli(['--db', join(dir, 'nope.db')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('nope.db: no such file');
  });
});
