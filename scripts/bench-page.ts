/**
 * Writes the "Committed reports" section of docs/benchmarks.md from the `prospectdb bench` reports kept
 * in bench/results (`report.json` in a folder of its own, or `<name>.json`), so those figures are never
 * copied by hand: each with the command that re-runs it, the commit that added it and the machine.
 *
 *   node --import tsx scripts/bench-page.ts            rewrites the section between the markers
 *   node --import tsx scripts/bench-page.ts --check    exits 1 when the page is not what it would write
 *
 * Add a report with `npx prospectdb bench --out bench/results/<name>` and commit it, then run this.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORT_FORMAT, type BenchReport, type Metric } from '../tools/bench/report.js';

export const START = '<!-- bench-results:start (scripts/bench-page.ts writes this section) -->';
export const END = '<!-- bench-results:end -->';

/** A report and where it came from. */
export interface Sourced {
  /** Path relative to the repository root. */
  file: string;
  /** Short id of the commit that last changed the file, or null when it is not committed. */
  commit: string | null;
  report: BenchReport;
}

const number = (x: number): string =>
  Math.abs(x) >= 100 ? Math.round(x).toLocaleString('en-US') : String(Number(x.toPrecision(3)));

/** "1.42× better" style ratio of ours to the baseline, oriented so that above 1× is better for us. */
export function ratio(m: Metric): string {
  if (!m.baseline || m.baseline.value === 0 || m.value === 0) return '–';
  const r = m.better === 'higher' ? m.value / m.baseline.value : m.baseline.value / m.value;
  return `${number(r)}×`;
}

/** The Markdown of one report: command, commit, machine, data, then every metric beside its baseline. */
export function renderReport({ file, commit, report }: Sourced): string {
  const m = report.machine;
  const d = report.data;
  const lines = [
    `### \`${file}\``,
    '',
    `- command: \`${report.command}\``,
    `- commit: ${commit ?? 'not committed'}; run ${report.created}, ${number(report.seconds)} s`,
    `- machine: ${m.os} ${m.release} ${m.arch}, ${m.cpus} × ${m.cpuModel}, ${number(m.memoryMB)} MB; Node ${m.node}, SQLite ${m.sqlite}, prospectdb ${m.version}`,
    `- data: ${d.source === 'generated' ? `generated (seed ${d.seed ?? '–'})` : `file \`${d.path}\``}, ${number(d.businesses)} businesses, ${number(d.prospects)} prospects`,
    '',
    '| metric | prospectdb | same-run baseline | ratio |',
    '|---|---|---|---|',
    ...report.metrics.map(
      (x) =>
        `| ${x.label} | ${number(x.value)} ${x.unit} | ${x.baseline ? `${x.baseline.name}: ${number(x.baseline.value)} ${x.unit}` : '–'} | ${ratio(x)} |`,
    ),
  ];
  for (const q of report.quality)
    lines.push(
      '',
      `Match quality, ${q.entity} (${number(q.rows)} labelled rows): P ${q.precision.toFixed(4)}, R ${q.recall.toFixed(4)}, F1 ${q.f1.toFixed(4)}.`,
    );
  for (const note of report.notes) lines.push('', `Note: ${note}`);
  return lines.join('\n');
}

/** The whole section between the markers. */
export function renderSection(reports: readonly Sourced[]): string {
  const body =
    reports.length === 0
      ? 'No report is committed yet. Add one with `npx prospectdb bench --out bench/results/<name>`, commit it, then run `node --import tsx scripts/bench-page.ts`.'
      : reports.map(renderReport).join('\n\n');
  return `${START}\n\n${body}\n\n${END}`;
}

/** `page` with its section replaced; throws when the markers are missing. */
export function replaceSection(page: string, section: string): string {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a === -1 || b === -1 || b < a)
    throw new Error(`docs/benchmarks.md: markers ${START} … ${END} not found`);
  return page.slice(0, a) + section + page.slice(b + END.length);
}

/** Every bench report under `dir`, sorted by path. */
function readReports(root: string, dir: string): Sourced[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (existsSync(join(path, 'report.json'))) files.push(join(path, 'report.json'));
    } else if (name.endsWith('.json')) files.push(path);
  }
  const out: Sourced[] = [];
  for (const path of files) {
    const report = JSON.parse(readFileSync(path, 'utf8')) as BenchReport;
    if (report.format !== REPORT_FORMAT) continue;
    const file = relative(root, path);
    let commit: string | null = null;
    try {
      commit =
        execFileSync('git', ['log', '-1', '--format=%h', '--', file], {
          cwd: root,
          encoding: 'utf8',
        }).trim() || null;
    } catch {
      commit = null;
    }
    out.push({ file, commit, report });
  }
  return out;
}

function main(argv: string[]): number {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const pagePath = join(root, 'docs/benchmarks.md');
  const page = readFileSync(pagePath, 'utf8');
  const next = replaceSection(page, renderSection(readReports(root, join(root, 'bench/results'))));
  if (argv.includes('--check')) {
    if (next !== page) {
      console.error('docs/benchmarks.md is not current: run node --import tsx scripts/bench-page.ts');
      return 1;
    }
    return 0;
  }
  writeFileSync(pagePath, next);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
