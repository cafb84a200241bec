/**
 * In-memory match index over the prospects table, built once per data version: exact keys (e-mail,
 * phone, profile slug: handed over by the load of this process, else derived from the stored records,
 * see `store/load-keys.ts`) → dense positions, each prospect's employer position, the
 * prospects of each business (CSR arrays), the name words the name scorer reads, and a name-word index
 * per company (word → the company's prospects with that word, plus one-deletion neighbours of each word
 * for typos) so a name is looked up among a 100,000-person company without reading every employee.
 * Typed arrays throughout, saved in the file (`indexes/persist.ts`) and reopened without decoding.
 * After a delta of this process, the base's saved index is patched for the rows the delta changed
 * (`prospect-match-patch.ts`) instead of every row being read again.
 */
import type { Context } from '../../runtime/context.js';
import { personTokens } from '../../normalise/index.js';
import { carryShards, KeyIndex, KeyIndexBuilder, KeyShards, type KeyLookup } from '../hash/index.js';
import { splitForm } from '../parted-form.js';
import { Ints, type IntColumn } from '../format/ints.js';
import { StringList, type StringColumn } from '../format/strings.js';
import { Ids, NearTable } from '../format/tables.js';
import { savedIndex, savedOnly, type SavedForm } from '../persist.js';
import { BUSINESS_MATCH_FORM, businessMatchIndex, type BusinessMatchIndex } from './businesses.js';
import { patchMatchRows, type MatchRows } from './prospect-match-patch.js';
import { tableIds } from './table-ids.js';
import type { Db } from '../../store/db.js';
import { SCAN_SQL } from '../../store/sql/scans.js';
import { preparedOnce } from '../../store/statements.js';
import {
  carryKeys,
  emptyKeys,
  isKeyCarry,
  KEY_KINDS,
  prospectKeysOfRecords,
  takeProspectKeys,
  type HandedKeys,
  type KeyCarry,
  type ProspectKeys,
} from '../../store/load-keys.js';
import { DELTA_CHANGES } from '../../store/delta-changes.js';
import { getMeta } from '../../store/open.js';

/** Words shorter than this are not given typo neighbours (their neighbours are most of the alphabet). */
export const MIN_FUZZY_WORD = 4;

/** Each string with one character left out (and itself), for symmetric-deletion typo lookup. */
export function deletions(word: string): string[] {
  const out = [word];
  for (let i = 0; i < word.length; i++) {
    const d = word.slice(0, i) + word.slice(i + 1);
    if (!out.includes(d)) out.push(d);
  }
  return out;
}

export interface ProspectMatchIndex {
  readonly size: number;
  /**
   * The table rowid of each position when the rowids are not simply `position + 1`; empty when they
   * are (a fresh load). Ids are not held here: the few an answer returns are read from the table
   * ({@link prospectIds}), which already keeps them with their UNIQUE index.
   */
  readonly rowids: Int32Array;
  /** Name words of each prospect joined by spaces (see `personTokens`). */
  readonly names: StringColumn;
  /** Name word → word id. */
  readonly wordId: Pick<ReadonlyMap<string, number>, 'get' | 'has'>;
  /** A word or a word with one character deleted → ids of the words it comes from (typo neighbours). */
  readonly wordNear: Pick<NearTable, 'get'>;
  /** Prospects with word `w`, grouped by employer then position: `wordPost[wordStart[w] .. wordStart[w + 1])`. */
  readonly wordStart: Int32Array;
  readonly wordPost: IntColumn;
  /** Employer position in the business index, -1 when none. */
  readonly business: IntColumn;
  /** Prospects of business position `b`: `members[memberStart[b] .. memberStart[b + 1])`. */
  readonly memberStart: Int32Array;
  readonly members: IntColumn;
  readonly byEmail: KeyLookup;
  readonly byPhone: KeyLookup;
  readonly byLinkedin: KeyLookup;
}

