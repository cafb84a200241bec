/** scripts/bench-page.ts: the benchmarks page's committed-reports section, written from report JSON. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { END, renderSection, replaceSection, START, type Sourced } from '../scripts/bench-page.js';
import { REPORT_FORMAT, type BenchReport } from '../tools/bench/report.js';

const report: BenchReport = {
  format: REPORT_FORMAT,
  created: '2026-11-23T10:00:00.000Z',
  command: 'prospectdb bench --businesses 20000 --prospects 100000',
  machine: {
    os: 'Linux',
    release: '6.1',
    arch: 'x64',
    cpus: 2,
    cpuModel: 'Test CPU',
    memoryMB: 7936,
    node: 'v20.19.0',
    sqlite: '3.50.4',
    version: '0.1.0',
  },
  data: {
    source: 'generated',
    path: '/tmp/x.db',
    businesses: 20000,
    prospects: 100000,
    seed: 7,
    cached: true,
  },
  metrics: [
    {
      key: 'match.business.exact.batch',
      label: 'business match, exact keys, batch',
      unit: 'rows/s',
      value: 300000,
      better: 'higher',
      baseline: { name: 'Map', value: 200000 },
    },
    {
      key: 'fetch.p99',
      label: 'fetch page 1, p99',
      unit: 'ms',
      value: 2,
      better: 'lower',
      baseline: { name: 'SQLite', value: 50 },
    },
    { key: 'rss', label: 'RSS after open', unit: 'MB', value: 123.456, better: 'lower' },
  ],
  latencies: [],
  throughputByBatch: [],
  curves: [],
  quality: [
    { entity: 'businesses', rows: 2600, precision: 0.99712, recall: 0.97, f1: 0.9834, byMatchedOn: {} },
  ],
  notes: ['DuckDB not installed: skipped'],
  seconds: 31.7,
};

describe('scripts/bench-page.ts', () => {
  it('writes each report with its command, commit, machine and every metric beside its baseline', () => {
    const sourced: Sourced = { file: 'bench/results/medium/report.json', commit: 'abc1234', report };
    expect(renderSection([sourced])).toBe(
      [
        START,
        '',
        '### `bench/results/medium/report.json`',
        '',
        '- command: `prospectdb bench --businesses 20000 --prospects 100000`',
        '- commit: abc1234; run 2026-11-23T10:00:00.000Z, 31.7 s',
        '- machine: Linux 6.1 x64, 2 × Test CPU, 7,936 MB; Node v20.19.0, SQLite 3.50.4, prospectdb 0.1.0',
        '- data: generated (seed 7), 20,000 businesses, 100,000 prospects',
        '',
        '| metric | prospectdb | same-run baseline | ratio |',
        '|---|---|---|---|',
        '| business match, exact keys, batch | 300,000 rows/s | Map: 200,000 rows/s | 1.5× |',
        '| fetch page 1, p99 | 2 ms | SQLite: 50 ms | 25× |',
        '| RSS after open | 123 MB | – | – |',
        '',
        'Match quality, businesses (2,600 labelled rows): P 0.9971, R 0.9700, F1 0.9834.',
        '',
        'Note: DuckDB not installed: skipped',
        '',
        END,
      ].join('\n'),
    );
  });

  it('says how to add a report when none is committed', () => {
    expect(renderSection([])).toContain('No report is committed yet');
  });

  it('replaces only the text between the markers, and refuses a page without them', () => {
    const page = `before\n${START}\nold\n${END}\nafter\n`;
    expect(replaceSection(page, `${START}\nnew\n${END}`)).toBe(`before\n${START}\nnew\n${END}\nafter\n`);
    expect(() => replaceSection('no markers', 'x')).toThrow(/markers/);
  });

  it('finds docs/benchmarks.md current', () => {
    expect(() =>
      execFileSync('node', ['--import', 'tsx', 'scripts/bench-page.ts', '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
