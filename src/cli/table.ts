/** A plain-text table: the first row is the header, columns padded to their widest cell. */
export function textTable(rows: readonly (readonly string[])[], rightAlignFrom = 1): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const line = (row: readonly string[]) =>
    row
      .map((c, i) => (i >= rightAlignFrom ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  if (head === undefined) return '';
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
