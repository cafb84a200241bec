/**
 * Deltas: a delta applied to a snapshot answers every request as a full load of the merged records does
 * (the oracle: the generator writes the merged snapshot beside the delta), and the refusals, deletions,
 * event replacement and company-field refresh each behave as docs/spec/snapshot-format.md says.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fetchEvents } from '../src/core/events.js';
import { openEngine, type Engine } from '../src/engine.js';
import {
  applyDelta,
  applyDeltaFile,
  autocomplete,
  businessStats,
  fetchBusinesses,
  fetchProspects,
  matchBusinesses,
  matchProspects,
  prospectStats,
} from '../src/index.js';
import { AUTOCOMPLETE_FIELDS } from '../src/schemas/enums.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { generateDelta } from '../tools/generate/delta.js';
import { businessRecord, makePlan, prospectAt } from '../tools/generate/index.js';
import { tempDir } from './support/temp.js';

const AS_OF = '2026-11-01T00:00:00Z';
const clockOf = (asOf: string) => () => Date.parse(asOf) + 86_400_000;

/** Cursor secrets differ between files: pages are compared without their cursors. */
const noCursors = (value: unknown) =>
  JSON.parse(
    JSON.stringify(value, (k, v: unknown) => (k === 'next_cursor' || k === 'cursor' ? undefined : v)),
  );

type Any = never;
const PROSPECT_FILTERS: object[] = [
  {},
  { country_code: { values: ['us', 'gb', 'de'] } },
  { company_size: { values: ['1-10', '11-50'] } },
  { job_level: { values: ['director', 'manager'], negate: true } },
  { company_name: { values: ['a'] } },
  { company_age: { values: ['0-3', '20+'] } },
];
const BUSINESS_FILTERS: object[] = [
  {},
  { country_code: { values: ['us', 'fr'] } },
  { company_size: { values: ['1-10'], negate: true } },
  { company_age: { values: ['10-20', '6-10'] } },
  { naics_category: { values: ['54'] } },
  { has_website: { value: false } },
];

/** Every cursor page of a fetch, cursors stripped. */
function walk(fetch: (cursor: string | null) => { page: { next_cursor: string | null } }): unknown[] {
  const pages: unknown[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 200; i++) {
    const page = fetch(cursor);
    pages.push(noCursors(page));
    cursor = page.page.next_cursor;
    if (!cursor) break;
  }
  return pages;
}

/** What the engine answers to a fixed battery of requests built from the merged records. */
function answers(e: Engine, probe: Engine): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  PROSPECT_FILTERS.forEach((filters, i) => {
    out[`prospects.cursor.${i}`] = walk((next_cursor) =>
      fetchProspects(e, { mode: 'full', page_size: 9, filters, next_cursor } as Any, { version: 2 }),
    );
    out[`prospects.page.${i}`] = noCursors(
      fetchProspects(e, { mode: 'preview', page_size: 5, page: 2, filters } as Any),
    );
    out[`prospects.stats.${i}`] = prospectStats(e, { filters } as Any);
  });
  BUSINESS_FILTERS.forEach((filters, i) => {
    out[`businesses.cursor.${i}`] = walk((next_cursor) =>
      fetchBusinesses(e, { mode: 'full', page_size: 7, filters, next_cursor } as Any, { version: 2 }),
    );
    out[`businesses.page.${i}`] = noCursors(
      fetchBusinesses(e, { mode: 'full', page_size: 4, page: 3, filters } as Any),
    );
    out[`businesses.stats.${i}`] = businessStats(e, { filters } as Any);
  });
  for (const field of AUTOCOMPLETE_FIELDS) {
    for (const query of ['', 'a', 'in'])
      out[`autocomplete.${field}.${query}`] = autocomplete(e, { field, query });
  }
  // Probes drawn from the merged records (the same rows for both engines).
  const businesses = probe.db
    .prepare('SELECT name, domain, country_code FROM businesses ORDER BY rowid LIMIT 25')
    .all() as { name: string; domain: string | null; country_code: string | null }[];
  out.matchBusinesses = matchBusinesses(e, [
    ...businesses.map((b) => ({ name: b.name, domain: b.domain ?? undefined })),
    ...businesses.map((b) => ({ name: b.name.slice(0, 8) })),
  ] as Any);
  const prospects = probe.db
    .prepare(
      `SELECT p.full_name, b.name AS company_name, p.linkedin_slug FROM prospects p
       LEFT JOIN businesses b ON b.rowid = p.business_rowid ORDER BY p.rowid LIMIT 25`,
    )
    .all() as { full_name: string; company_name: string | null; linkedin_slug: string | null }[];
  out.matchProspects = matchProspects(e, [
    ...prospects.map((p) => ({ full_name: p.full_name, company_name: p.company_name ?? undefined })),
    ...prospects.map((p) => ({ full_name: p.full_name })),
  ] as Any);
  const ids = (sql: string) => probe.db.prepare(sql).pluck().all() as string[];
  const names = ids('SELECT DISTINCT event_name FROM events');
  out.businessEvents = fetchEvents(e, {
    version: 2,
    entityType: 'business',
    ids: ids("SELECT DISTINCT entity_id FROM events WHERE entity_type = 'business'"),
    eventTypes: names,
  });
  out.prospectEvents = fetchEvents(e, {
    version: 1,
    entityType: 'prospect',
    ids: ids("SELECT DISTINCT entity_id FROM events WHERE entity_type = 'prospect'"),
    eventTypes: names,
  });
  out.counts = { ...e.info().counts };
  return out;
}

