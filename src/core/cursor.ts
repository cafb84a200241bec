/**
 * Opaque, authenticated cursors. A cursor is base64url(payload ‖ mac) where payload is the MessagePack
 * of `[v, entity, snapshotId, filterHash, after]` and mac the first 16 bytes of HMAC-SHA256 under a
 * per-database secret (created in `meta.cursor_secret` on first use). `after` is the last rowid
 * returned: the walk resumes at the next matching row, so any page costs the same as the first.
 * A tampered, foreign (other database or entity) or stale (other snapshot) cursor, or one reused with
 * other filters, mode or API version, decodes to `{ok: false, reason}`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Packr } from 'msgpackr/pack';
import { kind, type Context } from '../runtime/context.js';
import { getMeta, setMeta, type Db } from '../store/open.js';

export const CURSOR_VERSION = 1;
/** Longest token decoded (issued ones are about 80 characters). */
export const MAX_CURSOR_CHARS = 512;
const MAC_BYTES = 16;
const codec = new Packr({ useRecords: false, moreTypes: false });

export type CursorEntity = 'business' | 'prospect';

/** What a cursor is bound to: the entity and the hash of (version, mode, filters). */
export interface CursorScope {
  entity: CursorEntity;
  filterHash: string;
}

export type DecodedCursor = { ok: true; after: number } | { ok: false; reason: string };

/** Canonical JSON: keys sorted, null/undefined members and `type` discriminators dropped. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => v !== null && v !== undefined && k !== 'type')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The scope of a walk: same entity, version, mode, (normalised) filters and `max_per_company` ⇒ same
 * hash (an absent cap leaves the hash of older cursors unchanged).
 */
export function cursorScope(
  entity: CursorEntity,
  version: 1 | 2,
  mode: string,
  filters: unknown,
  maxPerCompany?: number | null,
): CursorScope {
  const filterHash = createHash('sha256')
    .update(canonical({ entity, version, mode, filters: filters ?? {}, max_per_company: maxPerCompany }))
    .digest('base64url')
    .slice(0, 22);
  return { entity, filterHash };
}

/**
 * Gives a writable snapshot file its cursor secret now (the engine's `load` calls it), so that every
 * process that opens the file read-only later (a swap, another worker) signs and checks with the same one.
 */
export function ensureCursorSecret(db: Db): void {
  if (!getMeta(db, 'cursor_secret')) setMeta(db, 'cursor_secret', randomBytes(32).toString('hex'));
}

// Read once per data version, beside the indexes.
const SECRET = kind('search.cursorSecret', (e) => {
  let hex = getMeta(e.db, 'cursor_secret');
  if (!hex) {
    hex = randomBytes(32).toString('hex');
    // A read-only database cannot keep it: the secret then lives as long as the snapshot is open.
    if (!e.settings.readonly && !e.db.readonly) setMeta(e.db, 'cursor_secret', hex);
  }
  return Buffer.from(hex, 'hex');
});
const SNAPSHOT_ID = kind('search.snapshotId', (e) => getMeta(e.db, 'snapshot_id') ?? '');

const secret = (engine: Context): Buffer => engine.indexes.get(SECRET);
const snapshotId = (engine: Context): string => engine.indexes.get(SNAPSHOT_ID);

function mac(engine: Context, payload: Buffer): Buffer {
  return createHmac('sha256', secret(engine)).update(payload).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(engine: Context, scope: CursorScope, after: number): string {
  const payload = codec.pack([CURSOR_VERSION, scope.entity, snapshotId(engine), scope.filterHash, after]);
  return Buffer.concat([payload, mac(engine, payload)]).toString('base64url');
}

export function decodeCursor(engine: Context, token: string, scope: CursorScope): DecodedCursor {
  // Length first: a hostile token is refused before anything reads it.
  if (token.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) {
    return { ok: false, reason: 'malformed cursor' };
  }
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length <= MAC_BYTES) return { ok: false, reason: 'malformed cursor' };
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  const tag = bytes.subarray(bytes.length - MAC_BYTES);
  if (!timingSafeEqual(tag, mac(engine, payload))) {
    return { ok: false, reason: 'cursor was not issued by this database or was altered' };
  }
  let decoded: unknown;
  try {
    decoded = codec.unpack(payload);
  } catch {
    return { ok: false, reason: 'malformed cursor' };
  }
  if (!Array.isArray(decoded) || decoded.length !== 5) return { ok: false, reason: 'malformed cursor' };
  const [v, entity, snapshot, filterHash, after] = decoded as unknown[];
  if (v !== CURSOR_VERSION) return { ok: false, reason: 'unsupported cursor version' };
  if (entity !== scope.entity) return { ok: false, reason: `cursor belongs to a ${String(entity)} walk` };
  if (snapshot !== snapshotId(engine)) return { ok: false, reason: 'cursor is stale: the data was reloaded' };
  if (filterHash !== scope.filterHash) {
    return { ok: false, reason: 'filters and mode must stay unchanged across the pages of one cursor walk' };
  }
  if (typeof after !== 'number' || !Number.isInteger(after) || after < 0) {
    return { ok: false, reason: 'malformed cursor' };
  }
  return { ok: true, after };
}
