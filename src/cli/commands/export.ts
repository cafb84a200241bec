/**
 * `prospectdb export --db FILE --entity prospects|businesses [--filters JSON] [--format jsonl|csv|parquet]
 * --out FILE`: every matching record to a file, for notebooks (no page cap, no credits), with a progress
 * bar on stderr. `--filters` takes the JSON of a fetch request's `filters` (or `@path` to a JSON file).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exportBusinesses, exportProspects } from '../../core/export.js';
import { openEngine } from '../../engine.js';
import { isEngineError } from '../../errors.js';
import { exportColumns, type ExportEntity } from '../../export/columns.js';
import { EXPORT_FORMATS, writeExport, type ExportFormat } from '../../export/write.js';
import { progress } from '../progress.js';

const USAGE =
  'usage: prospectdb export --db FILE --entity prospects|businesses --out FILE [--format jsonl|csv|parquet]\n' +
  '         [--filters JSON|@FILE] [--mode full|preview] [--max-per-company N] [--api-version 1|2] [--quiet]\n' +
  '  --format defaults to the extension of --out; --filters is the `filters` object of a fetch request.';

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      entity: { type: 'string' },
      filters: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string' },
      mode: { type: 'string', default: 'full' },
      'max-per-company': { type: 'string' },
      'api-version': { type: 'string', default: '2' },
      quiet: { type: 'boolean', short: 'q', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.db || !values.entity || !values.out) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const entity = values.entity as ExportEntity;
  if (entity !== 'prospects' && entity !== 'businesses') {
    console.error(`prospectdb: --entity takes prospects or businesses\n${USAGE}`);
    return 2;
  }
  const format = (values.format ?? /\.([a-z]+)$/i.exec(values.out)?.[1]?.toLowerCase()) as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) {
    console.error(
      `prospectdb: --format takes ${EXPORT_FORMATS.join(', ')} (or an --out file with that extension)`,
    );
    return 2;
  }
  if (!existsSync(values.db)) {
    console.error(`prospectdb: ${values.db}: no such file`);
    return 1;
  }
  let filters: unknown;
  try {
    const text = values.filters?.startsWith('@')
      ? readFileSync(values.filters.slice(1), 'utf8')
      : values.filters;
    filters = text === undefined ? undefined : JSON.parse(text);
  } catch (e) {
    console.error(`prospectdb: --filters: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
  const cap = values['max-per-company'];
  const request = {
    filters,
    mode: values.mode,
    version: Number(values['api-version']),
    ...(cap === undefined ? {} : { max_per_company: Number(cap) }),
  };

  const engine = openEngine({ path: values.db, readonly: true });
  try {
    const records =
      entity === 'prospects'
        ? exportProspects(engine, request as Parameters<typeof exportProspects>[1])
        : cap === undefined
          ? exportBusinesses(engine, request as Parameters<typeof exportBusinesses>[1])
          : null;
    if (!records) {
      console.error('prospectdb: --max-per-company applies to prospects only');
      return 2;
    }
    const bar = values.quiet ? null : progress();
    const label = `export ${entity} → ${format}`;
    const n = await writeExport(records, {
      format,
      out: values.out,
      columns: exportColumns(entity, values.mode === 'preview' ? 'preview' : 'full'),
      onRecord: (k) => bar?.update(label, k, k, records.total),
    });
    bar?.finish();
    if (!values.quiet)
      console.error(`${label}: ${n.toLocaleString('en-US')} records written to ${values.out}`);
    return 0;
  } catch (e) {
    if (isEngineError(e) && e.issues.length > 0) {
      for (const i of e.issues) console.error(`prospectdb: ${i.loc.join('.')}: ${i.msg}`);
      return 2;
    }
    throw e;
  } finally {
    engine.close();
  }
}
