/**
 * Serving on many cores: `prospectdb serve --workers N` forks N processes that share one port through
 * node:cluster (the primary accepts connections and hands them to the workers in turn). Each worker is
 * a whole single-process server: it opens the snapshot and the shared state store (a SQLite state file
 * shared through WAL, or PostgreSQL), builds its indexes and only then listens. The primary opens
 * nothing: it forks, restarts a worker that dies (with backoff), forwards SIGHUP (the snapshot swap
 * signal) and, on SIGTERM or SIGINT, asks every worker to stop accepting and finish in-flight requests,
 * then exits.
 *
 * The first worker starts alone: it builds the indexes and saves them in the snapshot file when it
 * may (`indexes/persist.ts`), so the others read them back instead of building them N times at once
 * on the same cores.
 *
 * @example
 * if (cluster.isPrimary) process.exitCode = await runPrimary({ workers: 4 });
 * else { const server = await serve(engine, { port }); await untilStopped(); await server.close(); leaveCluster(); }
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';

/** The message the primary sends a worker to make it stop accepting and finish in-flight requests. */
const SHUTDOWN = 'prospectdb:shutdown';

export interface ClusterOptions {
  /** Worker processes; at least 1. */
  workers: number;
  /** Progress lines (started, restarted, stopping). Default: none. */
  log?: (line: string) => void;
  /** How long the primary waits for workers to finish in-flight requests before killing them; default 15 s. */
  shutdownTimeoutMs?: number;
  /** Restart delay after a worker dies: doubles from `minMs` up to `maxMs` while workers keep dying. */
  restartBackoff?: { minMs?: number; maxMs?: number };
}

/** The worker count `--workers` text asks for; default: the cores this process may use. */
export function workersOption(text: string | undefined): number {
  if (text === undefined) return availableParallelism();
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1 || n > 1024)
    throw new TypeError('--workers must be an integer from 1 to 1024');
  return n;
}

/** Whether this process is a worker forked by {@link runPrimary}. */
export const isClusterWorker = (): boolean => cluster.isWorker;

/** A worker that lived this long is healthy again: the next death restarts it at the shortest delay. */
const HEALTHY_AFTER_MS = 30_000;

/**
 * The primary: forks the workers (the first alone, the rest once it listens), keeps them running and
 * resolves with the exit code once a stop signal has shut them down. A worker that dies before the
 * whole cluster first listened (a port in use, a missing file) is a start-up failure: the others are
 * stopped and it resolves with 1.
 */
export function runPrimary(options: ClusterOptions): Promise<number> {
  const log = options.log ?? (() => {});
  const minMs = options.restartBackoff?.minMs ?? 250;
  const maxMs = options.restartBackoff?.maxMs ?? 10_000;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 15_000;
  const started = new Map<Worker, number>();
  let ready = false;
  let stopping = false;
  let delay = minMs;
  let listening = 0;

  return new Promise<number>((resolve) => {
    const fork = () => {
      const worker = cluster.fork();
      started.set(worker, Date.now());
      worker.once('listening', () => {
        if (ready) {
          log(`worker ${worker.process.pid} listening`);
          return;
        }
        listening++;
        if (listening === 1) for (let i = 1; i < options.workers; i++) fork();
        if (listening === options.workers) {
          ready = true;
          log(
            `${options.workers} workers listening (pids ${[...started.keys()].map((w) => w.process.pid).join(', ')})`,
          );
        }
      });
      worker.once('exit', (code, signal) => {
        const lived = Date.now() - (started.get(worker) ?? 0);
        started.delete(worker);
        if (stopping) {
          if (started.size === 0) finish(0);
          return;
        }
        const how = signal ? `signal ${signal}` : `code ${code}`;
        if (!ready) {
          log(`worker ${worker.process.pid} exited with ${how} before listening; stopping`);
          stop(1);
          return;
        }
        if (lived >= HEALTHY_AFTER_MS) delay = minMs;
        log(`worker ${worker.process.pid} exited with ${how}; restarting in ${delay} ms`);
        setTimeout(() => {
          if (!stopping) fork();
        }, delay);
        delay = Math.min(maxMs, delay * 2);
      });
    };

    let exitCode = 0;
    const finish = (code: number) => {
      process.off('SIGINT', onStop);
      process.off('SIGTERM', onStop);
      process.off('SIGHUP', onHangup);
      resolve(Math.max(code, exitCode));
    };
    const stop = (code: number) => {
      exitCode = Math.max(exitCode, code);
      if (stopping) return;
      stopping = true;
      if (started.size === 0) {
        finish(exitCode);
        return;
      }
      for (const worker of started.keys()) {
        if (worker.isConnected()) worker.send(SHUTDOWN);
        else worker.process.kill('SIGTERM');
      }
      const timer = setTimeout(() => {
        for (const worker of started.keys()) worker.process.kill('SIGKILL');
      }, shutdownTimeoutMs);
      timer.unref();
    };
    const onStop = (signal: string) => {
      if (!stopping) log(`${signal}: stopping ${started.size} workers`);
      stop(0);
    };
    // The snapshot swap signal goes to every worker; the primary holds no snapshot.
    const onHangup = () => {
      for (const worker of started.keys()) worker.process.kill('SIGHUP');
    };
    process.on('SIGINT', onStop);
    process.on('SIGTERM', onStop);
    process.on('SIGHUP', onHangup);
    fork();
  });
}

/**
 * In a worker, called when it starts: resolves when the primary asks it to stop, or the primary is
 * gone, or a stop signal reaches it directly (Ctrl-C reaches the whole process group). Later signals
 * are ignored: the primary decides when a worker that does not finish is killed. SIGHUP (forwarded by
 * the primary) no longer ends the worker: it is the snapshot swap signal, for whoever listens to it.
 */
export function untilStopped(): Promise<string> {
  process.on('SIGHUP', () => {});
  return new Promise((resolve) => {
    let done = false;
    const stop = (why: string) => {
      if (done) return;
      done = true;
      process.off('message', onMessage);
      process.off('disconnect', onDisconnect);
      resolve(why);
    };
    const onMessage = (message: unknown) => {
      if (message === SHUTDOWN) stop('shutdown');
    };
    const onDisconnect = () => stop('disconnect');
    process.on('message', onMessage);
    process.on('disconnect', onDisconnect);
    // Kept after the first: a second signal must not kill a worker that is finishing its requests.
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}

/** In a worker, after it closed everything: drops the channel to the primary so the process can exit. */
export function leaveCluster(): void {
  if (cluster.isWorker && process.connected) process.disconnect();
}
