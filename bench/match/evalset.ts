/**
 * Labelled evaluation sets: records drawn from a snapshot, perturbed by kind, with the expected id
 * (null for the rows drawn from entities held out of the database).
 */
import type { BusinessRowInput, ProspectRowInput } from '../../src/core/match/index.js';
import { Prng } from '../../tools/rng.js';
import { BUSINESS_KINDS, businessRow, PROSPECT_KINDS, prospectRow } from '../../tools/bench/eval-rows.js';
import type { HeldOutSnapshot } from './snapshot.js';
import { formOutsideCountry, formsConflict } from '../../src/core/match/legal-form.js';
import type { BusinessMatchIndex } from '../../src/indexes/match/businesses.js';
import type { StringColumn } from '../../src/indexes/format/strings.js';

/** The business match index with the ids of its positions (a `companyContext` is one). */
export interface Present {
  readonly index: BusinessMatchIndex;
  readonly ids: StringColumn;
}
import { companyFullKey, companyMatchKey, companyMatchName } from '../../src/normalise/index.js';

export { BUSINESS_KINDS, businessRow, PROSPECT_KINDS, prospectRow };

export interface EvalRow<Input> {
  kind: string;
  input: Input;
  /** Expected id; null when the entity is not in the database. */
  truth: string | null;
  /** Id of the record the row was drawn from. */
  source: string;
  /** The label as drawn: `source`, or null when the record was held out of the database. */
  original: string | null;
}

/**
 * `perKind` rows of each kind for entities in the database, plus rows for held-out entities
 * (`unseenShare` of the total, kind `unseen:<kind>`), shuffled deterministically.
 */
function build<Doc, Input>(
  rng: Prng,
  docs: readonly Doc[],
  isHeld: (d: Doc) => boolean,
  kinds: readonly string[],
  perKind: number,
  unseenShare: number,
  rowOf: (d: Doc, kind: string) => Input | null,
  idOf: (d: Doc) => string,
): EvalRow<Input>[] {
  const present = docs.filter((d) => !isHeld(d));
  const held = docs.filter(isHeld);
  const rows: EvalRow<Input>[] = [];
  for (const kind of kinds) {
    let made = 0;
    for (let tries = 0; made < perKind && tries < perKind * 50; tries++) {
      const d = rng.pick(present);
      const input = rowOf(d, kind);
      if (input === null) continue;
      rows.push({ kind, input, truth: idOf(d), source: idOf(d), original: idOf(d) });
      made++;
    }
  }
  const unseen = Math.round((rows.length * unseenShare) / (1 - unseenShare));
  for (let made = 0, tries = 0; made < unseen && held.length > 0 && tries < unseen * 50; tries++) {
    const kind = rng.pick(kinds);
    const d = rng.pick(held);
    const input = rowOf(d, kind);
    if (input === null) continue;
    rows.push({ kind: `unseen:${kind}`, input, truth: null, source: idOf(d), original: null });
    made++;
  }
  for (let i = rows.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [rows[i], rows[j]] = [rows[j] as EvalRow<Input>, rows[i] as EvalRow<Input>];
  }
  return rows;
}

/**
 * `perKind` rows of each business kind plus 10% rows for held-out businesses. With the database's match
 * index, held-out rows that no matcher could tell from a business in the database are relabelled
 * ({@link labelByAttributes}).
 */
export function businessEvalSet(
  snapshot: HeldOutSnapshot,
  perKind: number,
  seed = 1,
  present?: Present,
): EvalRow<BusinessRowInput>[] {
  const rng = new Prng(seed);
  const rows = build(
    rng,
    snapshot.businesses,
    (b) => snapshot.heldBusinesses.has(b.business_id),
    BUSINESS_KINDS,
    perKind,
    0.1,
    (b, kind) => businessRow(rng, b, kind),
    (b) => b.business_id,
  );
  return present === undefined ? rows : labelByAttributes(rows, snapshot, present);
}

/** The canonical legal form a name is written with ('' when none). */
function formOf(name: string): string {
  return companyMatchName(name).form;
}

