/** Quick quality check while tuning: `node --import tsx bench/match/eval-quick.ts [businesses] [prospects] [perKind]`. */
import { writeFileSync } from 'node:fs';
import { matchBusinessRows, matchProspectRows } from '../../src/core/match/index.js';
import { companyContext } from '../../src/core/match/company-search.js';
import { evalData } from './data.js';
import { businessEvalSet, drawnLabels, prospectEvalSet } from './evalset.js';
import { quality, qualityTable } from './quality.js';

const [nb = '2000', np = '10000', per = '300', show = '0'] = process.argv.slice(2);
const { snapshot, engine } = await evalData({
  businesses: Number(nb),
  prospects: Number(np),
  // As `bench/match.bench.ts` draws them (so both reuse one cache of held-out rows).
  sample: Math.min(1, 200_000 / Number(nb)),
  file: Number(nb) >= 100_000,
});
const bset = businessEvalSet(snapshot, Number(per), 1, companyContext(engine));
// Quality is measured as a batch runs (no explanations); the explained run prints the errors and must
// decide every row the same way.
const bplain = matchBusinessRows(
  engine,
  bset.map((r) => r.input),
);
const bout = matchBusinessRows(
  engine,
  bset.map((r) => r.input),
  { explain: true, alternatives: 2 },
);
const differ = bout.filter((r, i) => r.business_id !== bplain[i]!.business_id).length;
if (differ > 0) console.log(`!! ${differ} business rows decided differently with explanations`);
bout.forEach((r, i) => {
  if (r.business_id !== bplain[i]!.business_id)
    console.log('!!', JSON.stringify(bset[i]!.input), bplain[i]!.business_id, r.business_id);
});
console.log(
  qualityTable(
    'businesses',
    quality(
      bset,
      bplain.map((r) => r.business_id),
    ),
  ),
);
const drawn = quality(
  drawnLabels(bset),
  bplain.map((r) => r.business_id),
).at(-1)!;
console.log(
  `businesses, labels as drawn: P ${drawn.precision.toFixed(4)} R ${drawn.recall.toFixed(4)} F1 ${drawn.f1.toFixed(4)}`,
);
const pset = prospectEvalSet(snapshot, Number(per));
// EVAL_DUMP=file writes the labelled rows, to run another build of the matcher on the same rows.
if (process.env.EVAL_DUMP) writeFileSync(process.env.EVAL_DUMP, JSON.stringify({ bset, pset }));
const pout = matchProspectRows(
  engine,
  pset.map((r) => r.input),
  { explain: true, alternatives: 2 },
);
console.log(
  qualityTable(
    'prospects',
    quality(
      pset,
      pout.map((r) => r.prospect_id),
    ),
  ),
);
if (show !== '0') {
  const names = new Map(snapshot.businesses.map((b) => [b.business_id, b.name]));
  const pn = new Map(
    snapshot.prospects.map((p) => [
      p.prospect_id,
      `${p.full_name} @ ${p.business_id ? names.get(p.business_id) : '-'}`,
    ]),
  );
  bset.forEach((r, i) => {
    const got = bout[i]!;
    if (got.business_id !== r.truth && (show === 'all' || got.business_id !== null))
      console.log(
        'B',
        r.kind,
        JSON.stringify(r.input),
        'truth:',
        r.truth && names.get(r.truth),
        'got:',
        got.business_id && names.get(got.business_id),
        got.matched_on,
        JSON.stringify(got.alternatives?.map((a) => [names.get(a.id), a.score])),
      );
  });
  pset.forEach((r, i) => {
    const got = pout[i]!;
    if (got.prospect_id !== r.truth && (show === 'all' || got.prospect_id !== null))
      console.log(
        'P',
        r.kind,
        JSON.stringify(r.input),
        'truth:',
        r.truth && pn.get(r.truth),
        'got:',
        got.prospect_id && pn.get(got.prospect_id),
        got.matched_on,
      );
  });
}
engine.close();
