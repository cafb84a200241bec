/**
 * Inline SVG charts with no library: a line chart (linear or log axes) and a horizontal bar chart.
 * Every chart is a standalone, well-formed SVG document fragment (`xmlns` set, text escaped).
 */

import { ratioText } from './report.js';

export interface Series {
  name: string;
  points: readonly (readonly [number, number])[];
  /** Dashed line (baselines). */
  dashed?: boolean;
}

export interface LineChart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly Series[];
  xLog?: boolean;
  yLog?: boolean;
  /** Fixed y range (e.g. [0, 1] for shares). */
  yRange?: readonly [number, number];
  width?: number;
  height?: number;
}

const COLOURS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989'];

export function escapeXml(s: string): string {
  return s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );
}

const num = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(2)).toString() : '0');

/** Tick label: 3 significant digits, k / M suffixes. */
function tick(x: number): string {
  const a = Math.abs(x);
  if (a >= 1e6) return `${Number((x / 1e6).toPrecision(3))}M`;
  if (a >= 1e3) return `${Number((x / 1e3).toPrecision(3))}k`;
  if (a === 0) return '0';
  return String(Number(x.toPrecision(a < 0.01 ? 1 : 3)));
}

function ticks(lo: number, hi: number, log: boolean): number[] {
  if (log) {
    const out: number[] = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
    return out.filter((t) => t >= lo * 0.999 && t <= hi * 1.001);
  }
  const span = hi - lo || 1;
  const step = 10 ** Math.floor(Math.log10(span / 4));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => span / s <= 6) ?? step * 10;
  const out: number[] = [];
  for (let t = Math.ceil(lo / nice) * nice; t <= hi + nice * 1e-9; t += nice)
    out.push(Number(t.toPrecision(12)));
  return out;
}

function frame(width: number, height: number, title: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}" font-family="system-ui, sans-serif" font-size="12">` +
    `<title>${escapeXml(title)}</title><rect width="${width}" height="${height}" fill="#ffffff"/>` +
    `<text x="${width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="600">${escapeXml(title)}</text>` +
    body +
    `</svg>`
  );
}

export function lineChart(c: LineChart): string {
  const width = c.width ?? 560;
  const height = c.height ?? 320;
  const m = { left: 64, right: 16, top: 30, bottom: 70 };
  const pts = c.series.flatMap((s) => s.points).filter(([x, y]) => (!c.xLog || x > 0) && (!c.yLog || y > 0));
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = c.yRange ?? [c.yLog ? Math.min(...ys) : Math.min(0, ...ys), Math.max(...ys)];
  if (!Number.isFinite(x0)) [x0, x1] = [c.xLog ? 1 : 0, 1];
  if (!Number.isFinite(y0) || !Number.isFinite(y1)) [y0, y1] = [c.yLog ? 1 : 0, 1];
  if (c.xLog) [x0, x1] = [10 ** Math.floor(Math.log10(x0)), 10 ** Math.ceil(Math.log10(x1))];
  if (c.yLog) [y0, y1] = [10 ** Math.floor(Math.log10(y0)), 10 ** Math.ceil(Math.log10(y1))];
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) y1 = y0 + 1;
  const pw = width - m.left - m.right;
  const ph = height - m.top - m.bottom;
  const sx = (x: number) =>
    m.left +
    (c.xLog ? (Math.log10(x) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0)) : (x - x0) / (x1 - x0)) *
      pw;
  const sy = (y: number) =>
    m.top +
    ph -
    (c.yLog ? (Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0)) : (y - y0) / (y1 - y0)) *
      ph;
  let body = `<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#d0d7de"/>`;
  for (const t of ticks(x0, x1, c.xLog === true))
    body +=
      `<line x1="${num(sx(t))}" y1="${m.top}" x2="${num(sx(t))}" y2="${m.top + ph}" stroke="#eaeef2"/>` +
      `<text x="${num(sx(t))}" y="${m.top + ph + 14}" text-anchor="middle" fill="#57606a">${escapeXml(tick(t))}</text>`;
  for (const t of ticks(y0, y1, c.yLog === true))
    body +=
      `<line x1="${m.left}" y1="${num(sy(t))}" x2="${m.left + pw}" y2="${num(sy(t))}" stroke="#eaeef2"/>` +
      `<text x="${m.left - 6}" y="${num(sy(t) + 4)}" text-anchor="end" fill="#57606a">${escapeXml(tick(t))}</text>`;
  body +=
    `<text x="${m.left + pw / 2}" y="${m.top + ph + 32}" text-anchor="middle">${escapeXml(c.xLabel)}</text>` +
    `<text transform="translate(14 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle">${escapeXml(c.yLabel)}</text>`;
  c.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length] as string;
    const p = s.points.filter(([x, y]) => (!c.xLog || x > 0) && (!c.yLog || y > 0));
    if (p.length > 0) {
      const d = p.map(([x, y], j) => `${j === 0 ? 'M' : 'L'}${num(sx(x))} ${num(sy(y))}`).join(' ');
      body += `<path d="${d}" fill="none" stroke="${colour}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`;
      if (p.length <= 30)
        for (const [x, y] of p)
          body += `<circle cx="${num(sx(x))}" cy="${num(sy(y))}" r="3" fill="${colour}"/>`;
    }
    const lx = m.left + (i % 3) * (pw / 3);
    const ly = height - 22 + Math.floor(i / 3) * 14 - (c.series.length > 3 ? 8 : 0);
    body +=
      `<line x1="${num(lx)}" y1="${ly - 4}" x2="${num(lx + 18)}" y2="${ly - 4}" stroke="${colour}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>` +
      `<text x="${num(lx + 22)}" y="${ly}">${escapeXml(s.name)}</text>`;
  });
  return frame(width, height, c.title, body);
}

