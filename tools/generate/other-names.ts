/**
 * A business's other names (`other_names`), as GLEIF's LEI records list them (OtherEntityNames): a
 * former legal name (a renamed company), a trading name (a brand the company sells under) and a short
 * name (the first word of a longer name). Drawn from a stream of their own, so the rest of a record
 * is the same with or without them. About one business in ten has some; large ones more often.
 */
import { BRAND_HEADS, BRAND_TAILS } from './data/companies.js';
import type { BusinessCore } from './business-core.js';
import { coreName, legalName } from './naming.js';
import { Rng, STREAM } from '../rng.js';

export interface OtherName {
  name: string;
  type: 'previous_legal_name' | 'trading_name' | 'short_name';
}

/** Legal-form words a short name must not be (they name no company on their own). */
const NOT_SHORT = new Set(['the', 'and']);

/** The other names of business `core` (empty for most). */
export function otherNames(seed: number, core: BusinessCore): OtherName[] {
  const rng = new Rng(seed, STREAM.otherNames, core.index);
  const large = core.sizeIndex >= 4;
  const out: OtherName[] = [];
  if (rng.chance(large ? 0.14 : 0.06)) {
    const former = legalName(rng, coreName(rng, core.country, core.industry, core.city), core.country, large);
    if (former !== core.name) out.push({ name: former, type: 'previous_legal_name' });
  }
  if (rng.chance(large ? 0.08 : 0.02)) {
    out.push({ name: `${rng.pick(BRAND_HEADS)}${rng.pick(BRAND_TAILS)}`, type: 'trading_name' });
  }
  const words = core.name.split(/[\s,]+/).filter(Boolean);
  const first = words[0] ?? '';
  if (
    words.length >= 3 &&
    first.length >= 6 &&
    /^[A-Z][a-z]+$/.test(first) &&
    !NOT_SHORT.has(first.toLowerCase()) &&
    rng.chance(large ? 0.12 : 0.02)
  ) {
    out.push({ name: first, type: 'short_name' });
  }
  return out;
}
