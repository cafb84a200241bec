/**
 * The prospects' exact match keys (e-mail, phone, profile slug) as a load streams them, handed to the
 * prospect match index build (`indexes/match/prospects.ts`) instead of being written to a table: the
 * saved match index is where they are kept. A build in a process that did not load the data (or after
 * the hand-off was taken) derives them from the stored records instead (`prospectKeysOfRecords`).
 */
import { decodeDoc, fileCodec } from './codec.js';
import { prospectKeys } from './derive.js';
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

/** Hand-offs by database, each valid for the prospects whose file hashed to `hash`. */
const handed = new WeakMap<Db, { hash: string; keys: ProspectKeys }>();

/** Called by the load once the prospects it streamed are committed (`hash` is their `hash_prospects`). */
export function handOffProspectKeys(db: Db, hash: string, keys: ProspectKeys): void {
  handed.set(db, { hash, keys });
}

/**
 * The keys the load of this process handed off for the prospects now in `db` (and forgets them), or
 * `undefined` when the stored prospects are not the ones it loaded.
 */
export function takeProspectKeys(db: Db, hash: string | undefined): ProspectKeys | undefined {
  const h = handed.get(db);
  if (!h || h.hash !== hash) return undefined;
  handed.delete(db);
  return h.keys;
}

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