export interface Bar {
  label: string;
  value: number;
}

/**
 * Horizontal bars of ratios on a log scale around 1 (ours / baseline, oriented so > 1 is better):
 * bars right of the 1× line are wins, left of it losses.
 */
export function ratioChart(title: string, bars: readonly Bar[], width = 900): string {
  const rowH = 22;
  const m = { left: 470, right: 70, top: 34, bottom: 28 };
  // About 6.2 px per character at 12 px: longer labels are cut with an ellipsis (the full one is the title).
  const fit = (s: string) =>
    s.length * 6.2 <= m.left - 12 ? s : `${s.slice(0, Math.floor((m.left - 12) / 6.2) - 1)}…`;
  const height = m.top + m.bottom + bars.length * rowH;
  const values = bars.map((b) => b.value).filter((v) => v > 0);
  const lo = Math.min(0.1, ...values.map((v) => 10 ** Math.floor(Math.log10(v))));
  const hi = Math.max(10, ...values.map((v) => 10 ** Math.ceil(Math.log10(v))));
  const pw = width - m.left - m.right;
  const sx = (v: number) =>
    m.left + ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * pw;
  let body = '';
  for (const t of ticks(lo, hi, true))
    body +=
      `<line x1="${num(sx(t))}" y1="${m.top - 4}" x2="${num(sx(t))}" y2="${height - m.bottom}" stroke="${t === 1 ? '#57606a' : '#eaeef2'}"/>` +
      `<text x="${num(sx(t))}" y="${height - m.bottom + 14}" text-anchor="middle" fill="#57606a">${escapeXml(tick(t))}×</text>`;
  bars.forEach((b, i) => {
    const y = m.top + i * rowH;
    const v = b.value > 0 ? b.value : lo;
    const [a, z] = [Math.min(sx(1), sx(v)), Math.max(sx(1), sx(v))];
    const colour = v >= 1 ? '#1a7f37' : '#d1242f';
    body +=
      `<text x="${m.left - 8}" y="${y + 15}" text-anchor="end"><title>${escapeXml(b.label)}</title>${escapeXml(fit(b.label))}</text>` +
      `<rect x="${num(a)}" y="${y + 4}" width="${num(Math.max(z - a, 1))}" height="${rowH - 8}" fill="${colour}"/>` +
      `<text x="${num(z + 4)}" y="${y + 15}" fill="#57606a">${escapeXml(ratioText(b.value))}</text>`;
  });
  return frame(width, height, title, body);
}
