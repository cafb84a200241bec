/**
 * In-memory match index over the businesses table, built once per data version and saved in the file
 * (`indexes/persist.ts`): exact keys (business id, registrable domain, host, profile slug, exact name,
 * name key) →
 * dense positions, plus the columns the matcher reads per candidate. Typed arrays throughout (string
 * columns as {@link StringList}s, dictionaries as hash tables), so a later process opens it without
 * decoding an entry. The token index for fuzzy names and the initials index are separate saved kinds.
 */
import type { Context } from '../../runtime/context.js';
import { companyFullKey, companyMatchName } from '../../normalise/index.js';
import { KeyIndex, KeyIndexBuilder } from '../hash/index.js';
import { Ids } from '../format/tables.js';
import { StringList, type NullableStringColumn, type StringColumn } from '../format/strings.js';
import { savedIndex, type SavedForm } from '../persist.js';
import { SCAN_SQL } from '../../store/sql/scans.js';
import { buildTokenIndex, TOKEN_INDEX_FORM, type TokenIndex } from './token-index.js';

export interface BusinessMatchIndex {
  readonly size: number;
  /** Business ids by position; `byId` is the same table read the other way. */
  readonly ids: StringColumn;
  readonly names: StringColumn;
  /** Match keys of the names (`companyMatchName`: legal forms, locations and notes read off). */
  readonly nameKeys: StringColumn;
  /** The legal-form classes each name is written with ('' when none). */
  readonly forms: StringColumn;
  readonly domains: NullableStringColumn;
  readonly linkedin: NullableStringColumn;
  readonly countries: NullableStringColumn;
  /** SQLite rowid → position (-1 when absent). */
  readonly positionOfRowid: Int32Array;
  readonly byId: Ids;
  readonly byDomain: KeyIndex;
  readonly byHost: KeyIndex;
  readonly byLinkedin: KeyIndex;
  /** Names as written, folded, nothing read off (`companyFullKey`): consulted before the name key. */
  readonly byFullName: KeyIndex;
  readonly byNameKey: KeyIndex;
}

type Row = [
  rowid: number,
  id: string,
  name: string,
  domain: string | null,
  host: string | null,
  slug: string | null,
  country: string | null,
];

function build(engine: Context): BusinessMatchIndex {
  const db = engine.db;
  const maxRowid = (db.prepare(SCAN_SQL.maxBusinessRowid).get() as { m: number }).m;
  const positionOfRowid = new Int32Array(maxRowid + 1).fill(-1);
  const ids: string[] = [];
  const names: string[] = [];
  const nameKeys: string[] = [];
  const forms: string[] = [];
  const domains: (string | null)[] = [];
  const linkedin: (string | null)[] = [];
  const countries: (string | null)[] = [];
  const byDomain = new KeyIndexBuilder(maxRowid);
  const byHost = new KeyIndexBuilder();
  const byLinkedin = new KeyIndexBuilder(maxRowid);
  const byFullName = new KeyIndexBuilder(maxRowid);
  const byNameKey = new KeyIndexBuilder(maxRowid);
  const rows = db.prepare(SCAN_SQL.matchBusinesses).raw().iterate() as IterableIterator<Row>;
  for (const [rowid, id, name, domain, host, slug, country] of rows) {
    // A leading legal form is read only where the business's country uses it ("AB Volvo" in Sweden).
    const m = companyMatchName(name, country === null ? null : country.toLowerCase());
    const key = m.key;
    forms.push(m.form);
    const pos = ids.length;
    positionOfRowid[rowid] = pos;
    ids.push(id);
    names.push(name);
    nameKeys.push(key);
    domains.push(domain);
    linkedin.push(slug);
    countries.push(country);
    if (domain) byDomain.add(domain, pos);
    if (host && host !== domain) byHost.add(host, pos);
    if (slug) byLinkedin.add(slug, pos);
    if (key) byNameKey.add(key, pos);
    const full = companyFullKey(name);
    if (full) byFullName.add(full, pos);
  }
  // Business ids are the table's primary key: distinct, so position = id in the table.
  const byId = Ids.of(ids);
  return {
    size: ids.length,
    ids: byId,
    names: StringList.of(names),
    nameKeys: StringList.of(nameKeys),
    forms: StringList.of(forms),
    domains: StringList.of(domains),
    linkedin: StringList.of(linkedin),
    countries: StringList.of(countries),
    positionOfRowid,
    byId,
    byDomain: byDomain.finish(),
    byHost: byHost.finish(),
    byLinkedin: byLinkedin.finish(),
    byFullName: byFullName.finish(),
    byNameKey: byNameKey.finish(),
  };
}

