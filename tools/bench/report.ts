/**
 * The bench report: one JSON document (versioned) that the Markdown and HTML pages are rendered from,
 * and that `--compare` reads back.
 */
import type { Distribution } from './measure.js';

export const REPORT_FORMAT = 'prospectdb-bench/1';

export type Unit = 'rows/s' | 'ms' | 'MB' | 'B' | 'share' | 'ratio';

export interface Metric {
  /** Stable key (`match.business.exact.batch`), what `--compare` lines up. */
  key: string;
  label: string;
  unit: Unit;
  value: number;
  better: 'higher' | 'lower';
  /** The same work done a plain way, measured in the same run. */
  baseline?: { name: string; value: number };
}

export interface Latency {
  key: string;
  label: string;
  ours: Distribution;
  /** Latency at each percent 0…100 (101 points), for the distribution chart. */
  oursQuantiles: number[];
  baseline: { name: string; distribution: Distribution; quantiles: number[] } | null;
}

export interface CurveSeries {
  entity: 'businesses' | 'prospects';
  points: { threshold: number; precision: number; recall: number; f1: number }[];
}

export interface BenchReport {
  format: typeof REPORT_FORMAT;
  created: string;
  /** The command line that re-runs this bench. */
  command: string;
  machine: {
    os: string;
    release: string;
    arch: string;
    cpus: number;
    cpuModel: string;
    memoryMB: number;
    node: string;
    sqlite: string;
    version: string;
  };
  data: {
    source: 'generated' | 'file';
    path: string;
    businesses: number;
    prospects: number;
    seed: number | null;
    cached: boolean;
  };
  metrics: Metric[];
  latencies: Latency[];
  /** Rows per second of the batch API by batch size. */
  throughputByBatch: { batch: number; exact: number; mixed: number }[];
  curves: CurveSeries[];
  quality: {
    entity: 'businesses' | 'prospects';
    rows: number;
    precision: number;
    recall: number;
    f1: number;
    byMatchedOn: Record<string, { rows: number; precision: number; recall: number; f1: number }>;
  }[];
  notes: string[];
  seconds: number;
}

/** Latency at each whole percent, for charts (samples in milliseconds). */
export function quantiles(samples: readonly number[]): number[] {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return [];
  return Array.from(
    { length: 101 },
    (_, q) => s[Math.min(s.length - 1, Math.round((q / 100) * (s.length - 1)))] as number,
  );
}

/** A figure with 3 significant digits and thousands separators. */
export function fmt(x: number, unit?: Unit): string {
  if (!Number.isFinite(x)) return '–';
  if (unit === 'share') return (x * 100).toFixed(2) + '%';
  if (unit === 'ratio') return ratioText(x);
  const digits = Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : Math.abs(x) >= 1 ? 2 : 3;
  const s = x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return unit === undefined ? s : `${s} ${unit}`;
}

/** A ratio as `0.659×`, `18.6×`, `9,230×` (3 significant digits, no exponent). */
export function ratioText(x: number): string {
  if (!Number.isFinite(x)) return '–';
  return `${x >= 1000 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(3)}×`;
}

/** ours / baseline, oriented so > 1 means ours is better. */
export function advantage(m: Metric): number | null {
  if (m.baseline === undefined || m.baseline.value === 0 || m.value === 0) return null;
  return m.better === 'higher' ? m.value / m.baseline.value : m.baseline.value / m.value;
}

export function parseReport(text: string, source: string): BenchReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${source}: not JSON`);
  }
  const r = value as Partial<BenchReport> | null;
  if (r === null || typeof r !== 'object' || r.format !== REPORT_FORMAT || !Array.isArray(r.metrics))
    throw new Error(`${source}: not a prospectdb bench report (${REPORT_FORMAT})`);
  return r as BenchReport;
}

export interface Comparison {
  key: string;
  label: string;
  unit: Unit;
  a: number | null;
  b: number | null;
  /** b / a, oriented so > 1 means B is better; null when a side is missing. */
  ratio: number | null;
  verdict: 'better' | 'worse' | 'same' | 'only in A' | 'only in B';
}

/** Metric by metric: B against A; a change beyond `tolerance` (default 10%) is better or worse. */
export function compareReports(a: BenchReport, b: BenchReport, tolerance = 0.1): Comparison[] {
  const byKey = new Map(b.metrics.map((m) => [m.key, m]));
  const out: Comparison[] = [];
  for (const ma of a.metrics) {
    const mb = byKey.get(ma.key);
    byKey.delete(ma.key);
    if (mb === undefined) {
      out.push({
        key: ma.key,
        label: ma.label,
        unit: ma.unit,
        a: ma.value,
        b: null,
        ratio: null,
        verdict: 'only in A',
      });
      continue;
    }
    const ratio =
      ma.value === 0 || mb.value === 0
        ? null
        : ma.better === 'higher'
          ? mb.value / ma.value
          : ma.value / mb.value;
    const verdict =
      ratio === null
        ? 'same'
        : ratio > 1 + tolerance
          ? 'better'
          : ratio < 1 / (1 + tolerance)
            ? 'worse'
            : 'same';
    out.push({ key: ma.key, label: ma.label, unit: ma.unit, a: ma.value, b: mb.value, ratio, verdict });
  }
  for (const mb of byKey.values())
    out.push({
      key: mb.key,
      label: mb.label,
      unit: mb.unit,
      a: null,
      b: mb.value,
      ratio: null,
      verdict: 'only in B',
    });
  return out;
}
