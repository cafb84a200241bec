/** Open → first answer, measured in a fresh child process (nothing cached in this one counts). */
import { execFile } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface OpenTiming {
  /** Spawn to exit, including Node's start-up and the module imports. */
  wallMs: number;
  openMs: number;
  firstFetchMs: number;
  firstMatchMs: number;
  /** Plain better-sqlite3: open, then the same first page and count. */
  baselineMs: number;
  /** RSS with every index warm. */
  rss: number;
  /** RSS after the plain SQLite baseline answered (before the engine opened). */
  baselineRss: number;
  /** RSS of the fresh process before either. */
  startRss: number;
}

export function openTiming(db: string): Promise<OpenTiming> {
  const ext = extname(fileURLToPath(import.meta.url)); // `.ts` when run from source (tests), `.js` from dist
  const child = fileURLToPath(new URL(`./open-child${ext}`, import.meta.url));
  const args = ext === '.ts' ? ['--import', 'tsx', child, db] : [child, db];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const wallMs = performance.now() - started;
      if (error) return reject(new Error(`open timing failed: ${stderr || error.message}`));
      try {
        resolve({
          wallMs,
          ...(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Omit<OpenTiming, 'wallMs'>),
        });
      } catch {
        reject(new Error(`open timing: unexpected output ${JSON.stringify(stdout.slice(0, 200))}`));
      }
    });
  });
}
