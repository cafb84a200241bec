/**
 * Key generators for the hash-table property tests: keys that collide on prefixes ("a", "ab", "aba"),
 * non-Latin-1 and astral characters, the empty key and long keys, mixed so a run holds repeats.
 */
import fc from 'fast-check';
import type { Sections } from '../../src/indexes/hash/index.js';

export const hashKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom('a', 'b', '.'), maxLength: 6 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.constantFrom('x', 'é', 'ÿ'), minLength: 200, maxLength: 300 }),
  },
  { weight: 1, arbitrary: fc.constantFrom('', 'acme.com', 'acme.co', 'acme.com.', 'ACME.com', 'münchen.de') },
);

/** Sections copied into one fresh ArrayBuffer and wrapped back, as an index file would map them. */
export function copiedSections(s: Sections): Sections {
  let bytes = 0;
  for (const v of Object.values(s)) if (typeof v !== 'number') bytes += Math.ceil(v.byteLength / 8) * 8;
  const buffer = new ArrayBuffer(bytes);
  const out: Sections = {};
  let at = 0;
  for (const [k, v] of Object.entries(s)) {
    if (typeof v === 'number') {
      out[k] = v;
      continue;
    }
    const Ctor = v.constructor as new (b: ArrayBuffer, offset: number, length: number) => typeof v;
    const copy = new Ctor(buffer, at, v.length);
    new Uint8Array(buffer, at, v.byteLength).set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    out[k] = copy;
    at += Math.ceil(v.byteLength / 8) * 8;
  }
  return out;
}