function build(engine: Context): ProspectMatchIndex {
  const db = engine.db;
  const handed = takeProspectKeys(db, getMeta(db, 'hash_prospects'));
  const carry = handed !== undefined && isKeyCarry(handed) ? handed : undefined;
  const base = carry && savedBase(engine, carry);
  // The rows the delta wrote or deleted, by rowid (a deleted one may lie past the last row now stored).
  const gone = carry && flags(carry.gone);
  // Read before the business match index of the data now is built (and saved over the base's).
  const baseCompanies = base && carry && savedBusinessRowids(engine, carry);
  const companies = companiesAfter(engine, carry);
  const rows =
    (base && carry && baseCompanies && patchedRows(engine, base, carry, baseCompanies, companies)) ??
    scannedRows(db, companies, base && gone && carriedNames(base, gone));
  const { rowids, business } = rows;
  const positionOfRowid = new Int32Array((rowids.length === 0 ? 0 : (rowids.at(-1) as number)) + 1).fill(-1);
  let dense = true;
  for (let pos = 0; pos < rowids.length; pos++) {
    positionOfRowid[rowids[pos] as number] = pos;
    if (rowids[pos] !== pos + 1) dense = false;
  }

  const memberStart = new Int32Array(companies.size + 1);
  for (const b of business) if (b >= 0) memberStart[b + 1] = (memberStart[b + 1] as number) + 1;
  for (let b = 0; b < companies.size; b++)
    memberStart[b + 1] = (memberStart[b + 1] as number) + (memberStart[b] as number);
  const fill = memberStart.slice(0, companies.size);
  const members = new Int32Array(memberStart[companies.size] as number);
  for (let p = 0; p < business.length; p++) {
    const b = business[p] as number;
    if (b < 0) continue;
    members[fill[b] as number] = p;
    fill[b] = (fill[b] as number) + 1;
  }
  const { wordStart, wordPost } = 'wordPost' in rows ? rows : wordPostings(rows, members);
  const wordNear = NearTable.builder();
  for (const [wid, w] of rows.words.entries()) {
    if (w.length < MIN_FUZZY_WORD) continue;
    for (const d of deletions(w)) wordNear.add(d, wid);
  }

  const [byEmail, byPhone, byLinkedin] =
    (base && carry && gone && carriedKeyTables(base, gone, carry.added, positionOfRowid)) ??
    keyTables((handed && keysHandedOver(engine, handed)) ?? prospectKeysOfRecords(db), positionOfRowid);
  return {
    size: rowids.length,
    rowids: dense ? new Int32Array(0) : rowids,
    names: StringList.of(rows.names),
    // Words are numbered as first seen: position = id.
    wordId: Ids.of(rows.words),
    wordNear: wordNear.finish(),
    wordStart,
    wordPost: new Ints(wordPost),
    business: new Ints(business),
    memberStart,
    members: new Ints(members),
    byEmail,
    byPhone,
    byLinkedin,
  };
}

/** The rows of every stored prospect, read in rowid order; their words counted, not yet posted. */
interface ScannedRows extends Omit<MatchRows, 'wordStart' | 'wordPost'> {
  wordId: Map<string, number>;
  /** Prospects with each word, by word id. */
  counts: number[];
}

/**
 * Every stored prospect's rowid, employer and name words (`baseNames`: after a delta, the words of the
 * rows it left alone, from the base's saved index).
 */
function scannedRows(
  db: Db,
  companies: BusinessMatchIndex,
  baseNames?: (rowid: number) => string | undefined,
): ScannedRows {
  const rowids: number[] = [];
  const employer: number[] = [];
  const names: string[] = [];
  const wordId = new Map<string, number>();
  const counts: number[] = [];
  const rows = db.prepare(SCAN_SQL.matchProspects).raw().iterate() as IterableIterator<
    [number, number | null, string]
  >;
  for (const [rowid, businessRowid, fullName] of rows) {
    rowids.push(rowid);
    const carried = baseNames?.(rowid);
    const words = carried === undefined ? personTokens(fullName) : carried === '' ? [] : carried.split(' ');
    names.push(carried ?? words.join(' '));
    for (let i = 0; i < words.length; i++) {
      const w = words[i] as string;
      if (words.indexOf(w) !== i) continue;
      let wid = wordId.get(w);
      if (wid === undefined) {
        wid = counts.length;
        wordId.set(w, wid);
        counts.push(0);
      }
      counts[wid] = (counts[wid] as number) + 1;
    }
    employer.push(businessRowid === null ? -1 : (companies.positionOfRowid[businessRowid] ?? -1));
  }
  return {
    rowids: Int32Array.from(rowids),
    names,
    business: Int32Array.from(employer),
    words: [...wordId.keys()],
    wordId,
    counts,
  };
}

