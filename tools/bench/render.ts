/** A bench report as Markdown, as a self-contained HTML page with inline SVG charts, and compared. */
import { advantage, fmt, ratioText, type BenchReport, type Comparison } from './report.js';
import { escapeXml, lineChart, ratioChart, type Series } from './svg.js';

/** The report's charts: [id, title, svg]. */
export function charts(r: BenchReport): [id: string, title: string, svg: string][] {
  const out: [string, string, string][] = [];
  const bars = r.metrics
    .map((m) => ({ label: `${m.label} (vs ${m.baseline?.name ?? ''})`, value: advantage(m) }))
    .filter((b): b is { label: string; value: number } => b.value !== null);
  if (bars.length > 0)
    out.push([
      'ratios',
      'ratios',
      ratioChart('prospectdb vs the same-run baseline (> 1× = prospectdb better)', bars),
    ]);
  if (r.throughputByBatch.length > 0)
    out.push([
      'batch',
      'rows/s by batch size',
      lineChart({
        title: 'Business match rows/s by batch size (batch API)',
        xLabel: 'rows per call',
        yLabel: 'rows/s',
        xLog: true,
        yLog: true,
        series: [
          { name: 'exact domains', points: r.throughputByBatch.map((p) => [p.batch, p.exact] as const) },
          {
            name: 'mixed rows with typos',
            points: r.throughputByBatch.map((p) => [p.batch, p.mixed] as const),
          },
        ],
      }),
    ]);
  for (const l of r.latencies) {
    const series: Series[] = [
      { name: 'prospectdb', points: l.oursQuantiles.map((ms, q) => [Math.max(ms, 1e-3), q] as const) },
    ];
    if (l.baseline !== null)
      series.push({
        name: l.baseline.name,
        dashed: true,
        points: l.baseline.quantiles.map((ms, q) => [Math.max(ms, 1e-3), q] as const),
      });
    out.push([
      `latency-${l.key}`,
      l.label,
      lineChart({
        title: `${l.label}: latency distribution`,
        xLabel: 'milliseconds (log)',
        yLabel: 'percentile',
        xLog: true,
        yRange: [0, 100],
        series,
      }),
    ]);
  }
  for (const c of r.curves)
    out.push([
      `curve-${c.entity}`,
      `${c.entity} precision / recall`,
      lineChart({
        title: `${c.entity}: precision and recall vs min_confidence`,
        xLabel: 'min_confidence',
        yLabel: 'share of rows',
        yRange: [Math.min(0.5, ...c.points.flatMap((p) => [p.precision, p.recall])), 1],
        series: [
          { name: 'precision', points: c.points.map((p) => [p.threshold, p.precision] as const) },
          { name: 'recall', points: c.points.map((p) => [p.threshold, p.recall] as const) },
          { name: 'F1', dashed: true, points: c.points.map((p) => [p.threshold, p.f1] as const) },
        ],
      }),
    ]);
  return out;
}

function metricRows(r: BenchReport): string[][] {
  return r.metrics.map((m) => {
    const a = advantage(m);
    return [
      m.label,
      fmt(m.value, m.unit),
      m.baseline ? `${fmt(m.baseline.value, m.unit)} (${m.baseline.name})` : '–',
      a === null ? '–' : ratioText(a),
    ];
  });
}

const METRIC_HEAD = ['metric', 'prospectdb', 'same-run baseline', 'advantage'];

