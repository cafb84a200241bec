/**
 * The triggers of a snapshot swap in `prospectdb serve`: `--watch` (the file at the served path was
 * replaced, e.g. `mv next.db current.db`) and SIGHUP (re-open the served path now). Both call
 * `engine.swapSnapshot(path)`; a failed open keeps the current snapshot and says why on stderr.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Engine } from '../engine.js';

/** Quiet time after the last change event before the file is re-opened (a copy can take a while). */
export const WATCH_DEBOUNCE_MS = 300;

export interface SnapshotTriggers {
  /** Stops watching and listening for SIGHUP. */
  stop(): void;
}

/** The identity of the file at `path` now (a rename over it gives a new inode), or undefined. */
function fileStamp(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * Why the served file cannot be swapped in place: the state lives in it (renaming a new file over it
 * would leave accounts and credits in the old, unlinked file). Undefined when it can.
 */
export function swapInPlaceRefusal(engine: Engine, path: string): string | undefined {
  if (engine.state.dialect === 'sqlite' && resolve(engine.state.location) === resolve(path)) {
    return `the state (accounts, keys, credits) is stored in ${path}: give it a file of its own with --state FILE to swap snapshots in place`;
  }
  return undefined;
}

/**
 * Swaps the engine to the file at `path` on SIGHUP and, with `watch`, whenever the file there is
 * replaced (debounced). Messages go to `log` (stderr in the CLI).
 */
export function snapshotTriggers(
  engine: Engine,
  path: string,
  options: { watch: boolean; log: (line: string) => void; debounceMs?: number },
): SnapshotTriggers {
  const { log } = options;
  let seen = fileStamp(path);
  const swap = (why: string) => {
    const refusal = swapInPlaceRefusal(engine, path);
    if (refusal) {
      log(`prospectdb: ${why}: not swapped: ${refusal}`);
      return;
    }
    const stamp = fileStamp(path);
    engine.swapSnapshot(path).then(
      (r) => {
        seen = stamp;
        const rows = `${r.counts.businesses} businesses, ${r.counts.prospects} prospects`;
        log(
          `prospectdb: ${why}: now serving snapshot ${r.snapshotId} (${rows}); ` +
            `${r.previous.inFlight} request(s) finishing on ${r.previous.snapshotId ?? 'the previous one'}`,
        );
      },
      (e: Error) => log(`prospectdb: ${why}: kept the current snapshot: ${e.message}`),
    );
  };

  const onHangup = () => swap('SIGHUP');
  process.on('SIGHUP', onHangup);

  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (options.watch) {
    // The folder, not the file: a rename over the file replaces the inode a file watch would follow.
    const name = basename(path);
    watcher = watch(dirname(resolve(path)), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const stamp = fileStamp(path);
        if (stamp === undefined || stamp === seen) return;
        seen = stamp;
        swap(`${path} changed`);
      }, options.debounceMs ?? WATCH_DEBOUNCE_MS);
    });
    watcher.on('error', (e) => log(`prospectdb: --watch stopped: ${e.message}`));
  }
  return {
    stop() {
      process.off('SIGHUP', onHangup);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
