/**
 * The running delivery worker's waker, per engine: a new delivery (ingest) or a re-enabled webhook
 * goes out at once rather than at the worker's next poll.
 *
 * Documented module state: the callers (`ingestEvents(engine, …)`, the webhook routes) hold only the
 * engine, and the worker is started and stopped by the engine's lifecycle, so its waker is found by the
 * engine's database. A WeakMap: a closed, dropped engine takes its entry with it. The narrow context
 * of issue #14 part 1 is where this becomes a field.
 */
import type { Engine } from '../engine.js';
import type { Db } from '../store/open.js';

const wakers = new WeakMap<Db, () => void>();

/** Registers (or, with null, removes) the engine's delivery worker. */
export function registerWaker(engine: Engine, wake: (() => void) | null): void {
  if (wake) wakers.set(engine.db, wake);
  else wakers.delete(engine.db);
}

/** Tells the engine's delivery worker (if one runs) that deliveries may be due. */
export function wakeDelivery(engine: Engine): void {
  wakers.get(engine.db)?.();
}