const isList = (v: unknown) => v instanceof StringList;
const isKeys = (v: unknown) => v instanceof KeyIndex;

/**
 * Saved without `byId`, which is `ids` read the other way; the columns and key tables are read on first
 * use (a name match never reads the domain tables, an exact-key match never the names).
 */
export const BUSINESS_MATCH_FORM: SavedForm<BusinessMatchIndex> = {
  save: ({ byId: _, ...rest }) => rest,
  open: (tree) => {
    const t = tree as Omit<BusinessMatchIndex, 'byId'>;
    if (typeof t.size !== 'number' || !(t.positionOfRowid instanceof Int32Array))
      throw new Error('match.businesses: saved form of another shape');
    return Object.defineProperty(t, 'byId', { get: () => t.ids, enumerable: true }) as BusinessMatchIndex;
  },
  lazy: {
    ids: (v) => v instanceof Ids,
    names: isList,
    nameKeys: isList,
    forms: isList,
    domains: isList,
    linkedin: isList,
    countries: isList,
    byDomain: isKeys,
    byHost: isKeys,
    byLinkedin: isKeys,
    byFullName: isKeys,
    byNameKey: isKeys,
  },
};

/** The business match index of `engine`'s current data. */
export function businessMatchIndex(engine: Context): BusinessMatchIndex {
  return engine.indexes.get(BUSINESS_MATCH);
}

const BUSINESS_MATCH = savedIndex('match.businesses', build, BUSINESS_MATCH_FORM);
const BUSINESS_NAMES = savedIndex(
  'match.businesses.tokens',
  (e) => {
    const index = businessMatchIndex(e);
    return buildTokenIndex(index.size, (i) => splitKey(index.nameKeys.at(i) as string));
  },
  TOKEN_INDEX_FORM,
);

/** The token index over business name keys (positions as in {@link businessMatchIndex}). */
export function businessNameIndex(engine: Context): TokenIndex {
  return engine.indexes.get(BUSINESS_NAMES);
}

/** A name key's tokens. */
export function splitKey(key: string): string[] {
  return key.length === 0 ? [] : key.split(' ');
}

/** The initials of a name key's words (stop words aside), when it has 2–6 of them; '' otherwise. */
export function keyInitials(tokens: readonly string[]): string {
  let out = '';
  for (const t of tokens) if (t !== 'and' && t !== 'of' && t !== 'the') out += t[0];
  return out.length >= 2 && out.length <= 6 ? out : '';
}

/**
 * Names by the initials of their words ("international business machines" under `ibm`), built on the
 * first query that may be an acronym of a name.
 */
export function businessInitialsIndex(engine: Context): KeyIndex {
  return engine.indexes.get(BUSINESS_INITIALS);
}

const BUSINESS_INITIALS = savedIndex('match.businesses.initials', (e) => {
  const index = businessMatchIndex(e);
  const out = new KeyIndexBuilder();
  for (let i = 0; i < index.size; i++) {
    const tokens = splitKey(index.nameKeys.at(i) as string);
    if (tokens.length < 2) continue;
    const initials = keyInitials(tokens);
    if (initials !== '') out.add(initials, i);
  }
  return out.finish();
});
