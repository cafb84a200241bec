/**
 * `prospectdb events ingest --db FILE [--strict] [--json] EVENTS.jsonl[.gz]`: validates and stores events
 * (one JSON record a line, as in the snapshot's events stream), writing webhook deliveries for matching
 * enrollments to the outbox; the server's delivery worker sends them. Exit 0 when every line was
 * stored or already known, 1 when some lines were refused, 2 on usage errors.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { ingestEvents, validateEvent, type IngestIssue, type IngestReport } from '../../core/events.js';
import { openEngine } from '../../engine.js';

const USAGE = 'usage: prospectdb events ingest --db FILE [--strict] [--json] EVENTS.jsonl[.gz]';
const BATCH = 5_000;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'ingest') {
    console.error(USAGE);
    return sub === '--help' || sub === '-h' ? 0 : 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      strict: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const file = positionals[0];
  if (values.help || !values.db || !file) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if (!existsSync(file)) {
    console.error(`prospectdb: ${file}: no such file`);
    return 1;
  }
  const lines: { line: number; record: unknown }[] = [];
  const parseErrors: IngestIssue[] = [];
  const input = createReadStream(file);
  const reader = createInterface({
    input: file.endsWith('.gz') ? input.pipe(createGunzip()) : input,
    crlfDelay: Infinity,
  });
  let n = 0;
  for await (const text of reader) {
    n++;
    if (text.trim() === '') continue;
    try {
      lines.push({ line: n, record: JSON.parse(text) as unknown });
    } catch {
      parseErrors.push({ index: n, event_id: null, reason: 'not valid JSON' });
    }
  }
  const total: IngestReport = { ingested: 0, duplicates: 0, rejected: [...parseErrors], deliveries: 0 };
  if (values.strict && parseErrors.length > 0) return report(total, values.json, 1);

  if (values.strict) {
    // Validate every line first, so nothing is stored when one of them is invalid.
    for (const l of lines) {
      const checked = validateEvent(l.record);
      if (!checked.ok) total.rejected.push({ index: l.line, event_id: null, reason: checked.reason });
    }
    if (total.rejected.length > 0) return report(total, values.json, 1);
  }
  // The server's workers send what this queues: no delivery worker here, so none is cut short at exit.
  const engine = openEngine({ path: values.db, webhooks: { worker: false } });
  try {
    for (let start = 0; start < lines.length; start += BATCH) {
      const batch = lines.slice(start, start + BATCH);
      const r = await ingestEvents(
        engine,
        batch.map((l) => l.record),
      );
      total.ingested += r.ingested;
      total.duplicates += r.duplicates;
      total.deliveries += r.deliveries;
      total.rejected.push(...r.rejected.map((i) => ({ ...i, index: batch[i.index]?.line ?? i.index })));
    }
  } finally {
    engine.close();
  }
  return report(total, values.json, total.rejected.length > 0 ? 1 : 0);
}

function report(r: IngestReport, json: boolean, code: number): number {
  if (json) {
    console.log(JSON.stringify(r, null, 2));
  } else {
    console.log(`ingested    ${r.ingested}`);
    console.log(`duplicates  ${r.duplicates}`);
    console.log(`refused     ${r.rejected.length}`);
    console.log(`deliveries  ${r.deliveries}`);
    for (const i of r.rejected.slice(0, 20))
      console.error(`line ${i.index}: ${i.event_id ?? '-'}: ${i.reason}`);
    if (r.rejected.length > 20) console.error(`… and ${r.rejected.length - 20} more`);
  }
  return code;
}
