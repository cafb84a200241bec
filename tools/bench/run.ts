/**
 * `prospectdb bench`: every measurement beside a baseline measured in the same run, gathered into one
 * report ({@link BenchReport}). Progress goes to `log` (stderr in the CLI).
 *
 * Over 400 lines on purpose: the list of measurements of one report, each beside its baseline; the
 * measuring helpers (`measure.ts`), data (`data.ts`) and rendering (`render.ts`) are apart.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { evaluateMatches, scores, type Evaluation } from '../../src/core/match/evaluate.js';
import {
  matchBusinessRows,
  matchProspectRows,
  type BusinessRowInput,
  type ProspectRowInput,
} from '../../src/core/match/index.js';
import { openEngine, type Engine } from '../../src/engine.js';
import { buildIndexes } from '../../src/core/warm.js';
import { companyMatchKey } from '../../src/normalise/company.js';
import { generatedDatabase, secs } from './data.js';
import { benchRows, exactMaps, plainDomain, type ExactMaps, type Labelled } from './match-rows.js';
import { distribution, rowsPerSecond } from './measure.js';
import { openTiming } from './open-time.js';
import { optionalBaselines } from './optional.js';
import { quantiles, REPORT_FORMAT, type BenchReport, type Latency, type Metric } from './report.js';
import { searchTimings, type Pair } from './search-work.js';

export interface BenchOptions {
  /** A user's database file (opened read-only), or a generated snapshot of `businesses` / `prospects`. */
  db?: string;
  businesses?: number;
  prospects?: number;
  seed?: number;
  cacheDir: string;
  /** Exact-key rows per entity. */
  exactRows?: number;
  /** Mixed rows per perturbation kind. */
  perKind?: number;
  /** Requests per latency workload. */
  requests?: number;
  batchSizes?: readonly number[];
  /** Milliseconds each rows/s figure runs for at least (default 250). */
  minMs?: number;
  /** Key for the facade measurement on a user's database (the bench never writes to a user's file). */
  apiKey?: string;
  /** The command line that re-runs this bench (recorded in the report). */
  command: string;
  log?: (message: string) => void;
}

const MB = 1024 * 1024;

/** The version in the repository's package.json: two folders up from source, three from dist-tools/. */
function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json'])
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'prospectdb') return pkg.version ?? 'unknown';
    } catch {
      // not at this depth
    }
  return 'unknown';
}

function latency(
  key: string,
  label: string,
  ours: number[],
  baseline?: { name: string; samples: number[] },
): Latency {
  return {
    key,
    label,
    ours: distribution(ours),
    oursQuantiles: quantiles(ours),
    baseline:
      baseline === undefined
        ? null
        : {
            name: baseline.name,
            distribution: distribution(baseline.samples),
            quantiles: quantiles(baseline.samples),
          },
  };
}

/** p50 and p99 metrics of a latency pair. */
function latencyMetrics(key: string, label: string, pair: Pair, baseline: string): Metric[] {
  const ours = distribution(pair.ours);
  const base = distribution(pair.baseline);
  return (['p50', 'p99'] as const).map((p) => ({
    key: `${key}.${p}`,
    label: `${label} ${p}`,
    unit: 'ms' as const,
    value: ours[p],
    better: 'lower' as const,
    baseline: { name: baseline, value: base[p] },
  }));
}

/** The Map baseline's answer for a business row: its domain, else its name when one business holds it. */
function mapBusiness(maps: ExactMaps, r: BusinessRowInput): string | null {
  const d = r.domain ?? r.url;
  if (typeof d === 'string') {
    const hit = maps.domains.get(plainDomain(d));
    if (hit !== undefined) return hit;
  }
  return typeof r.name === 'string' ? (maps.names.get(companyMatchKey(r.name)) ?? null) : null;
}

function mapProspect(maps: ExactMaps, r: ProspectRowInput): string | null {
  return typeof r.email === 'string' ? (maps.emails.get(r.email.trim().toLowerCase()) ?? null) : null;
}

function pr(answers: (string | null)[], rows: readonly Labelled<unknown>[]) {
  const e = { matched: 0, correct: 0, positives: 0 };
  answers.forEach((a, i) => {
    const t = rows[i]?.truth ?? null;
    if (t !== null) e.positives++;
    if (a !== null) {
      e.matched++;
      if (a === t) e.correct++;
    }
  });
  const { precision, recall, f1 } = scores(answers.length, e.positives, e.matched, e.correct);
  return { precision, recall, f1 };
}

