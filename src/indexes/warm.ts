/** Builds (or reads back) the search indexes ahead of the first query. */
import type { Engine } from '../engine.js';
import { businessIndex } from './businesses.js';
import { prospectIndex } from './prospects.js';

/**
 * Builds the business and prospect search indexes of the engine's current data and, on a writable file,
 * saves them in it (see `persist.ts`), so that every later process starts answering at once. Returns
 * the milliseconds it took. `prospectdb load` runs it after loading.
 * @example await engine.load('snapshot/'); buildIndexes(engine);
 */
export function buildIndexes(engine: Engine): number {
  const started = performance.now();
  businessIndex(engine);
  prospectIndex(engine);
  return performance.now() - started;
}
