/**
 * In-memory match index over the businesses table, built once per data version through
 * `engine.cached`: exact keys (business id, registrable domain, host, profile slug, name key) → dense
 * positions, plus the columns the matcher reads per candidate. The token index for fuzzy names is a
 * separate cache entry, built on the first fuzzy query.
 */
import { kind, type Context } from '../../runtime/context.js';
import { companyMatchName } from '../../normalise/index.js';
import { KeyIndexBuilder, type KeyIndex } from './key-index.js';
import { StringKeyTableBuilder, type StringKeyTable } from '../hash/string-key-table.js';
import { SCAN_SQL } from '../../store/sql/scans.js';
import { buildTokenIndex, type TokenIndex } from './token-index.js';

export interface BusinessMatchIndex {
  readonly size: number;
  readonly ids: readonly string[];
  readonly names: readonly string[];
  /** Match keys of the names (`companyMatchName`: legal forms, locations and notes read off). */
  readonly nameKeys: readonly string[];
  /** The legal-form classes each name is written with ('' when none). */
  readonly forms: readonly string[];
  readonly domains: readonly (string | null)[];
  readonly linkedin: readonly (string | null)[];
  readonly countries: readonly (string | null)[];
  /** SQLite rowid → position (-1 when absent). */
  readonly positionOfRowid: Int32Array;
  /** Business id → position (ids are unique, so the table's ids are the positions). */
  readonly byId: StringKeyTable;
  readonly byDomain: KeyIndex;
  readonly byHost: KeyIndex;
  readonly byLinkedin: KeyIndex;
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
  const byId = new StringKeyTableBuilder(maxRowid);
  const byDomain = new KeyIndexBuilder(maxRowid);
  const byHost = new KeyIndexBuilder();
  const byLinkedin = new KeyIndexBuilder(maxRowid);
  const byNameKey = new KeyIndexBuilder(maxRowid);
  const rows = db.prepare(SCAN_SQL.matchBusinesses).raw().iterate() as IterableIterator<Row>;
  for (const [rowid, id, name, domain, host, slug, country] of rows) {
    const m = companyMatchName(name);
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
    if (byId.add(id) !== pos) throw new Error(`business id ${id} is not unique`);
    if (domain) byDomain.add(domain, pos);
    if (host && host !== domain) byHost.add(host, pos);
    if (slug) byLinkedin.add(slug, pos);
    if (key) byNameKey.add(key, pos);
  }
  return {
    size: ids.length,
    ids,
    names,
    nameKeys,
    forms,
    domains,
    linkedin,
    countries,
    positionOfRowid,
    byId: byId.finish(),
    byDomain: byDomain.finish(),
    byHost: byHost.finish(),
    byLinkedin: byLinkedin.finish(),
    byNameKey: byNameKey.finish(),
  };
}

/** The business match index of `engine`'s current data. */
export function businessMatchIndex(engine: Context): BusinessMatchIndex {
  return engine.indexes.get(BUSINESS_MATCH);
}

const BUSINESS_MATCH = kind('match.businesses', build);
const BUSINESS_NAMES = kind('match.businesses.tokens', (e) => {
  const index = businessMatchIndex(e);
  return buildTokenIndex(index.size, (i) => splitKey(index.nameKeys[i] as string));
});

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

const BUSINESS_INITIALS = kind('match.businesses.initials', (e) => {
  const index = businessMatchIndex(e);
  const out = new KeyIndexBuilder();
  for (let i = 0; i < index.size; i++) {
    const tokens = splitKey(index.nameKeys[i] as string);
    if (tokens.length < 2) continue;
    const initials = keyInitials(tokens);
    if (initials !== '') out.add(initials, i);
  }
  return out.finish();
});
