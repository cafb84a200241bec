import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonical, cursorScope, decodeCursor, encodeCursor } from '../src/core/cursor.js';
import { fetchBusinesses, fetchProspects, type CursorPage } from '../src/core/fetch.js';
import { openEngine, type Engine } from '../src/engine.js';
import { EngineError } from '../src/errors.js';
import {
  BusinessesFetchRequestV1,
  ProspectsFetchRequestV1,
  ProspectsFetchRequestV2,
} from '../src/schemas/search.js';
import { NOW, synthetic, type Synthetic } from './search.oracle.js';

let engine: Engine;
let other: Engine;
let data: Synthetic;
beforeAll(async () => {
  data = synthetic(3, 60, 300);
  engine = openEngine({ clock: () => NOW });
  await engine.load(data.dir, { strict: true });
  other = openEngine({ clock: () => NOW });
  await other.load(data.dir, { strict: true });
});
afterAll(() => {
  engine.close();
  other.close();
});

const first = (e: Engine, body: Record<string, unknown> = {}) =>
  fetchProspects(
    e,
    ProspectsFetchRequestV1.parse({ mode: 'preview', page_size: 10, next_cursor: null, ...body }),
    1,
  ) as CursorPage<unknown>;

function rejects(fn: () => unknown, reason: RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(EngineError);
    const issue = (e as EngineError).issues[0]!;
    expect(issue.loc).toEqual(['next_cursor']);
    expect(issue.msg).toMatch(reason);
    return;
  }
  throw new Error('expected a validation error');
}

describe('cursors', () => {
  it('round-trips a position under the same scope', () => {
    const scope = cursorScope('prospect', 1, 'full', { a: { values: ['x'] } });
    const token = encodeCursor(engine, scope, 1234);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(engine, token, scope)).toEqual({ ok: true, after: 1234 });
  });

  it('creates the per-database secret once, in meta', () => {
    first(engine);
    const secret = engine.db.prepare(`SELECT value FROM meta WHERE key = 'cursor_secret'`).pluck().get();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    first(engine);
    expect(engine.db.prepare(`SELECT value FROM meta WHERE key = 'cursor_secret'`).pluck().get()).toBe(
      secret,
    );
  });

  it('hashes filters canonically: member order, nulls and type do not matter', () => {
    expect(canonical({ b: 1, a: { type: 'includes', values: ['x'], negate: null } })).toBe(
      canonical({ a: { values: ['x'] }, b: 1, c: null }),
    );
  });

  it('rejects a cursor reused with other filters or another mode', () => {
    const cursor = first(engine).page.next_cursor!;
    rejects(
      () => first(engine, { next_cursor: cursor, filters: { country_code: { values: ['us'] } } }),
      /unchanged/,
    );
    rejects(() => first(engine, { next_cursor: cursor, mode: 'full' }), /unchanged/);
    rejects(
      () =>
        fetchProspects(
          engine,
          ProspectsFetchRequestV2.parse({ mode: 'preview', page_size: 10, next_cursor: cursor }),
          2,
        ),
      /unchanged/,
    );
    // Same filters written differently are the same walk.
    const c2 = first(engine, { filters: { country_code: { type: 'includes', values: ['US'] } } }).page
      .next_cursor!;
    expect(() =>
      first(engine, { next_cursor: c2, filters: { country_code: { values: ['us'], negate: null } } }),
    ).not.toThrow();
  });

  it('rejects a cursor of another entity or another database', () => {
    const cursor = first(engine).page.next_cursor!;
    rejects(
      () =>
        fetchBusinesses(
          engine,
          BusinessesFetchRequestV1.parse({ mode: 'preview', page_size: 10, next_cursor: cursor }),
          1,
        ),
      /belongs to a prospect walk/,
    );
    rejects(() => first(other, { next_cursor: cursor }), /not issued by this database/);
  });

  it('rejects a stale cursor after a reload of other data', async () => {
    const e = openEngine({ clock: () => NOW });
    await e.load(data.dir);
    const cursor = first(e).page.next_cursor!;
    await e.load(synthetic(4, 60, 300).dir);
    rejects(() => first(e, { next_cursor: cursor }), /stale/);
    e.close();
  });

  it('property: any tampered cursor is a validation error, never a crash or a wrong page', () => {
    const cursor = first(engine).page.next_cursor!;
    const bytes = Buffer.from(cursor, 'base64url');
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (i, x) => {
        const t = Buffer.from(bytes);
        t[i] = t[i]! ^ x;
        rejects(() => first(engine, { next_cursor: t.toString('base64url') }), /cursor/);
      }),
      { numRuns: 200, seed: 9 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        if (s === '' || s === 'null') return;
        rejects(() => first(engine, { next_cursor: s }), /cursor/);
      }),
      { numRuns: 200, seed: 10 },
    );
  });
});
