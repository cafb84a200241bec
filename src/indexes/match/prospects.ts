/**
 * In-memory match index over the prospects table, built once per data version: exact keys (e-mail,
 * phone, profile slug from `match_keys`) → dense positions, each prospect's employer position, the
 * prospects of each business (CSR arrays) and the name keys the name scorer reads.
 */
import type { Engine } from '../../engine.js';
import { businessMatchIndex } from './businesses.js';
import { KeyIndex } from './key-index.js';

export interface ProspectMatchIndex {
  readonly size: number;
  readonly ids: readonly string[];
  /** `given last` keys (see `normalisePersonName`). */
  readonly nameKeys: readonly string[];
  /** Employer position in the business index, -1 when none. */
  readonly business: Int32Array;
  /** Prospects of business position `b`: `members[memberStart[b] .. memberStart[b + 1])`. */
  readonly memberStart: Int32Array;
  readonly members: Int32Array;
  readonly byId: ReadonlyMap<string, number>;
  readonly byEmail: KeyIndex;
  readonly byPhone: KeyIndex;
  readonly byLinkedin: KeyIndex;
}

function build(engine: Engine): ProspectMatchIndex {
  const db = engine.db;
  const companies = businessMatchIndex(engine);
  const maxRowid = (db.prepare('SELECT coalesce(max(rowid), 0) AS m FROM prospects').get() as { m: number })
    .m;
  const positionOfRowid = new Int32Array(maxRowid + 1).fill(-1);
  const ids: string[] = [];
  const nameKeys: string[] = [];
  const employer: number[] = [];
  const byId = new Map<string, number>();
  const rows = db
    .prepare('SELECT rowid, prospect_id, business_rowid, name_key FROM prospects ORDER BY rowid')
    .raw()
    .iterate() as IterableIterator<[number, string, number | null, string]>;
  for (const [rowid, id, businessRowid, key] of rows) {
    const pos = ids.length;
    positionOfRowid[rowid] = pos;
    ids.push(id);
    nameKeys.push(key);
    employer.push(businessRowid === null ? -1 : (companies.positionOfRowid[businessRowid] ?? -1));
    byId.set(id, pos);
  }
  const business = Int32Array.from(employer);

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

  const byEmail = new KeyIndex();
  const byPhone = new KeyIndex();
  const byLinkedin = new KeyIndex();
  const target: Record<string, KeyIndex> = { email: byEmail, phone: byPhone, linkedin: byLinkedin };
  const keys = db
    .prepare(`SELECT kind, key, row FROM match_keys WHERE entity = 'prospect'`)
    .raw()
    .iterate() as IterableIterator<[string, string, number]>;
  for (const [kind, key, row] of keys) {
    const pos = positionOfRowid[row] ?? -1;
    if (pos >= 0) target[kind]?.add(key, pos);
  }
  return {
    size: ids.length,
    ids,
    nameKeys,
    business,
    memberStart,
    members,
    byId,
    byEmail,
    byPhone,
    byLinkedin,
  };
}

/** The prospect match index of `engine`'s current data. */
export function prospectMatchIndex(engine: Engine): ProspectMatchIndex {
  return engine.cached('match.prospects', build);
}
