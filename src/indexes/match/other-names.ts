/**
 * The businesses' other names (`other_names`: former legal names, trading, short and transliterated
 * names) as match keys of their own, saved in the file like the current names' (`indexes/persist.ts`).
 * An entry is one other name of one business: its owner (a position of the business match index), its
 * name as written, its match key and legal form (`companyMatchName`). No country: a former name may be
 * from another jurisdiction than the business's headquarters, so its legal form is not checked against
 * that country (only against the legal form a row is written with). A name
 * whose key and form are the owner's current ones adds nothing and is left out, as is a repeat of a
 * key and form the owner already has. The token index over the entries' keys is a saved kind apart,
 * as for the current names, so a fuzzy other-name search blocks and scores the way a current-name
 * search does (`core/match/other-names.ts`).
 */
import type { Context } from '../../runtime/context.js';
import { companyMatchName } from '../../normalise/index.js';
import { KeyIndexBuilder, type KeyLookup } from '../hash/index.js';
import { splitForm } from '../parted-form.js';
import { StringList, type StringColumn } from '../format/strings.js';
import { savedIndex, type SavedForm } from '../persist.js';
import { OTHER_NAMES_SCAN } from '../../store/sql/scans.js';
import { businessMatchIndex, MATCH_SHARD_BYTES, splitKey } from './businesses.js';
import { buildTokenIndex, TOKEN_INDEX_FORM, type TokenIndex } from './token-index.js';

export interface OtherNameIndex {
  /** Entries (other names kept), in business rowid order, then in the record's order. */
  readonly size: number;
  /** The business match index position of each entry's business. */
  readonly owner: Int32Array;
  /** The other names as written. */
  readonly names: StringColumn;
  readonly nameKeys: StringColumn;
  /** The legal-form classes each other name is written with ('' when none). */
  readonly forms: StringColumn;
  /** Other-name key → entries. */
  readonly byNameKey: KeyLookup;
}

/** The other names of a business as the `other_names` column holds them (a JSON array of strings). */
export function otherNamesOf(column: string | null): string[] {
  if (column === null) return [];
  const names = JSON.parse(column) as unknown;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

function build(engine: Context): OtherNameIndex {
  const index = businessMatchIndex(engine);
  const owner: number[] = [];
  const names: string[] = [];
  const nameKeys: string[] = [];
  const forms: string[] = [];
  const byNameKey = new KeyIndexBuilder();
  const rows = engine.db.prepare(OTHER_NAMES_SCAN).raw().iterate() as IterableIterator<[number, string]>;
  for (const [rowid, column] of rows) {
    const pos = index.positionOfRowid[rowid] ?? -1;
    if (pos < 0) continue;
    const seen = new Set([`${index.nameKeys.at(pos)}|${index.forms.at(pos)}`]);
    for (const name of otherNamesOf(column)) {
      const m = companyMatchName(name);
      if (m.key.length === 0 || seen.has(`${m.key}|${m.form}`)) continue;
      seen.add(`${m.key}|${m.form}`);
      const entry = owner.length;
      owner.push(pos);
      names.push(name);
      nameKeys.push(m.key);
      forms.push(m.form);
      byNameKey.add(m.key, entry);
    }
  }
  return {
    size: owner.length,
    owner: Int32Array.from(owner),
    names: StringList.of(names),
    nameKeys: StringList.of(nameKeys),
    forms: StringList.of(forms),
    byNameKey: byNameKey.finish(),
  };
}

const isList = (v: unknown) => v instanceof StringList;

/** Saved as built; the columns and the key table (in shards) are read on first use. */
export const OTHER_NAME_FORM: SavedForm<OtherNameIndex> = splitForm(
  {
    save: (index) => index,
    open: (tree) => {
      const t = tree as OtherNameIndex;
      if (typeof t.size !== 'number' || !(t.owner instanceof Int32Array))
        throw new Error('match.businesses.otherNames: saved form of another shape');
      return t;
    },
    lazy: {
      names: isList,
      nameKeys: isList,
      forms: isList,
    },
  },
  { keys: ['byNameKey'], shardBytes: MATCH_SHARD_BYTES },
);

const OTHER_NAMES = savedIndex('match.businesses.otherNames', build, OTHER_NAME_FORM);
const OTHER_NAME_TOKENS = savedIndex(
  'match.businesses.otherNames.tokens',
  (e) => {
    const index = otherNameIndex(e);
    return buildTokenIndex(index.size, (i) => splitKey(index.nameKeys.at(i) as string));
  },
  TOKEN_INDEX_FORM,
);

/** The other-name entries of `engine`'s current data. */
export function otherNameIndex(engine: Context): OtherNameIndex {
  return engine.indexes.get(OTHER_NAMES);
}

/** The token index over the other-name keys (positions are entries of {@link otherNameIndex}). */
export function otherNameTokens(engine: Context): TokenIndex {
  return engine.indexes.get(OTHER_NAME_TOKENS);
}
