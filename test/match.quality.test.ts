/**
 * Quality on a small labelled set: a generated snapshot with 10% of its entities held out, records
 * perturbed the way CRM exports differ (bench/match/). Precision is what must not slip.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessEvalSet, prospectEvalSet } from '../bench/match/evalset.js';
import { quality, type Quality } from '../bench/match/quality.js';
import { holdOut, loadHeldOut, type HeldOutSnapshot } from '../bench/match/snapshot.js';
import { matchBusinessRows, matchProspectRows } from '../src/core/match/index.js';
import type { Engine } from '../src/engine.js';
import { companyContext } from '../src/core/match/company-search.js';
import { generateSnapshot } from '../tools/generate/index.js';
import { DEMO_LOAD } from './support/demo.js';
import { tempDir } from './support/temp.js';

let engine: Engine;
let snapshot: HeldOutSnapshot;
let businesses: Quality[];
let prospects: Quality[];

beforeAll(async () => {
  const dir = tempDir('match-quality-');
  await generateSnapshot({
    dir: join(dir, 'src'),
    businesses: 2000,
    prospects: 10000,
    events: 0,
    seed: 11,
    format: 'jsonl',
  });
  snapshot = await holdOut(join(dir, 'src'), join(dir, 'held'), 0.1);
  engine = await loadHeldOut(snapshot, undefined, DEMO_LOAD.threads);
  const bset = businessEvalSet(snapshot, 120, 3, companyContext(engine));
  businesses = quality(
    bset,
    matchBusinessRows(
      engine,
      bset.map((r) => r.input),
    ).map((r) => r.business_id),
  );
  const pset = prospectEvalSet(snapshot, 120, 4);
  prospects = quality(
    pset,
    matchProspectRows(
      engine,
      pset.map((r) => r.input),
    ).map((r) => r.prospect_id),
  );
});
afterAll(() => engine.close());

const kind = (qs: Quality[], k: string) => qs.find((q) => q.kind === k)!;

describe('match quality on a perturbed evaluation set', () => {
  it('keeps overall precision at 0.995 or better across businesses and prospects', () => {
    const b = kind(businesses, 'overall');
    const p = kind(prospects, 'overall');
    const precision = (b.tp + p.tp) / (b.tp + p.tp + b.fp + p.fp);
    expect(precision).toBeGreaterThanOrEqual(0.995);
    expect(p.precision).toBeGreaterThanOrEqual(0.995);
    expect(b.precision).toBeGreaterThanOrEqual(0.995);
  });

  it('never returns a wrong id for an exact key of an entity in the database', () => {
    for (const k of ['domain_only', 'domain_url', 'domain_www', 'subdomain', 'linkedin'])
      expect(kind(businesses, k).fp).toBe(0);
    for (const k of ['email', 'email_case', 'email_gmail', 'phone', 'linkedin'])
      expect(kind(prospects, k).fp).toBe(0);
  });

  // Business rows labelled by what their attributes can tell apart (bench/match/evalset.ts).
  it('recalls most perturbed rows', () => {
    // Reached: businesses F1 0.9935 (typo1 R 0.966, typo2 0.857, word_order 1.000).
    expect(kind(businesses, 'overall').f1).toBeGreaterThan(0.99);
    expect(kind(businesses, 'typo1').recall).toBeGreaterThanOrEqual(0.95);
    expect(kind(businesses, 'typo2').recall).toBeGreaterThanOrEqual(0.83);
    expect(kind(businesses, 'word_order').recall).toBeGreaterThanOrEqual(0.98);
    expect(kind(prospects, 'overall').f1).toBeGreaterThan(0.95);
  });
});
