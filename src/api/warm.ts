/** The library's index builders: the engine checked, then the core's own. */
import {
  buildIndexes as build,
  buildIndexesThreaded as buildThreaded,
  warmEngine as warm,
} from '../core/warm.js';
import type { Context } from '../runtime/context.js';
import { checkEngine } from './parse.js';

/**
 * Builds the search and match indexes ahead of the first query and, on a writable file, saves them in
 * it, so later processes start answering at once; returns the milliseconds it took.
 * @example await engine.load(DEMO_SNAPSHOT); buildIndexes(engine);
 */
export function buildIndexes(engine: Context): number {
  checkEngine(engine);
  return build(engine);
}

/**
 * {@link buildIndexes} on `threads` threads (default: the cores available, or 1 below 30,000 businesses
 * and prospects; 1: this thread only): this
 * thread builds the search and autocomplete indexes while workers build the match indexes on read-only
 * connections and send them back to be saved. The file gets the same saved indexes, byte for byte; resolves with the
 * milliseconds it took.
 * @example await engine.load(DEMO_SNAPSHOT); await buildIndexesThreaded(engine, { threads: 2 });
 */
export async function buildIndexesThreaded(
  engine: Context,
  options: { threads?: number } = {},
): Promise<number> {
  checkEngine(engine);
  return buildThreaded(engine, options);
}

/**
 * Builds every index a request would build on first use, yielding between steps; resolves with the
 * milliseconds of each step.
 * @example const took = await warmEngine(engine); console.log(took['match.businesses']);
 */
export async function warmEngine(engine: Context): Promise<Record<string, number>> {
  checkEngine(engine);
  return warm(engine);
}
