/**
 * What an event ingest costs the requests after it, on a loaded file with every index saved: a
 * writable engine answers a fetch, a business match and a prospect match (the indexes read from the
 * file), ingests one event, and answers the same three again. Each build of `--dist` runs in turn in
 * its own process (a fresh copy of the file each time), so before/after figures come from one run.
 *
 *   npm run build && node --import tsx bench/ingest.bench.ts --db FILE [--dist DIR[,DIR…]] [--rounds 2]
 *
 * FILE is a snapshot file loaded by `prospectdb load` (kept as it is: each round works on a copy beside
 * it). Reported: wall ms of each answer, best of the rounds.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type * as LibraryModule from '../src/index.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    dist: { type: 'string', default: 'dist' },
    rounds: { type: 'string', default: '2' },
    child: { type: 'string' },
  },
});

/** The requests, in order: before the ingest, then after it. */
const STEPS = ['fetch prospects', 'business match', 'prospect match'] as const;

if (values.child) {
  // One round in this process: the build at `--child`, the file at `--db`.
  const lib = (await import(resolve(values.child, 'index.js'))) as typeof LibraryModule;
  const engine = lib.openEngine({ path: values.db! });
  const [event] = engine.db
    .prepare(
      "SELECT entity_id AS business_id, event_name, event_time FROM events WHERE entity_type = 'business' LIMIT 1",
    )
    .all() as Record<string, unknown>[];
  const [name] = engine.db.prepare('SELECT name FROM businesses LIMIT 1').pluck().all() as string[];
  const [person] = engine.db
    .prepare('SELECT full_name FROM prospects WHERE business_rowid = 1 LIMIT 1')
    .pluck()
    .all() as string[];
  const ask: Record<(typeof STEPS)[number], () => unknown> = {
    'fetch prospects': () =>
      lib.fetchProspects(
        engine,
        { mode: 'preview', page_size: 10, filters: { job_level: { values: ['manager'] } } },
        { version: 2 },
      ),
    'business match': () => lib.matchBusinessRows(engine, [{ name: name! }]),
    'prospect match': () => lib.matchProspectRows(engine, [{ full_name: person!, company_name: name! }]),
  };
  const times: number[] = [];
  const round = () => {
    for (const step of STEPS) {
      const t = performance.now();
      ask[step]();
      times.push(performance.now() - t);
    }
  };
  round();
  const report = await engine.ingestEvents([
    {
      ...event,
      event_id: `bench-${Date.now()}`,
      event_time: new Date(event!.event_time as number).toISOString(), // stored in ms
      data: {},
    },
  ]);
  if (report.ingested !== 1) throw new Error(`event not ingested: ${JSON.stringify(report.rejected)}`);
  round();
  engine.close();
  console.log(JSON.stringify(times));
  process.exit(0);
}

if (!values.db) {
  console.error('--db FILE: a loaded snapshot file (prospectdb load)');
  process.exit(1);
}
const db = resolve(values.db);
const builds = values.dist.split(',').map((d) => resolve(d));
const best = new Map<string, number[]>();
for (let r = 0; r < Math.max(1, Number(values.rounds)); r++) {
  for (const build of builds) {
    const copy = join(dirname(db), `ingest-bench-${process.pid}.db`);
    copyFileSync(db, copy);
    try {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', new URL(import.meta.url).pathname, '--child', build, '--db', copy],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const times = JSON.parse(out.trim().split('\n').pop()!) as number[];
      const prev = best.get(build);
      best.set(build, prev ? prev.map((t, i) => Math.min(t, times[i]!)) : times);
    } finally {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(copy + suffix, { force: true });
    }
  }
}
const rows = [];
for (const [build, times] of best) {
  for (let i = 0; i < STEPS.length; i++) {
    rows.push({
      build: `${basename(dirname(build))}/${basename(build)}`,
      request: STEPS[i],
      'before ingest ms': Math.round(times[i]!),
      'after ingest ms': Math.round(times[i + STEPS.length]!),
    });
  }
}
console.table(rows);
console.log(`${basename(db)}; best of ${values.rounds} round(s); load average ${loadavg()[0]!.toFixed(1)}`);
