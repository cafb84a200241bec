/**
 * The engine's job worker slot: which worker runs for an engine, kept apart from the worker itself so
 * the engine can stop a running worker without importing the jobs slice (a process that never runs a
 * job never loads it).
 */
import { kind, type Context } from '../runtime/context.js';

export interface JobWorker {
  /** Wakes the worker (a job was submitted). */
  kick(): void;
  /** Resolves when no job is left that this worker could take (queued, or running without a live lease). */
  idle(): Promise<void>;
  /** Stops after the current batch and gives its lease back; resolves when the loop has ended. */
  stop(): Promise<void>;
  readonly stopped: boolean;
}

/** The engine's worker, held by the context (one per engine). */
export const WORKER = kind('jobs.worker', (): { current?: JobWorker } => ({}));

/** The worker running for an engine, if any. */
export const jobWorkerOf = (engine: Context): JobWorker | undefined => engine.services.get(WORKER).current;
