/** Quick quality check while tuning: `node --import tsx bench/match/eval-quick.ts [businesses] [prospects] [perKind]`. */
import { matchBusinessRows, matchProspectRows } from '../../src/core/match/index.js';
import { evalData } from './data.js';
import { businessEvalSet, prospectEvalSet } from './evalset.js';
import { quality, qualityTable } from './quality.js';

const [nb = '2000', np = '10000', per = '300', show = '0'] = process.argv.slice(2);
const { snapshot, engine } = await evalData({ businesses: Number(nb), prospects: Number(np) });
const bset = businessEvalSet(snapshot, Number(per));
const bout = matchBusinessRows(
  engine,
  bset.map((r) => r.input),
  { explain: true, alternatives: 2 },
);
console.log(
  qualityTable(
    'businesses',
    quality(
      bset,
      bout.map((r) => r.business_id),
    ),
  ),
);
const pset = prospectEvalSet(snapshot, Number(per));
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
