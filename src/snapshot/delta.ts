/**
 * Where a delta's files are: a folder holding `manifest.json` (`"kind": "delta"`, required) and any of
 * `businesses|prospects|events|deletions` as `.jsonl`, `.jsonl.gz` or `.msgpack`.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EngineError } from '../errors.js';
import { DeltaManifest, type Manifest } from '../schemas/records.js';
import { readManifestJson, STREAMS, type StreamFile, type StreamFormat } from './files.js';

/** A delta's deletions: one `{"business_id"}`, `{"prospect_id"}` or `{"event_id"}` per line. */
export interface DeletionsFile {
  path: string;
  format: StreamFormat;
}

export interface ResolvedDelta {
  manifest: DeltaManifest;
  /** The record streams present, in `STREAMS` order. */
  files: StreamFile[];
  deletions?: DeletionsFile;
}

const EXTENSIONS: readonly [string, StreamFormat][] = [
  ['.jsonl', 'jsonl'],
  ['.jsonl.gz', 'jsonl.gz'],
  ['.msgpack', 'msgpack'],
];

/** The one file of `name` in `dir` (any of the extensions), `undefined` when there is none. */
function streamFile(dir: string, name: string): { path: string; format: StreamFormat } | undefined {
  const found = EXTENSIONS.map(([ext, format]) => ({ path: join(dir, name + ext), format })).filter((f) =>
    existsSync(f.path),
  );
  if (found.length > 1)
    throw new EngineError('SNAPSHOT_INVALID', `${dir}: several files for the ${name} stream`);
  return found[0];
}

/**
 * Reads a delta folder's manifest and finds its files. Refuses a folder that does not exist, has no
 * manifest, or whose manifest is not a delta's (a snapshot folder given where a delta is expected).
 */
export function resolveDelta(dir: string): ResolvedDelta {
  const where = resolve(dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new EngineError('SNAPSHOT_NOT_FOUND', `${where}: the delta folder does not exist`);
  }
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new EngineError(
      'SNAPSHOT_INVALID',
      `${manifestPath}: no manifest (a delta needs manifest.json with "kind": "delta" and "base_snapshot_id")`,
    );
  }
  const raw = readManifestJson(manifestPath);
  const kind = (raw as { kind?: unknown } | null)?.kind;
  if (kind !== 'delta') {
    throw new EngineError(
      'SNAPSHOT_INVALID',
      `${manifestPath}: not a delta manifest (kind is ${JSON.stringify(kind ?? null)}, expected "delta"); ` +
        'load a full snapshot without --base',
    );
  }
  const parsed = DeltaManifest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError(
      'SNAPSHOT_INVALID',
      `${manifestPath}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`,
    );
  }
  const files: StreamFile[] = [];
  for (const stream of STREAMS) {
    const f = streamFile(dir, stream);
    if (f) files.push({ stream, ...f });
  }
  return { manifest: parsed.data, files, deletions: streamFile(dir, 'deletions') };
}

/** Whether a snapshot manifest is in fact a delta's (`load` refuses it: it would replace every stream). */
export function isDeltaManifest(manifest: Manifest | null): boolean {
  return (manifest as { kind?: unknown } | null)?.kind === 'delta';
}
