/**
 * In-memory indexes saved in the database file beside the data they were built from, so a process that
 * opens a built file answers its first query without scanning every row. An index is saved by the first
 * writable engine that builds it (`prospectdb load` builds and saves all of them) and is stamped with the
 * format, the V8 version, the data version and the snapshot id: a load, which bumps the version, makes
 * every saved index stale, and a stale or unreadable one is rebuilt, never used.
 *
 * The saved form is the index container (`format/container.ts`): a small header plus the raw bytes of
 * the index's typed arrays, cut into parts below SQLite's blob limit. Opening copies the parts into one
 * buffer once and wraps views over it: no per-entry work, so the match indexes (typed arrays, string
 * lists and hash tables throughout) open in time that does not grow with their entries.
 */
import { kind, type Context, type Kind } from '../runtime/context.js';
import { entitiesSnapshotId, entitiesVersion, savedPartsReader, type Db } from '../store/open.js';
import { INDEX_CACHE_DDL, INDEX_CACHE_SQL } from '../store/sql/index-cache.js';
import { preparedOnce } from '../store/statements.js';
import { Bitset } from './bitset.js';
import {
  alignedCopy,
  decodeIndex,
  encodeIndex,
  registerCodec,
  type LazyFallback,
} from './format/container.js';
import './format/strings.js';

/**
 * Bump when the shape of any saved index changes: a file saved by an older build is then rebuilt. The
 * build code of every index passed to {@link savedIndex} is part of this format.
 * 3: the typed-array container (2 was V8 structured serialisation of the whole index).
 * 4: the business match index holds the exact-name table (`byFullName`); leading legal forms are read
 * only where they stand in front (name keys changed).
 * 5: the prospect search index is saved in parts read on first access (facets, range columns).
 * 6: folded text keys spell a final sigma σ (`foldText`), as queries now fold it.
 * 7: the prospect match index holds no ids nor name keys (ids are read from the table for answers).
 * 8: string-key table slots are (hash, id): 8 bytes instead of 16 (`hash/string-key-table.ts`).
 * 9: the business search index is saved in parts read on first access, as the prospect one (5).
 * 10: the match indexes' key tables are saved in shards by key hash, each read on first access
 * (`hash/key-shards.ts`); the business match index holds no ids (read from the table, as prospects');
 * the prospect match index's columns in pages; the token index's large arrays apart.
 * 11: completion indexes are saved in pages read on first access (`completion-pages.ts`); values are
 * saved only where they differ from the labels; the business rowid → position table apart.
 * 12: the business match index's name keys in pages, its legal forms and countries coded
 * (`CodedStrings`), its key tables (and the initials and other-name tables) in shards of 16 KB; the
 * token index's postings, pair columns and spacing documents in pages of 4,096 entries, the words of
 * names that repeat one (`repeats`), no `docStart` (derived from the word counts), and `docTok` in two
 * bytes a word when the vocabulary allows.
 * 13: the search indexes' country columns in a byte a row (`countryOf`); the token index keeps no
 * column of joined name lengths (derived from a candidate's words when asked).
 * 14: a list of more than 256 objects holding a class instance (a facet's postings with bitsets among
 * them) is listed, not serialised by V8, which gave each bitset back as a plain object that matched no
 * row: a file saved in format 13 answered filters on such facets wrong (`format/container.ts`).
 */
export const INDEX_FORMAT = 14;

/**
 * Parts stay below SQLite's 1e9-byte value limit, large enough that an index is usually one part: one
 * part read back is used in place (8-byte aligned), several are copied into one buffer.
 */
const PART_BYTES = 768 << 20;

registerCodec({
  name: 'Bitset',
  type: Bitset,
  toTree: (b) => ({ size: b.size, words: b.words }),
  fromTree: (t) => {
    const { size, words } = t as { size: number; words: Uint32Array };
    if (!(words instanceof Uint32Array) || words.length !== (size + 31) >>> 5)
      throw new Error('Bitset: words do not match the size');
    return new Bitset(size, words);
  },
});

