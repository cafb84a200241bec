/**
 * Job results as CSV: one line per input row, the id column first, then `result_status`
 * (`ok` | `no_data` | `not_found` | `error`), then the payload's fields (nested values as JSON). The header
 * is the union of the rows' fields in first-seen order.
 */

const escape = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** Builds the CSV text from stored result lines (JSON objects). */
export function toCsv(lines: readonly string[]): string {
  const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of rows)
    for (const k of Object.keys(r))
      if (!seen.has(k)) {
        seen.add(k);
        columns.push(k);
      }
  const out = [columns.map(escape).join(',')];
  for (const r of rows) out.push(columns.map((c) => escape(r[c])).join(','));
  return out.join('\r\n') + '\r\n';
}

/** Parses CSV text (RFC 4180 quoting) into rows of fields; used by tests and tools. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
