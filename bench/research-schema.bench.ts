/**
 * Research `output_schema` safety: what a hostile schema costs before and after the bounds and the
 * linear-time regex engine. Baselines in the same run are what the code did before: a plain ajv
 * (`strict: false, allErrors: true`, V8 `RegExp`) compiling whatever it was given.
 *
 *   node --import tsx bench/research-schema.bench.ts
 */
import { Ajv } from 'ajv';
import { RE2JS } from 're2js';
import { Bench } from 'tinybench';
import { compileOutputSchema } from '../src/core/research/schema.js';
import { ResearchParams } from '../src/schemas/research.js';

let unique = 0;
const wide = (n: number) => ({
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`p${i}_${unique}`, { type: 'string', description: 'd' }]),
  ),
});
const plainAjv = () => new Ajv({ strict: false, allErrors: true });

const bench = new Bench({ iterations: 5, time: 0, warmup: false });
const huge = wide(10_000);
bench
  .add('10,000 properties: before, plain ajv compile (baseline)', () => {
    plainAjv().compile(huge);
  })
  .add('10,000 properties: after, refused by the request schema (422)', () => {
    if (ResearchParams.safeParse({ output_schema: huge, query: 'q' }).success) throw new Error('accepted');
  })
  .add('128 properties: plain ajv compile (baseline)', () => {
    unique++;
    plainAjv().compile(wide(128));
  })
  .add('128 properties: compileOutputSchema (nullable, re2js, uncached)', () => {
    unique++;
    compileOutputSchema(wide(128));
  });
const evil = (n: number) => `${'a'.repeat(n)}!`;
const v8 = /^(a+)+$/u;
const re2 = RE2JS.compile('^(a+)+$');
bench
  .add('^(a+)+$ on 22 a + "!": V8 RegExp (baseline; doubles per extra a)', () => {
    v8.test(evil(22));
  })
  .add('^(a+)+$ on 22 a + "!": re2js', () => {
    re2.test(evil(22));
  })
  .add('^(a+)+$ on 34 a + "!": re2js (V8: ~2^12 times the 22-a figure)', () => {
    re2.test(evil(34));
  });
await bench.run();
const rows = bench.tasks.map((t) => {
  const r = t.result as { latency?: { mean: number } } | undefined;
  return { case: t.name, 'mean ms': r?.latency ? Number(r.latency.mean.toFixed(2)) : NaN };
});
console.table(rows);
const ms = (i: number) => rows[i]!['mean ms'];
console.log(`10,000 properties: ${(ms(0) / ms(1)).toFixed(0)}x faster to answer`);
console.log(`128 properties: compile ${(ms(3) / ms(2)).toFixed(2)}x the plain ajv baseline`);
console.log(`catastrophic pattern at 22 a: re2js ${(ms(4) / ms(5)).toFixed(0)}x faster than V8`);