/** Word postings (CSR), each word's prospects ordered by employer so a company's run is one range. */
function wordPostings(rows: ScannedRows, members: Int32Array): Pick<MatchRows, 'wordStart' | 'wordPost'> {
  const { counts, names, business, wordId } = rows;
  const wordStart = new Int32Array(counts.length + 1);
  for (let w = 0; w < counts.length; w++) wordStart[w + 1] = (wordStart[w] as number) + (counts[w] as number);
  const wordPost = new Int32Array(wordStart[counts.length] as number);
  const wordFill = wordStart.slice(0, counts.length);
  // Visiting prospects company by company (then unemployed ones) fills each word's run in that order.
  const visit = (p: number) => {
    const words = (names[p] as string).split(' ');
    for (let i = 0; i < words.length; i++) {
      const w = words[i] as string;
      if (w.length === 0 || words.indexOf(w) !== i) continue;
      const wid = wordId.get(w) as number;
      wordPost[wordFill[wid] as number] = p;
      wordFill[wid] = (wordFill[wid] as number) + 1;
    }
  };
  for (let m = 0; m < members.length; m++) visit(members[m] as number);
  for (let p = 0; p < business.length; p++) if ((business[p] as number) < 0) visit(p);
  return { wordStart, wordPost };
}

/**
 * The rows of the prospect match index after the delta `carry` describes, patched from the base's saved
 * index; `undefined` when they cannot be (the build then reads every row). What the build does first.
 */
export function patchedProspectMatchRows(engine: Context, carry: KeyCarry): MatchRows | undefined {
  const base = savedBase(engine, carry);
  const baseCompanies = base && savedBusinessRowids(engine, carry);
  return baseCompanies && patchedRows(engine, base, carry, baseCompanies, companiesAfter(engine, carry));
}

/**
 * The business match index of the data now. After a delta, its build carries the name keys of the
 * businesses the delta left alone: the delta left their rowids on its own thread's connection, and on
 * an index worker's they come with the key carry.
 */
function companiesAfter(engine: Context, carry: KeyCarry | undefined): BusinessMatchIndex {
  const hash = getMeta(engine.db, 'hash_businesses');
  if (carry && hash !== undefined)
    DELTA_CHANGES.businessMatch.give(engine.db, hash, { baseStamp: carry.baseStamp, rows: carry.businesses });
  return businessMatchIndex(engine);
}

/** The rowid of each business position in the base's saved business match index (empty: dense). */
function savedBusinessRowids(engine: Context, carry: KeyCarry): { rowids: Int32Array } | undefined {
  try {
    const saved = savedOnly(engine, 'match.businesses', BUSINESS_MATCH_FORM, carry.baseStamp);
    return saved && { rowids: saved.rowids.slice() };
  } catch {
    return undefined;
  }
}

/**
 * After a delta, the rows patched from the base's saved index (`prospect-match-patch.ts`): only the
 * rows it wrote, deleted or gave another employer are read. `undefined` when the base does not fit
 * (then every row is read).
 */
function patchedRows(
  engine: Context,
  base: ProspectMatchIndex,
  carry: KeyCarry,
  baseCompanies: { rowids: Int32Array },
  companies: BusinessMatchIndex,
): MatchRows | undefined {
  if (!(base.wordId instanceof Ids)) return undefined;
  const changed = Int32Array.from(new Set([...carry.gone, ...carry.refreshed])).sort();
  const row = matchRowStatement(engine.db);
  const { rowids } = baseCompanies;
  const businessAt = (rowid: number) => companies.positionOfRowid[rowid] ?? -1;
  try {
    return patchMatchRows(
      { ...base, words: base.wordId },
      {
        changed,
        written: (rowid) => carry.gone.has(rowid),
        row: (rowid) => row.get(rowid) as [number | null, string] | undefined,
        movedBusiness: (b) => businessAt(rowids.length === 0 ? b + 1 : (rowids[b] as number)),
        businessAt,
      },
    );
  } catch {
    return undefined;
  }
}

type KeyTables = [byEmail: KeyLookup, byPhone: KeyLookup, byLinkedin: KeyLookup];