/**
 * How an index is saved when it is not saved as it is: `save` gives the tree to store (leaving out
 * memos and scratch space filled at query time), `open` makes the index from the stored tree (wrapping
 * its arrays, never copying them).
 */
export interface SavedForm<T> {
  save(index: T): unknown;
  open(tree: unknown): T;
  /**
   * Top-level fields of the saved tree stored apart and read on first access, each with a check of its
   * shape: a request that never needs one (a name match never reads the e-mail table) never reads its
   * bytes. `open` must not read them (nor spread the tree).
   */
  lazy?: Readonly<Record<string, (value: unknown) => boolean>>;
  /**
   * Top-level fields saved as lists of parts, each part stored apart and read on first access, with a
   * check of a part's shape: `save` gives an array, `open` receives a {@link PartList} (a key table cut
   * in shards: a lookup reads the one shard its key hashes to). `open` must not read the parts.
   */
  listed?: Readonly<Record<string, (value: unknown) => boolean>>;
}

/** Parts of a saved field, each read from the file on first access (see {@link SavedForm.listed}). */
export interface PartList<T> {
  readonly length: number;
  at(i: number): T;
  /** Whether part `i` is in memory (read already). */
  isRead(i: number): boolean;
}

/**
 * Databases whose indexes are being built on purpose (`buildIndexes`) or whose data this process loaded:
 * no notice that their saved indexes are missing.
 */
const building = new WeakSet<Db>();
const loadedHere = new WeakSet<Db>();

/** Marks `db` as loaded by this process: its indexes are built on first use without a notice. */
export function loadedInProcess(db: Db): void {
  loadedHere.add(db);
}
/** Files already told about (one notice per file and process). */
const noticed = new Set<string>();

/** Runs `fn` without the missing-index notice (the caller is building every index anyway). */
export function buildingIndexes<T>(engine: Context, fn: () => T): T {
  building.add(engine.db);
  try {
    return fn();
  } finally {
    building.delete(engine.db);
  }
}

/**
 * An index kind whose value is saved in the file: held by the context's index owner like every index
 * (memoised per data version), and a later process reads the saved form instead of building. Readonly
 * engines read saved indexes but never write them. A file without the saved form (saved by an older
 * version, or never built) builds it on first use and says so once on stderr.
 */
export function savedIndex<T>(
  name: string,
  build: (engine: Context) => T,
  form: SavedForm<T> = { save: (index) => index, open: (tree) => tree as T },
): Kind<T> {
  return kind(
    name,
    (e) => {
      if (e.path === ':memory:') return build(e);
      const stamp = savedIndexStamp(e.db);
      const lazy = Object.keys(form.lazy ?? {});
      // A lazy field, or a dictionary deserialised on first read (`decodeIndex`), found damaged when it
      // is read is taken from a rebuild of the whole index: `at` is its place in the saved tree.
      let rebuilt: unknown;
      const fallback = (at: readonly string[]) =>
        at.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], (rebuilt ??= form.save(build(e))));
      const saved = openSaved(e.db, name, stamp, form, fallback);
      if (saved !== undefined) return saved;
      if (!building.has(e.db) && !loadedHere.has(e.db) && !noticed.has(e.path)) {
        noticed.add(e.path);
        console.error(
          `prospectdb: ${e.path} has no saved ${name} index for its data: building it now (once per process). ` +
            `Run \`prospectdb index --db ${e.path}\` (or load it again) to save every index in the file.`,
        );
      }
      const index = build(e);
      // An in-memory database dies with its process: nobody could read the saved form.
      if (!e.settings.readonly) {
        const saved = form.save(index) as Record<string, unknown>;
        const listed = Object.keys(form.listed ?? {});
        const root = lazy.length > 0 || listed.length > 0 ? { ...saved } : saved;
        for (const k of lazy) {
          writeSaved(e.db, `${name}/${k}`, stamp, saved[k]);
          delete root[k];
        }
        for (const k of listed) {
          const parts = saved[k] as unknown[];
          parts.forEach((part, i) => writeSaved(e.db, `${name}/${k}#${i}`, stamp, part));
          root[k] = parts.length; // the root holds how many parts there are
        }
        writeSaved(e.db, name, stamp, root);
      }
      return index;
    },
    'entities',
  );
}

