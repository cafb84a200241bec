/**
 * The prospects' exact match keys (e-mail, phone, profile slug) as a load streams them, handed to the
 * prospect match index build (`indexes/match/prospects.ts`) instead of being written to a table: the
 * saved match index is where they are kept. A build in a process that did not load the data (or after
 * the hand-off was taken) derives them from the stored records instead (`prospectKeysOfRecords`).
 */
import { decodeDoc, fileCodec } from './codec.js';
import { prospectKeys } from './derive.js';
import { handOff } from './hand-off.js';
import type { Db } from './open.js';
import { LOAD_SQL } from './sql/load.js';

/** Key kinds, in the order their code is stored. */
export const KEY_KINDS = ['email', 'phone', 'linkedin'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** Keys in load order: `kinds[i]` (an index into `KEY_KINDS`), `keys[i]`, the prospect's `rows[i]`. */
export interface ProspectKeys {
  kinds: number[];
  keys: string[];
  rows: number[];
}

export const emptyKeys = (): ProspectKeys => ({ kinds: [], keys: [], rows: [] });

/** Adds a row's keys, given as `[kind, key, kind, key, …]` (what `load-worker.ts` prepares). */
export function addKeys(into: ProspectKeys, flat: readonly string[], row: number): void {
  for (let i = 0; i < flat.length; i += 2) {
    into.kinds.push(KEY_KINDS.indexOf(flat[i] as KeyKind));
    into.keys.push(flat[i + 1] as string);
    into.rows.push(row);
  }
}

/**
 * The keys after a delta, left for the build that takes them to work out (the prospect match index
 * build, on whichever thread runs it; see `carryKeys`): those of the base's saved match index, saved
 * under `baseStamp`, for the rows the delta left alone, and `added`'s for the rows it wrote (`gone`:
 * the rows it replaced or deleted). At 1M prospects, listing the base's keys on the thread applying
 * the delta took 5.9 s before it changed a row, and copying them to the index worker 2 s more.
 */
export interface KeyCarry {
  baseStamp: string;
  gone: ReadonlySet<number>;
  added: ProspectKeys;
  /** Rows whose company columns the delta derived again (their employer may have changed). */
  refreshed: ReadonlySet<number>;
  /** Business rowids the delta wrote or deleted (the business match index reads only those again). */
  businesses: ReadonlySet<number>;
}

/** What a load or a delta hands the next prospect match index build. */
export type HandedKeys = ProspectKeys | KeyCarry;

export const isKeyCarry = (keys: HandedKeys): keys is KeyCarry => 'baseStamp' in keys;

const keysHandOff = handOff<HandedKeys>();

/**
 * Called by the load (or the delta) once the prospects it wrote are committed (`hash` is their
 * `hash_prospects`).
 */
export const handOffProspectKeys: (db: Db, hash: string, keys: HandedKeys) => void = keysHandOff.give;

/**
 * The keys the load or delta of this process handed off for the prospects now in `db` (and forgets
 * them), or `undefined` when the stored prospects are not the ones it wrote.
 */
export const takeProspectKeys: (db: Db, hash: string | undefined) => HandedKeys | undefined =
  keysHandOff.take;

/** The keys of every stored prospect, derived from its stored record as the load derived them. */
export function prospectKeysOfRecords(db: Db): ProspectKeys {
  const out = emptyKeys();
  const codec = fileCodec(db);
  const rows = db.prepare(LOAD_SQL.prospectKeySources).raw().iterate() as IterableIterator<
    [number, string | null, Buffer, Buffer]
  >;
  for (const [rowid, slug, wire, rest] of rows) {
    const flat: string[] = [];
    for (const [kind, key] of prospectKeys(decodeDoc('prospects', wire, rest, codec), slug))
      flat.push(kind, key);
    addKeys(out, flat, rowid);
  }
  return out;
}

/**
 * The keys after a delta, as {@link prospectKeysOfRecords} would derive them from every stored record,
 * without reading one: `base`'s (those of the snapshot before, e.g. from its saved match index) for
 * every row the delta left alone, and `added`'s for the rows it wrote (`gone`: every row it replaced
 * or deleted), in rowid order (a counting sort: a row's keys keep their order).
 */
export function carryKeys(base: ProspectKeys, gone: ReadonlySet<number>, added: ProspectKeys): ProspectKeys {
  let max = 0;
  for (const r of base.rows) if (r > max) max = r;
  for (const r of added.rows) if (r > max) max = r;
  const start = new Uint32Array(max + 2);
  const keep = (r: number) => !gone.has(r);
  for (const r of base.rows) if (keep(r)) start[r + 1]!++;
  for (const r of added.rows) start[r + 1]!++;
  for (let r = 1; r < start.length; r++) start[r]! += start[r - 1]!;
  const n = start[max + 1]!;
  const out: ProspectKeys = { kinds: new Array(n), keys: new Array(n), rows: new Array(n) };
  const place = (from: ProspectKeys, i: number) => {
    const r = from.rows[i]!;
    const at = start[r]!++;
    out.kinds[at] = from.kinds[i]!;
    out.keys[at] = from.keys[i]!;
    out.rows[at] = r;
  };
  for (let i = 0; i < base.rows.length; i++) if (keep(base.rows[i]!)) place(base, i);
  for (let i = 0; i < added.rows.length; i++) place(added, i);
  return out;
}