/** The key tables of `keys` (their rows at `positionOfRowid`), one per kind of `KEY_KINDS`. */
function keyTables(keys: ProspectKeys, positionOfRowid: Int32Array): KeyTables {
  // Each kind's table sized for its keys and their characters up front (`StringKeyTableBuilder`).
  const pairs = KEY_KINDS.map(() => 0);
  const units = KEY_KINDS.map(() => 0);
  for (let i = 0; i < keys.keys.length; i++) {
    const k = keys.kinds[i] as number;
    pairs[k] = (pairs[k] as number) + 1;
    units[k] = (units[k] as number) + (keys.keys[i] as string).length;
  }
  const target = KEY_KINDS.map((_, k) => new KeyIndexBuilder(pairs[k], units[k]));
  for (let i = 0; i < keys.keys.length; i++) {
    const pos = positionOfRowid[keys.rows[i] as number] ?? -1;
    if (pos >= 0) target[keys.kinds[i] as number]?.add(keys.keys[i] as string, pos);
  }
  return target.map((b): KeyLookup => b.finish()) as KeyTables;
}

/**
 * After a delta, the key tables from the base's saved ones (`base`): the keys of the rows the delta
 * left alone moved to their new positions without making a string of any of them (each key's hash is
 * in its slot), then the keys of the rows it wrote. A key's positions ascend, as a build from every row
 * adds them. At 1M prospects, listing the base's 3M keys as strings, merging them with the delta's and
 * hashing them again took ~3.7 s of the build. `undefined` when a saved shard cannot be read.
 */
function carriedKeyTables(
  base: ProspectMatchIndex,
  gone: Uint8Array,
  added: ProspectKeys,
  positionOfRowid: Int32Array,
): KeyTables | undefined {
  const { rowids } = base;
  const moved = (p: number) => {
    const rowid = rowids.length === 0 ? p + 1 : (rowids[p] as number);
    return gone[rowid] === 1 ? -1 : (positionOfRowid[rowid] ?? -1);
  };
  const { kinds, keys, rows } = added;
  try {
    return [base.byEmail, base.byPhone, base.byLinkedin].map((lookup, k): KeyLookup => {
      const parts = lookup instanceof KeyShards ? lookup.parts() : lookup instanceof KeyIndex ? [lookup] : [];
      if (parts.length === 0) throw new Error('match.prospects: a key table of another shape');
      // The keys of this kind the delta wrote, at their rows' positions.
      const addedKeys: string[] = [];
      const addedPositions: number[] = [];
      for (let i = 0; i < keys.length; i++) {
        const pos = kinds[i] === k ? (positionOfRowid[rows[i] as number] ?? -1) : -1;
        if (pos < 0) continue;
        addedKeys.push(keys[i] as string);
        addedPositions.push(pos);
      }
      // A saved table is in shards: each is carried on its own, and saved again as it is.
      if (parts.length > 1) {
        const sharded = carryShards(parts, moved, addedKeys, addedPositions);
        if (sharded) return sharded;
      }
      let expectedKeys = 0;
      let expectedUnits = 0;
      for (const part of parts) {
        expectedKeys += part.size;
        expectedUnits += part.unitCount;
      }
      const target = new KeyIndexBuilder(expectedKeys, expectedUnits);
      for (const part of parts) part.carryInto(target, moved);
      for (let i = 0; i < addedKeys.length; i++) target.add(addedKeys[i]!, addedPositions[i]!);
      return target.finish(true);
    }) as KeyTables;
  } catch {
    return undefined; // the keys are then listed from the base's index, or derived from the records
  }
}

const isInts = (v: unknown) => v instanceof Int32Array;

/**
 * Saved as it is, the large fields read on first use: the key tables in shards by key hash (a name
 * match never reads them, a match by e-mail reads a shard per row); the names, the employers, the
 * people of each company and the word postings in pages by position (a name match reads the pages of
 * its companies' people and of a few binary searches); the typo table apart.
 */
export const PROSPECT_MATCH_FORM: SavedForm<ProspectMatchIndex> = splitForm(
  {
    save: (index) => index,
    open: (tree) => {
      const t = tree as ProspectMatchIndex;
      if (
        typeof t.size !== 'number' ||
        !(t.wordId instanceof Ids) ||
        !(t.memberStart instanceof Int32Array) ||
        !(t.wordStart instanceof Int32Array) ||
        t.wordStart.length !== t.wordId.length + 1
      )
        throw new Error('match.prospects: saved form of another shape');
      return t;
    },
    lazy: {
      rowids: isInts,
      wordNear: (v) => v instanceof NearTable,
    },
  },
  {
    keys: ['byEmail', 'byPhone', 'byLinkedin'],
    columns: ['names'],
    ints: ['business', 'wordPost', 'members'],
  },
);

/** The prospect match index of `engine`'s current data. */
export function prospectMatchIndex(engine: Context): ProspectMatchIndex {
  return engine.indexes.get(PROSPECT_MATCH);
}

