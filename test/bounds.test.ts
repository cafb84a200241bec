/**
 * Input bounds inside the core, for library callers that bypass the facade's schemas, and the facade's
 * own pre-schema bounds. Exact results, not timings (the fuzz test holds the hang guard).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseIdCsv } from '../src/jobs/uploads.js';
import { decodeCursor, cursorScope, encodeCursor } from '../src/core/cursor.js';
import { boundedName, boundedProspect, MAX_NAME_CHARS } from '../src/core/match/limits.js';
import { matchProspects } from '../src/core/match/batch.js';
import type { Engine } from '../src/engine.js';
import { bodyBoundsIssue, MAX_DETAIL } from '../src/facade/validation.js';
import { foldText, words } from '../src/normalise/index.js';
import { MAX_FOLD_CHARS } from '../src/normalise/text.js';
import { eventsFetchRequest } from '../src/schemas/events.js';
import { toDetail } from '../src/facade/validation.js';
import { demoEngine } from './support/demo.js';

let engine: Engine;
beforeAll(async () => {
  engine = await demoEngine();
});

describe('text folding bounds', () => {
  it('folds ordinary text unchanged and caps input and output, also when folding expands', () => {
    expect(foldText('  Müller & Söhne, GmbH ')).toBe('muller and sohne gmbh');
    expect(foldText('İ'.repeat(3_000))).toBe('i'.repeat(3_000));
    expect(foldText('ﬃ'.repeat(5_000))).toHaveLength(MAX_FOLD_CHARS);
    expect(foldText('a b '.repeat(10_000)).length).toBeLessThanOrEqual(MAX_FOLD_CHARS);
    // A cut never splits a surrogate pair into a lone half.
    const cut = words('a'.repeat(MAX_FOLD_CHARS - 1) + '𝔘')[0]!;
    expect(cut).toBe('a'.repeat(MAX_FOLD_CHARS - 1));
  });
});

describe('match input bounds', () => {
  it('leaves real names alone and folds long or expanding ones to the cap', () => {
    expect(boundedName('Acme Robotics, Inc.')).toBe('Acme Robotics, Inc.');
    expect(boundedName(null)).toBeNull();
    expect(boundedName('a'.repeat(10_000))).toBe('a'.repeat(64));
    const ligatures = boundedName('ﬃ'.repeat(200))!;
    expect(ligatures.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
    expect(ligatures).toBe('ffi'.repeat(21) + 'f');
    const many = boundedName('acme '.repeat(100))!;
    expect(many.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
    expect(
      boundedProspect({
        business_id: null,
        full_name: 'Jane Doe',
        company_name: 'Acme',
        email: 'x'.repeat(1_000),
        phone_number: '1'.repeat(1_000),
        linkedin: null,
      }),
    ).toMatchObject({ email: 'x'.repeat(320), phone_number: '1'.repeat(64), company_name: 'Acme' });
  });

  it("answers library calls with hostile names, echoing the caller's input", () => {
    const long = 'a'.repeat(10_000);
    const out = matchProspects(engine, [
      { full_name: 'Jane Doe', company_name: long },
      { full_name: 'Jane Doe', company_name: 'İ'.repeat(3_000) },
      { full_name: 'ﬃ'.repeat(2_000), company_name: 'ﬃ'.repeat(2_000) },
    ]);
    expect(out.total_results).toBe(3);
    expect(out.matched_prospects[0]!.input.company_name).toBe(long);
    expect(out.matched_prospects.every((r) => r.prospect_id === null)).toBe(true);
  });
});

describe('facade bounds before the schema', () => {
  it('names the first oversized string, list or object with its path', () => {
    expect(bodyBoundsIssue({ a: [1, 2, { b: 'ok' }] })).toBeNull();
    expect(bodyBoundsIssue({ a: [0, { b: 'x'.repeat(70_000) }] })).toEqual({
      loc: ['body', 'a', 1, 'b'],
      msg: 'ensure this value has at most 65536 characters',
      type: 'value_error.any_str.max_length',
      ctx: { limit_value: 65_536 },
    });
    expect(bodyBoundsIssue({ ids: new Array(10_001).fill(1) })).toMatchObject({
      loc: ['body', 'ids'],
      type: 'value_error.list.max_items',
    });
    const wide = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, i]));
    expect(bodyBoundsIssue(wide)).toMatchObject({ loc: ['body'], type: 'value_error.list.max_items' });
    const many = Array.from({ length: 100 }, () => new Array(2_100).fill(0));
    expect(bodyBoundsIssue(many)).toMatchObject({ type: 'value_error.body.max_values' });
  });

  it('checks the length of event type lists before reading 10,000 unknown types', () => {
    const schema = eventsFetchRequest('business');
    const r = schema.safeParse(
      { event_types: Array.from({ length: 10_000 }, (_, i) => `x${i}`), business_ids: ['a'.repeat(32)] },
      { reportInput: true },
    );
    expect(toDetail(r.error!.issues, 'body', schema)).toEqual([
      {
        loc: ['body', 'event_types'],
        msg: 'ensure this value has at most 100 items',
        type: 'value_error.list.max_items',
        ctx: { limit_value: 100 },
      },
    ]);
    // Within the cap, bad types are listed, at most MAX_DETAIL of them.
    const bad = schema.safeParse(
      { event_types: Array.from({ length: 90 }, (_, i) => `x${i}`), business_ids: ['a'.repeat(32)] },
      { reportInput: true },
    );
    expect(toDetail(bad.error!.issues, 'body', schema)).toHaveLength(MAX_DETAIL);
  });
});

describe('cursor and upload bounds', () => {
  it('refuses an oversized cursor before decoding it, and still decodes its own', () => {
    const scope = cursorScope('business', 1, 'full', {});
    const token = encodeCursor(engine, scope, 42);
    expect(decodeCursor(engine, token, scope)).toEqual({ ok: true, after: 42 });
    expect(decodeCursor(engine, 'A'.repeat(100_000), scope)).toEqual({
      ok: false,
      reason: 'malformed cursor',
    });
  });

  it('refuses an oversized CSV text before splitting it', () => {
    const r = parseIdCsv(`${'a'.repeat(32)}\n`.repeat(30_000), 'business');
    expect(r).toMatchObject({
      ok: false,
      issues: [{ loc: ['body', 'file'], type: 'value_error.list.max_items' }],
    });
    expect(parseIdCsv(`business_id\n${'a'.repeat(32)}\n`, 'business')).toEqual({
      ok: true,
      ids: ['a'.repeat(32)],
    });
  });
});
