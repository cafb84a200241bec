/**
 * The running delivery worker's waker, per engine: a new delivery (ingest) or a re-enabled webhook
 * goes out at once rather than at the worker's next poll. Held by the context's services (one per
 * engine), registered by the worker the engine's lifecycle starts and stops.
 */
import { kind, type Context } from '../runtime/context.js';

const WAKER = kind('webhooks.waker', (): { wake?: () => void } => ({}));

/** Registers (or, with null, removes) the engine's delivery worker. */
export function registerWaker(engine: Context, wake: (() => void) | null): void {
  engine.services.get(WAKER).wake = wake ?? undefined;
}

/** Tells the engine's delivery worker (if one runs) that deliveries may be due. */
export function wakeDelivery(engine: Context): void {
  engine.services.get(WAKER).wake?.();
}