function mdTable(rows: readonly (readonly string[])[]): string {
  const esc = (c: string) => c.replace(/\|/g, '\\|');
  const [head, ...body] = rows;
  if (head === undefined) return '';
  return [
    `| ${head.map(esc).join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...body.map((row) => `| ${row.map(esc).join(' | ')} |`),
  ].join('\n');
}

function facts(r: BenchReport): string[][] {
  const m = r.machine;
  return [
    ['fact', 'value'],
    ['os', `${m.os} ${m.release} (${m.arch})`],
    ['cpus', `${m.cpus} × ${m.cpuModel}`],
    ['memory', `${fmt(m.memoryMB)} MB`],
    ['node', m.node],
    ['SQLite', m.sqlite],
    ['prospectdb', m.version],
    [
      'data',
      `${r.data.source === 'generated' ? `generated (seed ${r.data.seed})` : 'file'}: ${fmt(r.data.businesses)} businesses, ${fmt(r.data.prospects)} prospects`,
    ],
    ['run time', `${r.seconds.toFixed(1)} s`],
    ['created', r.created],
  ];
}

function qualityRows(q: BenchReport['quality'][number]): string[][] {
  return [
    ['matched_on', 'rows', 'precision', 'recall', 'F1'],
    ['overall', String(q.rows), fmt(q.precision, 'share'), fmt(q.recall, 'share'), q.f1.toFixed(4)],
    ...Object.entries(q.byMatchedOn).map(([k, s]) => [
      k,
      String(s.rows),
      fmt(s.precision, 'share'),
      fmt(s.recall, 'share'),
      s.f1.toFixed(4),
    ]),
  ];
}

function curveRows(c: BenchReport['curves'][number]): string[][] {
  return [
    ['min_confidence', 'precision', 'recall', 'F1'],
    ...c.points
      .filter((p) => Math.round(p.threshold * 100) % 10 === 0 || p.threshold >= 0.9)
      .map((p) => [
        p.threshold.toFixed(2),
        fmt(p.precision, 'share'),
        fmt(p.recall, 'share'),
        p.f1.toFixed(4),
      ]),
  ];
}

export function toMarkdown(r: BenchReport): string {
  const out = [
    `# prospectdb bench`,
    '',
    'Re-run with:',
    '',
    '```sh',
    r.command,
    '```',
    '',
    mdTable(facts(r)),
    '',
    '## Results',
    '',
    'Every figure beside a baseline measured in the same run; "advantage" is oriented so > 1× means prospectdb is better (faster, smaller, more accurate). Charts are in the HTML report.',
    '',
    mdTable([METRIC_HEAD, ...metricRows(r)]),
  ];
  for (const q of r.quality) {
    out.push('', `## Match quality: ${q.entity} (labelled mixed rows)`, '', mdTable(qualityRows(q)));
    const c = r.curves.find((x) => x.entity === q.entity);
    if (c !== undefined)
      out.push(
        '',
        `Curve over \`min_confidence\` (a row keeps its answer iff its match_confidence ≥ the threshold):`,
        '',
        mdTable(curveRows(c)),
      );
  }
  if (r.notes.length > 0) out.push('', '## Notes', '', ...r.notes.map((n) => `- ${n}`));
  return out.join('\n') + '\n';
}

function htmlTable(rows: readonly (readonly string[])[]): string {
  const [head, ...body] = rows;
  if (head === undefined) return '';
  const cells = (row: readonly string[], tag: string) =>
    row.map((c, i) => `<${tag}${i > 0 ? ' class="n"' : ''}>${escapeXml(c)}</${tag}>`).join('');
  return `<table><thead><tr>${cells(head, 'th')}</tr></thead><tbody>${body.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('')}</tbody></table>`;
}

export function toHtml(r: BenchReport): string {
  const sections = charts(r)
    .map(([id, , svg]) => `<figure id="${escapeXml(id)}">${svg}</figure>`)
    .join('\n');
  const quality = r.quality
    .map((q) => {
      const c = r.curves.find((x) => x.entity === q.entity);
      return `<h2>Match quality: ${escapeXml(q.entity)}</h2>${htmlTable(qualityRows(q))}${c ? `<p>Curve over <code>min_confidence</code>:</p>${htmlTable(curveRows(c))}` : ''}`;
    })
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>prospectdb bench, ${escapeXml(r.created)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #1f2328; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border-bottom: 1px solid #d0d7de; padding: 0.25rem 0.6rem; text-align: left; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f6f8fa; padding: 0.6rem; overflow-x: auto; }
figure { display: inline-block; margin: 0.5rem; vertical-align: top; }
svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
<h1>prospectdb bench</h1>
<p>Re-run with:</p>
<pre><code>${escapeXml(r.command)}</code></pre>
${htmlTable(facts(r))}
<h2>Results</h2>
<p>Every figure beside a baseline measured in the same run; “advantage” is oriented so &gt; 1× means prospectdb is better.</p>
${htmlTable([METRIC_HEAD, ...metricRows(r)])}
<h2>Charts</h2>
${sections}
${quality}
${r.notes.length > 0 ? `<h2>Notes</h2><ul>${r.notes.map((n) => `<li>${escapeXml(n)}</li>`).join('')}</ul>` : ''}
</body>
</html>
`;
}

/** The regression table of `--compare` as text rows. */
export function comparisonRows(rows: readonly Comparison[]): string[][] {
  return [
    ['metric', 'A', 'B', 'B vs A', 'verdict'],
    ...rows.map((c) => [
      c.label,
      c.a === null ? '–' : fmt(c.a, c.unit),
      c.b === null ? '–' : fmt(c.b, c.unit),
      c.ratio === null ? '–' : ratioText(c.ratio),
      c.verdict,
    ]),
  ];
}