const PROSPECT_MATCH = savedIndex('match.prospects', build, PROSPECT_MATCH_FORM);

const idStatement = preparedOnce((db: Db) => db.prepare(SCAN_SQL.prospectId).pluck());
const matchRowStatement = preparedOnce((db: Db) => db.prepare(SCAN_SQL.matchProspect).raw());

/** The prospect id at each position of `index`, read from the table when asked (`table-ids.ts`). */
export function prospectIds(db: Db, index: ProspectMatchIndex): StringColumn {
  return tableIds(
    db,
    index.size,
    () => index.rowids,
    (d, rowid) => idStatement(d).get(rowid) as string | undefined,
  );
}

/**
 * The exact keys (e-mail, phone, profile) the saved prospect match index of the engine's current data
 * (or of the data whose indexes were saved under `stamp`) holds, with the rowid of each prospect, in
 * the order of `KEY_KINDS`; `undefined` when the index is not saved, or is found damaged. A delta
 * carries them over instead of decoding every stored record.
 */
export function savedProspectKeys(engine: Context, stamp?: string): ProspectKeys | undefined {
  try {
    const index = savedOnly(engine, 'match.prospects', PROSPECT_MATCH_FORM, stamp);
    if (!index) return undefined;
    const { rowids } = index;
    const out = emptyKeys();
    const tables = { email: index.byEmail, phone: index.byPhone, linkedin: index.byLinkedin };
    KEY_KINDS.forEach((kind, k) => {
      for (const [key, positions] of tables[kind].entries()) {
        for (const pos of positions) {
          out.kinds.push(k);
          out.keys.push(key);
          out.rows.push(rowids.length === 0 ? pos + 1 : (rowids[pos] as number));
        }
      }
    });
    return out;
  } catch {
    return undefined; // derived from the records by the build, as without a saved index
  }
}

/**
 * The keys a load or a delta of this process handed off for the prospects now stored (taken: a second
 * call gives `undefined`), a delta's worked out here ({@link keysHandedOver}). `undefined` when none
 * were handed off, or the base's saved index is gone (the build then derives them from the records).
 */
export function handedProspectKeys(engine: Context): ProspectKeys | undefined {
  const handed = takeProspectKeys(engine.db, getMeta(engine.db, 'hash_prospects'));
  return handed && keysHandedOver(engine, handed);
}

/**
 * The keys of every stored prospect from what a load or a delta handed off: a load's as they are; a
 * delta's are the base's, read from its saved match index, for the rows it left alone, and those of
 * the rows it wrote. `undefined` when the base's saved index is gone.
 */
function keysHandedOver(engine: Context, handed: HandedKeys): ProspectKeys | undefined {
  if (!isKeyCarry(handed)) return handed;
  const base = savedProspectKeys(engine, handed.baseStamp);
  return base && carryKeys(base, handed.gone, handed.added);
}

/** A flag per rowid up to the largest of `rows`: 1 for each of `rows`. */
function flags(rows: ReadonlySet<number>): Uint8Array {
  let max = 0;
  for (const r of rows) if (r > max) max = r;
  const out = new Uint8Array(max + 1);
  for (const r of rows) out[r] = 1;
  return out;
}

/** The base's saved match index a delta's carry names (`undefined` when it is gone or unreadable). */
function savedBase(engine: Context, carry: KeyCarry): ProspectMatchIndex | undefined {
  try {
    return savedOnly(engine, 'match.prospects', PROSPECT_MATCH_FORM, carry.baseStamp);
  } catch {
    return undefined;
  }
}

/**
 * After a delta, the name words of each prospect it left alone, as the base's saved match index holds
 * them (a row's name is not read again: `personTokens` was a fifth of this build at 1M prospects): a
 * lookup by rowid, asked in ascending rowid order, `undefined` for a row the delta wrote.
 */
function carriedNames(base: ProspectMatchIndex, gone: Uint8Array): (rowid: number) => string | undefined {
  const { names, rowids, size } = base;
  let pos = 0;
  return (rowid) => {
    if (gone[rowid] === 1) return undefined;
    if (rowids.length === 0) return rowid - 1 < size ? names.at(rowid - 1) : undefined;
    // Both scans step rowids upwards: the base's position only moves forward.
    while (pos < size && (rowids[pos] as number) < rowid) pos++;
    return pos < size && rowids[pos] === rowid ? names.at(pos) : undefined;
  };
}