async function facadeKey(engine: Engine, options: BenchOptions, notes: string[]): Promise<string | null> {
  if (options.db === undefined) return (await engine.accounts.create({ name: 'prospectdb bench' })).api_key;
  if (options.apiKey !== undefined) return options.apiKey;
  notes.push(
    'facade match not measured on your database: pass --api-key KEY (the bench never writes to your file)',
  );
  return null;
}

export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 7;
  const minMs = options.minMs ?? 250;
  const notes: string[] = [];
  const metrics: Metric[] = [];
  const latencies: Latency[] = [];

  let path: string;
  let cached = false;
  if (options.db !== undefined) path = options.db;
  else {
    const g = await generatedDatabase({
      businesses: options.businesses ?? 20_000,
      prospects: options.prospects ?? 100_000,
      seed,
      cacheDir: options.cacheDir,
      log,
    });
    path = g.path;
    cached = g.cached;
    if (cached) log(`using the cached database ${path}`);
  }

  log('open → first answer, in a fresh process');
  const open = await openTiming(path);
  metrics.push(
    {
      key: 'open.first_fetch',
      label: 'open → first fetch (fresh process)',
      unit: 'ms',
      value: open.openMs + open.firstFetchMs,
      better: 'lower',
      baseline: { name: 'plain SQLite open + first page', value: open.baselineMs },
    },
    {
      key: 'open.first_match',
      label: 'first match after open (builds match indexes)',
      unit: 'ms',
      value: open.firstMatchMs,
      better: 'lower',
    },
    {
      key: 'open.process',
      label: 'process start → both answers → exit',
      unit: 'ms',
      value: open.wallMs,
      better: 'lower',
    },
  );

  metrics.push({
    key: 'memory.rss',
    label: 'RSS, fresh process, every index warm',
    unit: 'MB',
    value: open.rss / MB,
    better: 'lower',
    baseline: { name: 'after the plain SQLite page', value: open.baselineRss / MB },
  });

  let t = performance.now();
  const engine = openEngine({ path, readonly: options.db !== undefined, rateLimit: false });
  try {
    buildIndexes(engine);
    matchBusinessRows(engine, [{ name: 'warm up' }]);
    matchProspectRows(engine, [{ full_name: 'Warm Up', company_name: 'warm up' }]);
    const counts = engine.info().counts;
    log(
      `opened ${counts.businesses} businesses, ${counts.prospects} prospects and warmed every index in ${secs(t)}`,
    );
    if (counts.prospects + counts.businesses > 0)
      metrics.push({
        key: 'memory.per_record',
        label: 'RSS growth per loaded record',
        unit: 'B',
        value: (open.rss - open.baselineRss) / (counts.prospects + counts.businesses),
        better: 'lower',
      });

    t = performance.now();
    const maps = exactMaps(engine);
    const rows = benchRows(engine, maps, options.exactRows ?? 20_000, options.perKind ?? 200, seed);
    notes.push(...rows.notes);
    log(
      `drew ${rows.exactBusinesses.length + rows.exactProspects.length} exact-key and ${rows.mixedBusinesses.length + rows.mixedProspects.length} mixed rows in ${secs(t)}`,
    );

    const key = await facadeKey(engine, options, notes);
    const facade = async (entity: 'businesses' | 'prospects', slice: readonly unknown[]) => {
      const res = await engine.handle({
        method: 'POST',
        path: `/v2/${entity}/match`,
        headers: { api_key: key ?? '' },
        body: { [`${entity}_to_match`]: slice },
      });
      if (res.status !== 200)
        throw new Error(`facade match answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    };

    const throughput = async (
      metricKey: string,
      label: string,
      entity: 'businesses' | 'prospects',
      inputs: readonly (BusinessRowInput | ProspectRowInput)[],
      baseline: ((r: never) => unknown) | null,
    ) => {
      if (inputs.length === 0) {
        notes.push(`${label}: no rows could be drawn from this database`);
        return;
      }
      log(`match: ${label} (${inputs.length} rows)`);
      const batchFn =
        entity === 'businesses'
          ? (s: readonly BusinessRowInput[]) => matchBusinessRows(engine, s)
          : (s: readonly ProspectRowInput[]) => matchProspectRows(engine, s);
      // Mixed rows have no plain baseline that does the same job (a Map answers exact keys only; its
      // precision and recall stand beside ours in the quality metrics, Fuse.js and MiniSearch below).
      const base =
        baseline === null
          ? undefined
          : {
              name: 'plain Map of exact keys',
              value: await rowsPerSecond(inputs, 1000, (s) => s.map((r) => baseline(r as never)), minMs),
            };
      const batch = await rowsPerSecond(inputs, 1000, batchFn as (s: readonly unknown[]) => unknown, minMs);
      metrics.push({
        key: `${metricKey}.batch`,
        label: `${label}, batch API`,
        unit: 'rows/s',
        value: batch,
        better: 'higher',
        ...(base && { baseline: base }),
      });
      if (key !== null) {
        const viaFacade = await rowsPerSecond(inputs, 50, (s) => facade(entity, s), minMs);
        metrics.push({
          key: `${metricKey}.facade`,
          label: `${label}, engine.handle`,
          unit: 'rows/s',
          value: viaFacade,
          better: 'higher',
          ...(base && { baseline: base }),
        });
      }
    };
    const mixedB = rows.mixedBusinesses.map((r) => r.input);
    const mixedP = rows.mixedProspects.map((r) => r.input);
    await throughput(
      'match.business.exact',
      'business match, exact domains',
      'businesses',
      rows.exactBusinesses,
      (r: BusinessRowInput) => mapBusiness(maps, r),
    );
    await throughput(
      'match.business.mixed',
      'business match, mixed rows with typos',
      'businesses',
      mixedB,
      null,
    );
    await throughput(
      'match.prospect.exact',
      'prospect match, exact e-mails',
      'prospects',
      rows.exactProspects,
      (r: ProspectRowInput) => mapProspect(maps, r),
    );
    await throughput('match.prospect.mixed', 'prospect match, mixed rows', 'prospects', mixedP, null);

    const throughputByBatch: BenchReport['throughputByBatch'] = [];
    if (rows.exactBusinesses.length > 0 && mixedB.length > 0) {
      log('match: rows/s by batch size');
      for (const batch of options.batchSizes ?? [1, 10, 100, 1000]) {
        const exact = await rowsPerSecond(
          rows.exactBusinesses.slice(0, Math.max(batch * 2, 2000)),
          batch,
          (s) => matchBusinessRows(engine, s),
          minMs / 2,
        );
        const mixed = await rowsPerSecond(mixedB, batch, (s) => matchBusinessRows(engine, s), minMs / 2);
        throughputByBatch.push({ batch, exact, mixed });
      }
    }

    // Quality on the labelled mixed rows, with the curve over min_confidence.
    log('match quality: precision / recall on the labelled mixed rows');
    const quality: BenchReport['quality'] = [];
    const curves: BenchReport['curves'] = [];
    const evaluate = (
      entity: 'businesses' | 'prospects',
      labelled: readonly Labelled<BusinessRowInput | ProspectRowInput>[],
    ) => {
      if (labelled.length === 0) return;
      const e: Evaluation = evaluateMatches(
        engine,
        labelled.map((r) => r.input),
        labelled.map((r) => r.truth),
        { entity },
      );
      const baseline =
        entity === 'businesses'
          ? pr(
              labelled.map((r) => mapBusiness(maps, r.input as BusinessRowInput)),
              labelled,
            )
          : pr(
              labelled.map((r) => mapProspect(maps, r.input as ProspectRowInput)),
              labelled,
            );
      const short = entity === 'businesses' ? 'business' : 'prospect';
      for (const m of ['precision', 'recall', 'f1'] as const)
        metrics.push({
          key: `quality.${short}.${m}`,
          label: `${short} match ${m === 'f1' ? 'F1' : m}, mixed rows`,
          unit: 'share',
          value: e.overall[m],
          better: 'higher',
          baseline: { name: 'plain Map of exact keys', value: baseline[m] },
        });
      quality.push({
        entity,
        rows: e.overall.rows,
        precision: e.overall.precision,
        recall: e.overall.recall,
        f1: e.overall.f1,
        byMatchedOn: Object.fromEntries(
          Object.entries(e.byMatchedOn).map(([k, s]) => [
            k,
            { rows: s.rows, precision: s.precision, recall: s.recall, f1: s.f1 },
          ]),
        ),
      });
      curves.push({
        entity,
        points: e.curve.map((p) => ({
          threshold: p.threshold,
          precision: p.precision,
          recall: p.recall,
          f1: p.f1,
        })),
      });
    };
    evaluate('businesses', rows.mixedBusinesses);
    evaluate('prospects', rows.mixedProspects);

    if (counts.prospects > 0) {
      const search = searchTimings(engine, options.requests ?? 200, seed, log);
      metrics.push(
        ...latencyMetrics('fetch', 'fetch page 1 (100 + total)', search.fetch, 'plain SQLite'),
        ...latencyMetrics('stats', 'stats', search.stats, 'plain SQLite GROUP BY'),
        ...latencyMetrics(
          'autocomplete',
          'autocomplete (1–4 letters, typos)',
          search.autocomplete,
          'SQLite LIKE prefix',
        ),
        ...latencyMetrics(
          'cursor.last',
          `cursor page ${search.cursorPage}`,
          search.cursorLast,
          'SQLite OFFSET',
        ),
      );
      metrics.push({
        key: 'cursor.ratio',
        label: `cursor page ${search.cursorPage} p50 / page 1 p50`,
        unit: 'ratio',
        value: distribution(search.cursorLast.ours).p50 / distribution(search.cursorFirst).p50,
        better: 'lower',
      });
      latencies.push(
        latency('fetch', 'fetch page 1 (100 + total)', search.fetch.ours, {
          name: 'plain SQLite',
          samples: search.fetch.baseline,
        }),
        latency('stats', 'stats', search.stats.ours, {
          name: 'plain SQLite GROUP BY',
          samples: search.stats.baseline,
        }),
        latency('autocomplete', 'autocomplete', search.autocomplete.ours, {
          name: 'SQLite LIKE prefix',
          samples: search.autocomplete.baseline,
        }),
        latency('cursor.first', 'cursor page 1', search.cursorFirst),
        latency('cursor.last', `cursor page ${search.cursorPage}`, search.cursorLast.ours, {
          name: 'SQLite OFFSET',
          samples: search.cursorLast.baseline,
        }),
      );
    }

    const nameRows = rows.mixedBusinesses.filter(
      (r) => typeof r.input.name === 'string' && !r.input.domain && !r.input.url && !r.input.linkedin_url,
    );
    const optional = await optionalBaselines(
      engine,
      nameRows,
      rows.exactBusinesses,
      maps.domains,
      notes,
      log,
    );
    if (nameRows.length > 0 && optional.length > 0) {
      const ours = evaluateMatches(
        engine,
        nameRows.map((r) => r.input),
        nameRows.map((r) => r.truth),
        { entity: 'businesses' },
      );
      const oursRate = await rowsPerSecond(
        nameRows.map((r) => r.input),
        1000,
        (s) => matchBusinessRows(engine, s),
        minMs,
      );
      for (const o of optional) {
        if (o.workload === 'business exact domains') {
          const m = metrics.find((x) => x.key === 'match.business.exact.batch');
          if (m !== undefined)
            metrics.push({
              ...m,
              key: `match.business.exact.vs_${o.name.toLowerCase()}`,
              label: m.label,
              baseline: { name: o.name, value: o.rowsPerSecond },
            });
          continue;
        }
        const id = o.name.toLowerCase().replace(/[^a-z]/g, '');
        metrics.push({
          key: `match.business.names.vs_${id}`,
          label: `business names (mixed), ${o.rows} rows`,
          unit: 'rows/s',
          value: oursRate,
          better: 'higher',
          baseline: { name: o.name, value: o.rowsPerSecond },
        });
        if (o.precision !== undefined && o.recall !== undefined)
          metrics.push({
            key: `quality.business.names.f1_vs_${id}`,
            label: 'business names (mixed), F1',
            unit: 'share',
            value: ours.overall.f1,
            better: 'higher',
            baseline: {
              name: o.name,
              value:
                o.precision + o.recall === 0 ? 0 : (2 * o.precision * o.recall) / (o.precision + o.recall),
            },
          });
      }
    }

    const sqlite = engine.db.prepare('SELECT sqlite_version()').pluck().get() as string;
    const cpus = os.cpus();
    return {
      format: REPORT_FORMAT,
      created: new Date().toISOString(),
      command: options.command,
      machine: {
        os: os.type(),
        release: os.release(),
        arch: os.arch(),
        cpus: cpus.length,
        cpuModel: cpus[0]?.model.trim() ?? 'unknown',
        memoryMB: Math.round(os.totalmem() / MB),
        node: process.version,
        sqlite,
        version: packageVersion(),
      },
      data: {
        source: options.db === undefined ? 'generated' : 'file',
        path,
        businesses: counts.businesses,
        prospects: counts.prospects,
        seed: options.db === undefined ? seed : null,
        cached,
      },
      metrics,
      latencies,
      throughputByBatch,
      curves,
      quality,
      notes,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    engine.close();
  }
}