/** Whether a name written with `form` can name business `pos` (forms do not conflict; country fits). */
function formFits(form: string, present: BusinessMatchIndex, pos: number): boolean {
  const other = formOf(present.names.at(pos) as string);
  return !formsConflict(form, other) && !formOutsideCountry(form, present.countries.at(pos) ?? null);
}

/**
 * Businesses in the database that a name written this way can name: the same normalised name, and a
 * legal form that does not contradict the one written; a name written with a form names those recorded
 * with that same form when there are any (they agree on one more attribute than those recorded without
 * one, whose form is unknown).
 */
function sameName(name: string | undefined, present: BusinessMatchIndex): number[] {
  if (name === undefined) return [];
  const key = companyMatchKey(name);
  if (key.length === 0) return [];
  const form = formOf(name);
  const fits = present.byNameKey.get(key).filter((pos) => formFits(form, present, pos));
  if (form.length === 0) return fits;
  const same = fits.filter((pos) => formOf(present.names.at(pos) as string) === form);
  return same.length > 0 ? same : fits;
}

/**
 * Rows that give only a name, labelled by what the name can tell apart (applied to every such row by
 * the same rule, whatever any matcher answers). Such a row is indistinguishable in principle from every
 * business in the database the name can name ({@link sameName}: same normalised name, no contradicting
 * legal form): the same row could have been drawn from any of them. When the row's name equals none (a typo, another
 * word order), the same test runs on the name of the record the row was drawn from. A business whose
 * name is written exactly as the row's (folded) is the only one the name can name, as in the matcher
 * (several so written: all of them). Then:
 * - exactly one such business: its id is the only answer a matcher can give from these attributes. When
 *   that is not the record drawn (a held-out record with a namesake abroad, say), the row is
 *   relabelled with it, kind `namesake:<kind>`;
 * - several: no matcher can tell which one the row means, so abstaining is the only right answer; the
 *   label becomes null, kind `ambiguous:<kind>` (for rows drawn from the database as for held-out ones).
 * Rows with a domain, URL or profile keep their label: those keys are unique, so they tell entities
 * apart. `original` keeps the label as drawn (see {@link drawnLabels}).
 */
export function labelByAttributes(
  rows: readonly EvalRow<BusinessRowInput>[],
  snapshot: HeldOutSnapshot,
  { index: present, ids }: Present,
): EvalRow<BusinessRowInput>[] {
  const names = new Map(snapshot.businesses.map((b) => [b.business_id, b.name]));
  return rows.map((row) => {
    const { input } = row;
    if (typeof input.name !== 'string' || input.domain || input.url || input.linkedin_url) return row;
    // A business written exactly so is what the name names, whatever its namesakes (the matcher's rule).
    const exact = present.byFullName.get(companyFullKey(input.name));
    let found = exact.length > 0 ? exact : sameName(input.name, present);
    if (found.length === 0) found = sameName(names.get(row.source), present);
    const kind = row.kind.replace(/^unseen:/, '');
    if (found.length > 1) return { ...row, kind: `ambiguous:${kind}`, truth: null };
    const only = found.length === 1 ? (ids.at(found[0] as number) as string) : null;
    if (only === null || only === row.truth) return row;
    return { ...row, kind: `namesake:${kind}`, truth: only };
  });
}

/** The rows with the labels as drawn: the record's id, or null for a held-out record. */
export function drawnLabels<Input>(rows: readonly EvalRow<Input>[]): EvalRow<Input>[] {
  return rows.map((row) => ({
    ...row,
    kind: (row.original === null ? 'unseen:' : '') + row.kind.replace(/^(unseen|ambiguous|namesake):/, ''),
    truth: row.original,
  }));
}

export function prospectEvalSet(
  snapshot: HeldOutSnapshot,
  perKind: number,
  seed = 2,
): EvalRow<ProspectRowInput>[] {
  const rng = new Prng(seed);
  const byId = new Map(snapshot.businesses.map((b) => [b.business_id, b]));
  return build(
    rng,
    snapshot.prospects,
    (p) => snapshot.heldProspects.has(p.prospect_id),
    PROSPECT_KINDS,
    perKind,
    0.1,
    (p, kind) => prospectRow(rng, p, p.business_id ? byId.get(p.business_id) : undefined, kind),
    (p) => p.prospect_id,
  );
}
