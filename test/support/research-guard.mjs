/**
 * Child process of the research hang guard: compiles a caller schema with a catastrophic `pattern` and
 * validates the adversarial string, then prints the outcome. Run in a child so that a regression (a
 * backtracking engine) is killed by the parent's timeout instead of freezing the test runner. Plain
 * JavaScript over the BUILT package (`dist/`, built by the project's global setup when stale,
 * `global-build.ts`): started with `--import tsx` over `src/` it cost about twice the CPU.
 */
import { compileOutputSchema, describeErrors } from '../../dist/core/research/schema.js';

const schema = {
  type: 'object',
  properties: { code: { type: 'string', pattern: '^(a+)+$' } },
  patternProperties: { '^(x+x+)+y$': { type: 'integer' } },
};
const validate = compileOutputSchema(schema);
const evil = { code: `${'a'.repeat(34)}!`, [`${'x'.repeat(40)}`]: 'not checked' };
const good = { code: 'a'.repeat(34), [`${'x'.repeat(40)}y`]: 3 };
const badKey = { [`${'x'.repeat(40)}y`]: 'three' };
const out = {
  evil: validate(evil),
  evilErrors: describeErrors(validate),
  good: validate(good),
  badKey: validate(badKey),
};
process.stdout.write(JSON.stringify(out));
