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
import { KeyIndexBuilder, type KeyLookup } from '../hash/index.js';
import { CodedStrings, StringList, type NullableStringColumn, type StringColumn } from '../format/strings.js';
import { splitForm } from '../parted-form.js';
import { savedIndex, savedOnly, type SavedForm } from '../persist.js';
import type { Db } from '../../store/db.js';
import { DELTA_CHANGES } from '../../store/delta-changes.js';
import { getMeta } from '../../store/open.js';
import { SCAN_SQL } from '../../store/sql/scans.js';
import { preparedOnce } from '../../store/statements.js';
import { tableIds } from './table-ids.js';
import { buildTokenIndex, TOKEN_INDEX_FORM, type TokenIndex } from './token-index.js';

export interface BusinessMatchIndex {
  readonly size: number;
  /**
   * The table rowid of each position when the rowids are not simply `position + 1`; empty when they
   * are (a fresh load). Ids are not held here: the few an answer returns are read from the table
   * ({@link businessIds}), which keeps them with their primary key.
   */
  readonly rowids: Int32Array;
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
  readonly byDomain: KeyLookup;
  readonly byHost: KeyLookup;
  readonly byLinkedin: KeyLookup;
  /** Names as written, folded, nothing read off (`companyFullKey`): consulted before the name key. */
  readonly byFullName: KeyLookup;
  readonly byNameKey: KeyLookup;
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
  const rowids: number[] = [];
  let dense = true;
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
  const carried = carriedNameKeys(engine);
  const rows = db.prepare(SCAN_SQL.matchBusinesses).raw().iterate() as IterableIterator<Row>;
  for (const [rowid, name, domain, host, slug, country] of rows) {
    // A leading legal form is read only where the business's country uses it ("AB Volvo" in Sweden).
    const m = carried?.(rowid) ?? companyMatchName(name, country === null ? null : country.toLowerCase());
    const key = m.key;
    forms.push(m.form);
    const pos = rowids.length;
    positionOfRowid[rowid] = pos;
    rowids.push(rowid);
    if (rowid !== pos + 1) dense = false;
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
  return {
    size: rowids.length,
    rowids: dense ? new Int32Array(0) : Int32Array.from(rowids),
    names: StringList.of(names),
    nameKeys: StringList.of(nameKeys),
    forms: CodedStrings.of(forms),
    domains: StringList.of(domains),
    linkedin: StringList.of(linkedin),
    countries: CodedStrings.of(countries),
    positionOfRowid,
    byDomain: byDomain.finish(),
    byHost: byHost.finish(),
    byLinkedin: byLinkedin.finish(),
    byFullName: byFullName.finish(),
    byNameKey: byNameKey.finish(),
  };
}

/**
 * After a delta of this process (`DELTA_CHANGES.businessMatch`), the name key and legal forms of each
 * business it left alone, from the base's saved index: a lookup by rowid, asked in ascending rowid
 * order, `undefined` for a business the delta wrote (its name is read again). `companyMatchName` is a
 * pure function of the name and country, so a business left alone keeps both; it was a third of this
 * build at 100k businesses. `undefined` when no delta left its changes, or the base's index is gone.
 */
function carriedNameKeys(
  engine: Context,
): ((rowid: number) => { key: string; form: string } | undefined) | undefined {
  const changes = DELTA_CHANGES.businessMatch.take(engine.db, getMeta(engine.db, 'hash_businesses'));
  if (!changes) return undefined;
  let base: BusinessMatchIndex | undefined;
  try {
    base = savedOnly(engine, 'match.businesses', BUSINESS_MATCH_FORM, changes.baseStamp);
  } catch {
    return undefined;
  }
  if (!base) return undefined;
  const { rowids, nameKeys, forms, size } = base;
  let pos = 0;
  return (rowid) => {
    if (changes.rows.has(rowid)) return undefined;
    if (rowids.length === 0) pos = rowid - 1;
    // Both scans step rowids upwards: the base's position only moves forward.
    else while (pos < size && (rowids[pos] as number) < rowid) pos++;
    if (pos >= size || (rowids.length > 0 && rowids[pos] !== rowid)) return undefined;
    return { key: nameKeys.at(pos) as string, form: forms.at(pos) as string };
  };
}

/**
 * Bytes a shard of the business key tables aims at: 16 KB, so a 50-row first match reads fifty small
 * shards (at 1M businesses each table is ~45 MB in 4,096 shards of ~12 KB).
 */
export const MATCH_SHARD_BYTES = 16 << 10;

const isList = (v: unknown) => v instanceof StringList;
const isCoded = (v: unknown) => v instanceof CodedStrings;

/**
 * Saved as built, the columns read on first use (a name match never reads the domain tables, an
 * exact-key match never the names) and the key tables in shards by key hash, each read on first use.
 * The name keys are in pages: a fuzzy search reads its candidates' words from the token index, and the
 * few keys it still needs (names repeating a word, namesakes) are a page each. The legal forms and
 * countries are coded (a byte per name), read whole by a first fuzzy search.
 */
export const BUSINESS_MATCH_FORM: SavedForm<BusinessMatchIndex> = splitForm(
  {
    save: (index) => index,
    open: (tree) => {
      const t = tree as BusinessMatchIndex;
      if (typeof t.size !== 'number') throw new Error('match.businesses: saved form of another shape');
      return t;
    },
    lazy: {
      // Read by the builds of the other indexes and by an id lookup, never by a match by name.
      positionOfRowid: (v) => v instanceof Int32Array,
      rowids: (v) => v instanceof Int32Array,
      names: isList,
      forms: isCoded,
      domains: isList,
      linkedin: isList,
      countries: isCoded,
    },
  },
  {
    keys: ['byDomain', 'byHost', 'byLinkedin', 'byFullName', 'byNameKey'],
    shardBytes: MATCH_SHARD_BYTES,
    columns: ['nameKeys'],
  },
);

const idStatement = preparedOnce((db: Db) => db.prepare(SCAN_SQL.businessId).pluck());
const rowidStatement = preparedOnce((db: Db) => db.prepare(SCAN_SQL.businessRowid).pluck());

/**
 * The business id at each position of `index`, read from the table when asked (`table-ids.ts`).
 */
export function businessIds(db: Db, index: BusinessMatchIndex): StringColumn {
  return tableIds(
    db,
    index.size,
    () => index.rowids,
    (d, rowid) => idStatement(d).get(rowid) as string | undefined,
  );
}

/** The position of the business with id `id` (as stored: lower-case hex) in `index`, -1 when none. */
export function businessPosition(db: Db, index: BusinessMatchIndex, id: string): number {
  const rowid = rowidStatement(db).get(id) as number | undefined;
  return rowid === undefined ? -1 : (index.positionOfRowid[rowid] ?? -1);
}

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
export function businessInitialsIndex(engine: Context): KeyLookup {
  return engine.indexes.get(BUSINESS_INITIALS).byInitials;
}

/**
 * Saved in shards by key hash (`hash/key-shards.ts`): a row that may be an acronym reads the shard of
 * its initials, not the table (5.7 MB at 1M businesses).
 */
const INITIALS_FORM: SavedForm<{ byInitials: KeyLookup }> = splitForm(
  {
    save: (index) => index,
    open: (tree) => tree as { byInitials: KeyLookup },
  },
  { keys: ['byInitials'], shardBytes: MATCH_SHARD_BYTES },
);

const BUSINESS_INITIALS = savedIndex(
  'match.businesses.initials',
  (e) => {
    const index = businessMatchIndex(e);
    const out = new KeyIndexBuilder();
    for (let i = 0; i < index.size; i++) {
      const tokens = splitKey(index.nameKeys.at(i) as string);
      if (tokens.length < 2) continue;
      const initials = keyInitials(tokens);
      if (initials !== '') out.add(initials, i);
    }
    return { byInitials: out.finish() };
  },
  INITIALS_FORM,
);