/**
 * The saved index `name` of `db`'s current data opened with `form` (its lazy fields read on first
 * access, a damaged one taken from `fallback`), or `undefined` when it is not saved whole.
 */
function openSaved<T>(
  db: Db,
  name: string,
  stamp: string,
  form: SavedForm<T>,
  fallback: (at: readonly string[]) => unknown,
): T | undefined {
  // The root is saved after its parts (`savedIndex`, the index workers): a root in the file means its
  // parts were saved with it. Each part's stamp is checked when it is read; one missing or stale then
  // is taken from `fallback`. Parts are not listed here: at 5M prospects an index has ~10,000, and
  // listing their stamps reads the leaf page of each (64 KB, mostly the part's own bytes).
  const tree = readSaved(db, name, stamp, fallback) as Record<string, unknown> | undefined;
  const lazy = Object.keys(form.lazy ?? {});
  if (tree === undefined) return undefined;
  try {
    for (const k of lazy) {
      const ok = form.lazy?.[k] as (value: unknown) => boolean;
      Object.defineProperty(tree, k, {
        enumerable: true,
        configurable: true,
        get() {
          const value = readPart(db, `${name}/${k}`, stamp, ok, (at) => fallback([k, ...at]));
          Object.defineProperty(tree, k, { value, enumerable: true, writable: false });
          return value;
        },
      });
    }
    for (const [k, ok] of Object.entries(form.listed ?? {})) {
      const n = tree[k];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return undefined;
      const parts: unknown[] = new Array(n);
      const list: PartList<unknown> = {
        length: n,
        at: (i) =>
          (parts[i] ??= readPart(db, `${name}/${k}#${i}`, stamp, ok, (at) =>
            fallback([k, String(i), ...at]),
          )),
        isRead: (i) => parts[i] !== undefined,
      };
      tree[k] = list;
    }
    return form.open(tree);
  } catch {
    return undefined; // a saved tree of the wrong shape (damaged)
  }
}

/** Part `name` read from the file when whole and of the right shape (`ok`), else taken from `fallback`. */
function readPart(
  db: Db,
  name: string,
  stamp: string,
  ok: (value: unknown) => boolean,
  fallback: (at: readonly string[]) => unknown,
): unknown {
  const saved = readSaved(db, name, stamp, fallback);
  return saved !== undefined && ok(saved) ? saved : fallback([]);
}

/**
 * The saved index `name` of the engine's current data (or of the data whose indexes were saved under
 * `stamp`, see {@link savedIndexStamp}), read from the file and never built: `undefined` when it is not
 * saved (or the engine is in memory). A part found damaged when it is read throws.
 */
export function savedOnly<T>(
  engine: Context,
  name: string,
  form: SavedForm<T>,
  stamp = savedIndexStamp(engine.db),
): T | undefined {
  if (engine.path === ':memory:') return undefined;
  return openSaved(engine.db, name, stamp, form, (at) => {
    throw new Error(`${name}: saved part ${at.join('.')} is damaged`);
  });
}

/**
 * The stamp the indexes of `db`'s current data are saved under: a writer that is about to change the
 * data (a delta) keeps it to read the indexes of the data before until they are replaced.
 */