/** A random base snapshot and delta: sizes, seed, the share of each stream changed, a new year or not. */
const DELTA_CASE = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  businesses: fc.integer({ min: 3, max: 40 }),
  prospects: fc.integer({ min: 0, max: 160 }),
  events: fc.integer({ min: 0, max: 60 }),
  fraction: fc.double({ min: 0.02, max: 0.5, noNaN: true }),
  nextYear: fc.boolean(),
});

describe('a delta applied to a snapshot', () => {
  it('answers every fetch, stats, autocomplete, match and events request as a full load of the merged records', async () => {
    await fc.assert(
      fc.asyncProperty(DELTA_CASE, async (p) => {
        const dir = tempDir('pdb-delta-prop-');
        const base = join(dir, 'base');
        await generateSnapshot({
          dir: base,
          businesses: p.businesses,
          prospects: p.prospects,
          events: p.events,
          seed: p.seed,
        });
        const asOf = p.nextYear ? '2027-01-15T00:00:00Z' : '2026-11-02T00:00:00Z';
        const delta = join(dir, 'delta');
        const merged = join(dir, 'merged');
        await generateDelta({ base, dir: delta, merged, fraction: p.fraction, seed: p.seed + 1, asOf });
        const clock = clockOf(asOf);
        const applied = openEngine({ clock });
        const full = openEngine({ clock });
        try {
          const loaded = await applied.load(base, { strict: true, threads: 0 });
          const report = await applied.applyDelta(delta, { strict: true });
          expect(report.baseSnapshotId).toBe(loaded.snapshotId);
          expect(report.snapshotId).not.toBe(loaded.snapshotId);
          await full.load(merged, { strict: true, threads: 0 });
          expect(answers(applied, full)).toEqual(answers(full, full));
        } finally {
          applied.close();
          full.close();
        }
      }),
      { numRuns: Number(process.env.DELTA_RUNS ?? 6) },
    );
  }, 120_000);

  it("carries the prospects' match keys over from the base's saved index: the keys its records give", async () => {
    const { buildIndexes } = await import('../src/core/warm.js');
    const { handOffProspectKeys, isKeyCarry, prospectKeysOfRecords, takeProspectKeys } =
      await import('../src/store/load-keys.js');
    const { handedProspectKeys } = await import('../src/indexes/match/prospects.js');
    const { getMeta } = await import('../src/store/open.js');
    /** `[row, kind, key]` triples, in row order and sorted within a row (the order answers rest on). */
    const triples = (k: { kinds: number[]; keys: string[]; rows: number[] }) =>
      k.rows
        .map((r, i) => [r, k.kinds[i]!, k.keys[i]!] as const)
        .sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
    await fc.assert(
      fc.asyncProperty(DELTA_CASE, async (p) => {
        const dir = tempDir('pdb-delta-keys-');
        const base = join(dir, 'base');
        const { businesses, prospects, events, seed } = p;
        await generateSnapshot({ dir: base, businesses, prospects, events, seed });
        const delta = join(dir, 'delta');
        await generateDelta({ base, dir: delta, fraction: p.fraction, seed: seed + 1 });
        const engine = openEngine({ path: join(dir, 'base.db'), state: ':memory:', clock: clockOf(AS_OF) });
        try {
          await engine.load(base, { strict: true, threads: 0 });
          buildIndexes(engine); // saves the base's match index, which holds its keys
          await engine.applyDelta(delta, { strict: true });
          // What the delta hands the next build is its own part (the base's keys stay in the file) …
          const hash = getMeta(engine.db, 'hash_prospects')!;
          const handed = takeProspectKeys(engine.db, hash);
          if (handed === undefined || !isKeyCarry(handed)) throw new Error('expected a key carry');
          const written = readFileSync(join(delta, 'prospects.jsonl'), 'utf8').split('\n').filter(Boolean);
          expect(new Set(handed.added.rows).size).toBeLessThanOrEqual(written.length);
          handOffProspectKeys(engine.db, hash, handed);
          // … and the build works out the keys every stored record gives.
          const carried = handedProspectKeys(engine);
          expect(carried).toBeDefined();
          expect(triples(carried!)).toEqual(triples(prospectKeysOfRecords(engine.db)));
        } finally {
          await engine.state.close();
          engine.close();
        }
      }),
      { numRuns: Number(process.env.DELTA_RUNS ?? 6) },
    );
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------
// Hand-made deltas

const plan = makePlan({ businesses: 6, prospects: 30, events: 0, seed: 5 });
const B = Array.from(
  { length: 6 },
  (_, i) => businessRecord(plan, i) as Record<string, unknown> & { business_id: string },
);
const P = Array.from(
  { length: 30 },
  (_, k) => prospectAt(plan, k) as Record<string, unknown> & { prospect_id: string },
);
const bizId = (n: number) => n.toString(16).padStart(32, 'f');
const event = (id: string, business_id: string, time = '2026-10-20T10:00:00Z', data: object = {}) => ({
  event_id: id,
  event_name: 'new_product',
  event_time: time,
  business_id,
  data,
});

function write(dir: string, files: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(files)) {
    const text = Array.isArray(value)
      ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n') + '\n'
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function baseEngine(records: { businesses?: object[]; prospects?: object[]; events?: object[] } = {}) {
  const dir = tempDir('pdb-delta-');
  write(join(dir, 'base'), {
    'manifest.json': { format_version: 1, as_of: AS_OF },
    'businesses.jsonl': records.businesses ?? B,
    'prospects.jsonl': records.prospects ?? P,
    'events.jsonl': records.events ?? [event('e1', B[0]!.business_id), event('e2', B[1]!.business_id)],
  });
  const engine = openEngine({ clock: clockOf(AS_OF) });
  await engine.load(join(dir, 'base'), { strict: true, threads: 0 });
  const manifest = {
    format_version: 1,
    kind: 'delta',
    base_snapshot_id: engine.info().snapshotId,
    as_of: AS_OF,
  };
  return { engine, dir, manifest };
}

const prospectById = (e: Engine, id: string) =>
  (
    fetchProspects(e, { mode: 'full', page_size: 1, filters: { prospect_id: { values: [id] } } } as Any, {
      version: 2,
    }) as {
      data: Record<string, unknown>[];
    }
  ).data[0];

describe('applyDelta', () => {
  it('refuses a delta of another snapshot, naming both ids, and changes nothing', async () => {
    const { engine, dir, manifest } = await baseEngine();
    const before = engine.info();
    const delta = write(join(dir, 'd'), {
      'manifest.json': { ...manifest, base_snapshot_id: 'f'.repeat(32) },
      'deletions.jsonl': [{ prospect_id: P[0]!.prospect_id }],
    });
    await expect(engine.applyDelta(delta)).rejects.toMatchObject({
      code: 'SNAPSHOT_INVALID',
      message: expect.stringContaining(
        `applies to snapshot ${'f'.repeat(32)}, but the database holds snapshot ${before.snapshotId}`,
      ),
    });
    expect(engine.info()).toEqual(before);
    engine.close();
  });

  it('refuses a folder whose manifest is missing, not JSON, not a delta or without base_snapshot_id', async () => {
    const { engine, dir, manifest } = await baseEngine();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /no manifest/],
      [{ 'manifest.json': '{nope' }, /manifest is not valid JSON/],
      [{ 'manifest.json': { format_version: 1, as_of: AS_OF } }, /not a delta manifest \(kind is null/],
      [{ 'manifest.json': { format_version: 1, kind: 'delta' } }, /base_snapshot_id/],
      [{ 'manifest.json': { ...manifest, format_version: 2 } }, /format_version/],
    ];
    for (const [i, [files, message]] of cases.entries()) {
      const delta = write(join(dir, `m${i}`), { ...files, 'deletions.jsonl': [] });
      await expect(engine.applyDelta(delta)).rejects.toMatchObject({
        code: 'SNAPSHOT_INVALID',
        message: expect.stringMatching(message),
      });
    }
    // And a delta given to `load` is refused: it would replace every stream with the delta's few rows.
    await expect(
      engine.load(write(join(dir, 'as-load'), { 'manifest.json': manifest, 'businesses.jsonl': [B[0]] })),
    ).rejects.toMatchObject({
      code: 'SNAPSHOT_INVALID',
      message: expect.stringContaining('this folder is a delta'),
    });
    engine.close();
  });

  it('reports bad lines with file and line and skips them; strict refuses the whole delta', async () => {
    const { engine, dir, manifest } = await baseEngine();
    // The delta's transaction runs with a page cache of its own: the engine's comes back either way.
    const cacheSize = () => engine.db.pragma('cache_size', { simple: true });
    const cache = cacheSize();
    const delta = write(join(dir, 'd'), {
      'manifest.json': manifest,
      'businesses.jsonl': [
        { ...B[0], name: 'Renamed Holdings' },
        '{not json',
        { ...B[1], business_id: 'xyz' },
      ],
      'deletions.jsonl': [
        { prospect_id: P[1]!.prospect_id },
        { prospect_id: 'short' },
        { business_id: B[2]!.business_id, prospect_id: P[2]!.prospect_id },
        { prospect_id: P[1]!.prospect_id },
      ],
    });
    const before = engine.info();
    await expect(engine.applyDelta(delta, { strict: true })).rejects.toMatchObject({
      code: 'SNAPSHOT_INVALID',
      message: 'delta refused: 5 invalid line(s)',
    });
    expect(engine.info()).toEqual(before);
    expect(cacheSize()).toBe(cache);

    const report = await engine.applyDelta(delta);
    expect(cacheSize()).toBe(cache);
    const file = (name: string) => join(delta, name);
    expect(report.issues).toEqual([
      { file: file('deletions.jsonl'), line: 2, reason: 'prospect_id: must be 40 lowercase hex characters' },
      {
        file: file('deletions.jsonl'),
        line: 3,
        reason: 'expected exactly one of business_id, prospect_id, event_id (got business_id, prospect_id)',
      },
      {
        file: file('deletions.jsonl'),
        line: 4,
        reason: `duplicate id ${P[1]!.prospect_id} (first at line 1)`,
      },
      { file: file('businesses.jsonl'), line: 2, reason: expect.stringMatching(/^invalid JSON/) },
      { file: file('businesses.jsonl'), line: 3, reason: expect.stringContaining('business_id') },
    ]);
    expect(report.rows).toEqual({
      businesses: { inserted: 0, updated: 1, deleted: 0 },
      prospects: { inserted: 0, updated: 0, deleted: 1 },
      events: { inserted: 0, updated: 0, deleted: 0 },
    });
    expect(report.files.map((f) => [f.stream, f.read, f.applied, f.invalid, f.duplicates])).toEqual([
      ['deletions', 4, 1, 2, 1],
      ['businesses', 3, 1, 2, 0],
    ]);
    expect(engine.info().counts.prospects).toBe(before.counts.prospects - 1);
    engine.close();
  });

  it('deletes ids of each kind; a deleted business keeps its prospects (without company fields) and events', async () => {
    const { engine, dir, manifest } = await baseEngine();
    const gone = B[0]!.business_id;
    const employee = P.find((p) => p.business_id === gone)!;
    expect(prospectById(engine, employee.prospect_id)!.company_name).toBe(B[0]!.name);
    const delta = write(join(dir, 'd'), {
      'manifest.json': manifest,
      'deletions.jsonl': [
        { business_id: gone },
        { event_id: 'e2' },
        { prospect_id: P[29]!.prospect_id },
        { event_id: 'never-stored' },
      ],
    });
    const report = await engine.applyDelta(delta);
    expect(report.rows).toEqual({
      businesses: { inserted: 0, updated: 0, deleted: 1 },
      prospects: { inserted: 0, updated: 0, deleted: 1 },
      events: { inserted: 0, updated: 0, deleted: 1 },
    });
    expect(report.files[0]).toMatchObject({ stream: 'deletions', read: 4, applied: 3, missing: 1 });
    expect(prospectById(engine, employee.prospect_id)!.company_name).toBe(null);
    expect(prospectById(engine, P[29]!.prospect_id)).toBeUndefined();
    const events = fetchEvents(engine, {
      version: 2,
      entityType: 'business',
      ids: [gone, B[1]!.business_id],
      eventTypes: ['new_product'],
    });
    expect(events.map((e) => e.event_id)).toEqual(['e1']);
    engine.close();
  });

  it('replaces an event whose event_id is stored, and adds the others', async () => {
    const { engine, dir, manifest } = await baseEngine();
    const id = B[0]!.business_id;
    const delta = write(join(dir, 'd'), {
      'manifest.json': manifest,
      'events.jsonl': [
        event('e1', id, '2026-10-25T08:00:00Z', { product_name: 'v2' }),
        event('e3', id, '2026-10-21T08:00:00Z'),
      ],
    });
    const report = await engine.applyDelta(delta);
    expect(report.rows.events).toEqual({ inserted: 1, updated: 1, deleted: 0 });
    const events = fetchEvents(engine, {
      version: 2,
      entityType: 'business',
      ids: [id],
      eventTypes: ['new_product'],
    });
    expect(events.map((e) => [e.event_id, e.event_time, e.data])).toEqual([
      ['e1', '2026-10-25T08:00:00+00:00', { product_name: 'v2' }],
      ['e3', '2026-10-21T08:00:00+00:00', {}],
    ]);
    expect(engine.info().counts.events).toBe(3);
    engine.close();
  });

  it('gives prospects the company fields of their changed business, and of a business that arrives', async () => {
    const orphan = { ...P[3]!, prospect_id: 'a'.repeat(40), business_id: bizId(7) };
    const { engine, dir, manifest } = await baseEngine({ prospects: [...P, orphan] });
    const employees = P.filter((p) => p.business_id === B[1]!.business_id);
    expect(employees.length).toBeGreaterThan(0);
    expect(prospectById(engine, orphan.prospect_id)!.company_name).toBe(null);
    const delta = write(join(dir, 'd'), {
      'manifest.json': manifest,
      'businesses.jsonl': [
        { ...B[1], name: 'Renamed Holdings', website: 'https://renamed.example', domain: 'renamed.example' },
        { ...B[2], business_id: bizId(7), name: 'Arrived Ltd' },
      ],
    });
    const report = await engine.applyDelta(delta);
    expect(report.refreshedProspects).toBe(employees.length + 1);
    for (const p of employees) {
      expect(prospectById(engine, p.prospect_id)).toMatchObject({
        company_name: 'Renamed Holdings',
        company_website: 'https://renamed.example',
      });
    }
    expect(prospectById(engine, orphan.prospect_id)!.company_name).toBe('Arrived Ltd');
    const filtered = fetchProspects(
      engine,
      { mode: 'preview', page_size: 100, filters: { company_name: { values: ['Renamed Holdings'] } } } as Any,
      { version: 2 },
    ) as { data: unknown[] };
    expect(filtered.data).toHaveLength(employees.length);
    engine.close();
  });

  it('is checked at the library boundary: a misspelled option is refused', async () => {
    const { engine, dir, manifest } = await baseEngine();
    const delta = write(join(dir, 'd'), { 'manifest.json': manifest, 'deletions.jsonl': [] });
    await expect(applyDelta(engine, delta, { strcit: true } as Any)).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(applyDelta(engine, '' as Any)).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(applyDelta(engine, delta)).resolves.toMatchObject({ issueCount: 0 });
    engine.close();
  });
});

describe('applyDeltaFile', () => {
  it('writes a new file with every saved index valid, leaving the base untouched', async () => {
    const dir = tempDir('pdb-delta-file-');
    const snap = join(dir, 'snap');
    await generateSnapshot({ dir: snap, businesses: 30, prospects: 120, events: 40, seed: 3 });
    const delta = join(dir, 'delta');
    const merged = join(dir, 'merged');
    await generateDelta({ base: snap, dir: delta, merged, fraction: 0.1 });
    const base = join(dir, 'base.db');
    const loader = openEngine({ path: base, state: ':memory:' });
    await loader.load(snap, { threads: 0 });
    const { buildIndexes } = await import('../src/core/warm.js');
    buildIndexes(loader);
    await loader.state.close();
    loader.close();
    const hash = () => createHash('sha256').update(readFileSync(base)).digest('hex');
    const before = hash();

    await expect(
      applyDeltaFile({ base: join(dir, 'missing.db'), delta, out: join(dir, 'x.db') }),
    ).rejects.toMatchObject({
      code: 'SNAPSHOT_NOT_FOUND',
    });
    const out = join(dir, 'next.db');
    // Indexes built on this thread: workers would each load tsx and the sources first (~3 s of CPU),
    // and `load.threads.test.ts` checks that a threaded build saves the same bytes.
    const report = await applyDeltaFile({ base, delta, out, threads: 1 });
    expect(hash()).toBe(before);
    expect(report.copy.method).toBe('copy');
    // A delta of the new file's base is refused on the new file: the ids differ.
    await expect(applyDeltaFile({ base: out, delta, out: join(dir, 'again.db') })).rejects.toMatchObject({
      code: 'SNAPSHOT_INVALID',
      message: expect.stringContaining(`but ${out} holds snapshot ${report.snapshotId}`),
    });

    const next = openEngine({ path: out, readonly: true, state: ':memory:' });
    try {
      const info = next.info();
      expect(info.snapshotId).toBe(report.snapshotId);
      const stamps = next.db.prepare('SELECT DISTINCT stamp FROM index_cache').pluck().all() as string[];
      expect(stamps.length).toBeGreaterThan(0);
      for (const s of stamps) expect(s.endsWith(`:${info.dataVersion}:${info.snapshotId}`), s).toBe(true);
      // Its saved indexes (the search indexes patched from the base's, the match keys and names
      // carried over) answer as a full load of the merged records.
      const full = openEngine({});
      try {
        await full.load(merged, { strict: true, threads: 0 });
        expect(answers(next, full)).toEqual(answers(full, full));
      } finally {
        full.close();
      }
    } finally {
      await next.state.close();
      next.close();
    }
  });

  it('keeps every saved index of the base when the delta holds events alone, and answers its events', async () => {
    const dir = tempDir('pdb-delta-events-');
    const snap = join(dir, 'snap');
    await generateSnapshot({ dir: snap, businesses: 30, prospects: 120, events: 40, seed: 5 });
    const base = join(dir, 'base.db');
    const loader = openEngine({ path: base, state: ':memory:' });
    await loader.load(snap, { threads: 0 });
    const { buildIndexes } = await import('../src/core/warm.js');
    buildIndexes(loader);
    const business = loader.db.prepare('SELECT business_id FROM businesses LIMIT 1').pluck().get() as string;
    const manifest = { format_version: 1, kind: 'delta', base_snapshot_id: loader.info().snapshotId };
    await loader.state.close();
    loader.close();
    const delta = write(join(dir, 'delta'), {
      'manifest.json': manifest,
      'events.jsonl': [event('ev-new', business, '2026-10-28T09:00:00Z', { product_name: 'Orbit' })],
    });
    const saved = (file: string) => {
      const db = openEngine({ path: file, readonly: true, state: ':memory:' });
      try {
        return db.db
          .prepare('SELECT name, part, stamp, hex(data) AS data FROM index_cache ORDER BY name, part')
          .all();
      } finally {
        void db.state.close();
        db.close();
      }
    };
    const out = join(dir, 'next.db');
    const report = await applyDeltaFile({ base, delta, out, threads: 1 });
    expect(report.rows.events).toEqual({ inserted: 1, updated: 0, deleted: 0 });
    expect(report.snapshotId).not.toBe(manifest.base_snapshot_id);
    // The same saved bytes under the same stamps: nothing was built again.
    const before = saved(base);
    expect(before.length).toBeGreaterThan(10);
    expect(saved(out)).toEqual(before);
    const next = openEngine({
      path: out,
      readonly: true,
      state: ':memory:',
      clock: () => Date.parse('2026-11-02'),
    });
    try {
      const events = fetchEvents(next, {
        version: 2,
        entityType: 'business',
        ids: [business],
        eventTypes: ['new_product'],
      });
      expect(events.map((e) => e.event_id)).toContain('ev-new');
    } finally {
      await next.state.close();
      next.close();
    }
  });
});
