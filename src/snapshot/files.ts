/**
 * Where a snapshot's streams are: a folder holding `manifest.json` and `businesses|prospects|events`
 * as `.jsonl`, `.jsonl.gz` or `.msgpack`, or explicit paths for each stream.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EngineError } from '../errors.js';
import { Manifest } from '../schemas/records.js';

export const STREAMS = ['businesses', 'prospects', 'events'] as const;
export type StreamName = (typeof STREAMS)[number];
export type StreamFormat = 'jsonl' | 'jsonl.gz' | 'msgpack';

export interface SnapshotFiles {
  manifest?: string;
  businesses?: string;
  prospects?: string;
  events?: string;
}
/** A snapshot folder, or explicit file paths per stream. */
export type SnapshotSource = string | SnapshotFiles;

export interface StreamFile {
  stream: StreamName;
  path: string;
  format: StreamFormat;
}

export interface ResolvedSnapshot {
  manifest: Manifest | null;
  files: StreamFile[];
}

const EXTENSIONS: readonly [string, StreamFormat][] = [
  ['.jsonl', 'jsonl'],
  ['.jsonl.gz', 'jsonl.gz'],
  ['.msgpack', 'msgpack'],
];

export function formatOf(path: string): StreamFormat {
  if (path.endsWith('.jsonl.gz') || path.endsWith('.json.gz')) return 'jsonl.gz';
  if (path.endsWith('.msgpack') || path.endsWith('.mpk')) return 'msgpack';
  return 'jsonl';
}

/** The parsed JSON of a snapshot's or a delta's `manifest.json`; refused when it is not JSON. */
export function readManifestJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new EngineError(
      'SNAPSHOT_INVALID',
      `${path}: manifest is not valid JSON (${(e as Error).message})`,
    );
  }
}

function readManifest(path: string): Manifest {
  const raw = readManifestJson(path);
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError(
      'SNAPSHOT_INVALID',
      `${path}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`,
    );
  }
  return parsed.data;
}

/** Finds the stream files of a snapshot; throws SNAPSHOT_NOT_FOUND when there are none. */
export function resolveSnapshot(source: SnapshotSource): ResolvedSnapshot {
  const files: StreamFile[] = [];
  let manifest: Manifest | null = null;
  if (typeof source === 'string') {
    if (!existsSync(source)) {
      throw new EngineError('SNAPSHOT_NOT_FOUND', `${resolve(source)}: the folder does not exist`);
    }
    if (!statSync(source).isDirectory()) {
      throw new EngineError(
        'SNAPSHOT_NOT_FOUND',
        `${resolve(source)}: not a folder (a snapshot is a folder)`,
      );
    }
    const manifestPath = join(source, 'manifest.json');
    if (existsSync(manifestPath)) manifest = readManifest(manifestPath);
    for (const stream of STREAMS) {
      const found = EXTENSIONS.map(([ext, format]) => ({ path: join(source, stream + ext), format })).filter(
        (f) => existsSync(f.path),
      );
      if (found.length > 1) {
        throw new EngineError('SNAPSHOT_INVALID', `${source}: several files for the ${stream} stream`);
      }
      if (found[0]) files.push({ stream, ...found[0] });
    }
  } else {
    if (source.manifest) manifest = readManifest(source.manifest);
    for (const stream of STREAMS) {
      const path = source[stream];
      if (!path) continue;
      if (!existsSync(path)) throw new EngineError('SNAPSHOT_NOT_FOUND', `${path}: no such file`);
      files.push({ stream, path, format: formatOf(path) });
    }
  }
  if (files.length === 0) {
    const where = typeof source === 'string' ? `${resolve(source)}: the folder` : 'the snapshot';
    throw new EngineError(
      'SNAPSHOT_NOT_FOUND',
      `${where} has no businesses, prospects or events stream (${STREAMS.join('|')} as ${EXTENSIONS.map(([e]) => e).join(', ')})`,
    );
  }
  return { manifest, files };
}