export function savedIndexStamp(db: Db): string {
  // The V8 version too: dictionaries are kept in V8's serialisation, which another Node may change.
  // The entities' version and snapshot, not the data's: a change of the events alone (an ingest, a
  // delta or a load of events) leaves every saved index current.
  return `${INDEX_FORMAT}:${process.versions.v8}:${entitiesVersion(db)}:${entitiesSnapshotId(db)}`;
}

// Prepared once per connection: a first match reads a few hundred parts (pages, shards), and preparing
// the two statements each time cost about as much as reading a part of 16 KB. The part statements are
// prepared only once the table is known to exist.
const existsStatement = preparedOnce((db: Db) => db.prepare(INDEX_CACHE_SQL.exists));
const partStatements = preparedOnce((db: Db) => ({
  stamps: db.prepare(INDEX_CACHE_SQL.stamps),
  data: db.prepare(INDEX_CACHE_SQL.data).pluck(),
}));

/**
 * The saved tree of `name` when its stamp is `stamp` and its bytes are whole; undefined otherwise.
 * `fallback` gives a dictionary found damaged when first read (see `decodeIndex`).
 */
function readSaved(snapshot: Db, name: string, stamp: string, fallback?: LazyFallback): unknown {
  const db = savedPartsReader(snapshot);
  const exists = existsStatement(db).get();
  if (!exists) return undefined;
  const { stamps, data } = partStatements(db);
  const parts = stamps.all(name) as { part: number; stamp: string }[];
  if (parts.length === 0 || parts.some((p, i) => p.stamp !== stamp || p.part !== i)) return undefined;
  try {
    const blobs: Buffer[] = [];
    for (const blob of data.iterate(name) as IterableIterator<Buffer>) blobs.push(blob);
    return decodeIndex(alignedCopy(blobs), fallback);
  } catch {
    return undefined; // a damaged saved index is rebuilt
  }
}

/**
 * Drops the saved parts no build can read any more (saved for another format, V8, data version or
 * snapshot), after every index was built and saved: a format that renames or splits a part would
 * otherwise leave the old one in the file for good. Returns how many parts went.
 */
export function dropStaleIndexes(engine: Context): number {
  if (engine.path === ':memory:' || engine.settings.readonly) return 0;
  if (!engine.db.prepare(INDEX_CACHE_SQL.exists).get()) return 0;
  try {
    return engine.db.prepare(INDEX_CACHE_SQL.dropStale).run(savedIndexStamp(engine.db)).changes;
  } catch {
    return 0; // a busy file keeps them: they are never read
  }
}

/** Where the indexes built on a database go instead of its file (see {@link sendingIndexes}). */
const sinks = new WeakMap<Db, IndexSink>();

/** Receives a built index in its saved form: its name, stamp and container bytes. */
export type IndexSink = (name: string, stamp: string, bytes: Uint8Array) => void;

/**
 * Runs `fn` (index builds on `db`) with every index it builds and would save handed to `sink` instead:
 * an index worker builds on a read-only connection and sends the bytes to the thread that writes the
 * file, which saves them with {@link saveIndexBytes}.
 */
export function sendingIndexes<T>(db: Db, sink: IndexSink, fn: () => T): T {
  sinks.set(db, sink);
  try {
    return fn();
  } finally {
    sinks.delete(db);
  }
}

function writeSaved(db: Db, name: string, stamp: string, tree: unknown): void {
  let bytes: Uint8Array;
  try {
    bytes = encodeIndex(tree);
  } catch {
    return; // Saving is an optimisation: an index that cannot be encoded stays in memory only.
  }
  const sink = sinks.get(db);
  if (sink) sink(name, stamp, bytes);
  else saveIndexBytes(db, name, stamp, bytes);
}

/**
 * Saves the container bytes of index `name` (built for the data of `stamp`) in `db`, replacing its
 * previous copy; a busy or full database leaves the file without it (the index is rebuilt on use).
 */
export function saveIndexBytes(db: Db, name: string, stamp: string, bytes: Uint8Array): void {
  try {
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
