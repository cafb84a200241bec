/** Test and bench support: hostile inputs for the fuzz suite and the HTTP fuzz bench. */
import fc from 'fast-check';

/** Strings that stress folding, tokenising and typo expansion. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    'İ'.repeat(3_000),
    'ﬃ'.repeat(5_000),
    '\uFDFA'.repeat(2_000),
    'a\u0301'.repeat(4_000),
    '\u200B\u200C\u200D\uFEFF'.repeat(2_000),
    '\u202E\u0645\u0631\u062D\u0628\u0627'.repeat(1_000),
    '\uD800'.repeat(1_000),
    '\uDFFF\uD800x',
    'sofware engineer '.repeat(600),
    '0'.repeat(10_000),
    'NaN',
    '-0',
    'Infinity',
    '1e308',
    '9'.repeat(400),
  ),
  fc
    .tuple(fc.integer({ min: 10_000, max: 100_000 }), fc.constantFrom('a', 'ab ', 'é', '€', '𝔘', '-', ' '))
    .map(([n, c]) => c.repeat(Math.ceil(n / c.length))),
  fc.string({ unit: 'binary', maxLength: 64 }),
);
