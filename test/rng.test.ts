/**
 * The one seeded-random module of the tools, benches and tests (`tools/rng.ts`). Its draws are part of
 * what is committed or cached (the demo snapshot, the bench's evaluation sets, the search tests' data),
 * so they are pinned: `mulberry32` against the reference algorithm's first draws, `Prng` against
 * `mulberry32`, `Rng` (sfc32) as a pure function of (seed, stream, index).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32, Prng, Rng, STREAM } from '../tools/rng.js';

describe('mulberry32', () => {
  it('draws the reference sequence', () => {
    const first3 = (seed: number) => {
      const next = mulberry32(seed);
      return [next(), next(), next()];
    };
    expect(first3(0)).toEqual([0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]);
    expect(first3(7)).toEqual([0.011704753153026104, 0.06195825757458806, 0.97690763277933]);
    expect(first3(42)).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
    expect(first3(4294967295)).toEqual([0.8964226141106337, 0.189478256739676, 0.7156526781618595]);
  });

  it('Prng draws the same stream, and int, pick and chance read it one draw each', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 1, max: 1000 }), (seed, n) => {
        const ref = mulberry32(seed);
        const p = new Prng(seed);
        expect(p.next()).toBe(ref());
        expect(p.int(n)).toBe(Math.floor(ref() * n));
        const items = Array.from({ length: n }, (_, i) => i);
        expect(p.pick(items)).toBe(items[Math.floor(ref() * n)]);
        expect(p.chance(0.5)).toBe(ref() < 0.5);
      }),
    );
  });
});

describe('Rng (sfc32)', () => {
  it('is a pure function of (seed, stream, index), with draws in range', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 2 ** 40 }), (seed, index) => {
        const a = new Rng(seed, STREAM.business, index);
        const b = new Rng(seed, STREAM.business, index);
        const c = new Rng(seed, STREAM.prospect, index);
        const draws = Array.from({ length: 8 }, () => a.next());
        expect(Array.from({ length: 8 }, () => b.next())).toEqual(draws);
        expect(Array.from({ length: 8 }, () => c.next())).not.toEqual(draws);
        for (const d of draws) expect(d >= 0 && d < 1).toBe(true);
      }),
    );
  });
});
