/**
 * In-memory indexes saved in the database file beside the data they were built from, so a process that
 * opens a built file answers its first query without scanning every row (at 1M prospects the scan took
 * over 30 s; reading the saved form back takes about a second). An index is saved by the first writable
 * engine that builds it and is keyed by the data version and the snapshot id: a load, which bumps the
 * version, makes every saved index stale, and a stale or unreadable one is rebuilt, never used.
 *
 * The saved form is V8's structured serialisation (`node:v8`: Maps and typed arrays as they are; a
 * `Bitset` is tagged), cut into parts below SQLite's blob limit. Not MessagePack: msgpackr keeps its
 * largest output buffer and its last input alive in module state, about 100 bytes per row at rest.
 */
import { deserialize, serialize } from 'node:v8';
import { kind, type Context, type Kind } from '../runtime/context.js';
import { getMeta, type Db } from '../store/open.js';
import { INDEX_CACHE_DDL, INDEX_CACHE_SQL } from '../store/sql/index-cache.js';
import { Bitset } from './bitset.js';

/**
 * Bump when the shape of any saved index changes: a file saved by an older build is then rebuilt. The
 * build code of every index passed to {@link savedIndex} is part of this format.
 */
export const INDEX_FORMAT = 2;

const PART_BYTES = 64 << 20;

/**
 * An index kind whose value is saved in the file: held by the context's index owner like every index
 * (memoised per data version), and a later process reads the saved form instead of building. Readonly
 * engines read saved indexes but never write them.
 */
export function savedIndex<T>(name: string, build: (engine: Context) => T): Kind<T> {
  return kind(name, (e) => {
    const stamp = stampOf(e.db);
    const saved = e.path === ':memory:' ? undefined : readSaved(e.db, name, stamp);
    if (saved !== undefined) return saved as T;
    const index = build(e);
    // An in-memory database dies with its process: nobody could read the saved form.
    if (!e.settings.readonly && e.path !== ':memory:') writeSaved(e.db, name, stamp, index);
    return index;
  });
}

function stampOf(db: Db): string {
  // The V8 version too: another Node may write another serialisation format.
  return `${INDEX_FORMAT}:${process.versions.v8}:${getMeta(db, 'data_version') ?? '0'}:${getMeta(db, 'snapshot_id') ?? ''}`;
}

function readSaved(db: Db, name: string, stamp: string): unknown {
  const exists = db.prepare(INDEX_CACHE_SQL.exists).get();
  if (!exists) return undefined;
  const parts = db.prepare(INDEX_CACHE_SQL.parts).all(name) as {
    stamp: string;
    data: Buffer;
  }[];
  if (parts.length === 0 || parts.some((p) => p.stamp !== stamp)) return undefined;
  try {
    return untag(deserialize(parts.length === 1 ? parts[0]!.data : Buffer.concat(parts.map((p) => p.data))));
  } catch {
    return undefined; // a damaged saved index is rebuilt
  }
}

function writeSaved(db: Db, name: string, stamp: string, index: unknown): void {
  try {
    const bytes = serialize(tag(index));
    db.exec(INDEX_CACHE_DDL);
    const remove = db.prepare(INDEX_CACHE_SQL.remove);
    const insert = db.prepare(INDEX_CACHE_SQL.insert);
    // A savepoint when a caller's transaction is open: its rollback then only drops the saved copy.
    db.transaction(() => {
      remove.run(name);
      for (let part = 0, at = 0; at < bytes.length || part === 0; part++, at += PART_BYTES) {
        insert.run(name, part, stamp, bytes.subarray(at, at + PART_BYTES));
      }
    })();
  } catch {
    // Saving is an optimisation: a busy or full database leaves the index in memory only.
  }
}

const BITSET = '\u0000bitset';

/** Replaces every `Bitset` by a tagged plain value (structured serialisation drops prototypes). */
function tag(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return v;
  if (v instanceof Bitset) return { [BITSET]: [v.size, v.words] };
  if (v instanceof Map) return new Map(Array.from(v, ([k, x]) => [k, tag(x)]));
  if (Array.isArray(v)) return v.map(tag);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = tag(x);
  return out;
}

function untag(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return v;
  if (v instanceof Map) {
    for (const [k, x] of v)
      if (x !== null && typeof x === 'object' && !ArrayBuffer.isView(x)) v.set(k, untag(x));
    return v;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = untag(v[i]);
    return v;
  }
  const o = v as Record<string, unknown>;
  const bits = o[BITSET] as [number, Uint32Array] | undefined;
  if (bits) return new Bitset(bits[0], bits[1]);
  for (const k of Object.keys(o)) o[k] = untag(o[k]);
  return o;
}
