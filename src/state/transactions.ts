/**
 * Which transaction the running code is in, carried by the async context: a statement issued anywhere
 * below `transaction(fn)` (a route handler, a charge, a webhook registry write) joins that transaction
 * without a handle being passed down every call. A context outliving its transaction (a timer started
 * inside it) sees `open === false` and runs outside, as it should.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TxFrame<C> {
  /** The store the frame belongs to (two stores in one process never share a frame). */
  readonly owner: object;
  readonly conn: C;
  open: boolean;
}

const frames = new AsyncLocalStorage<TxFrame<unknown>>();

/** The open transaction of `owner` the caller runs in, if any. */
export function currentFrame<C>(owner: object): TxFrame<C> | undefined {
  const f = frames.getStore();
  return f && f.owner === owner && f.open ? (f as TxFrame<C>) : undefined;
}

export function runInFrame<C, T>(frame: TxFrame<C>, fn: () => Promise<T>): Promise<T> {
  return frames.run(frame as TxFrame<unknown>, fn);
}

/** A FIFO lock: `acquire` resolves, in call order, to a release function. */
export function createLock(): { acquire(): Promise<() => void>; readonly held: boolean } {
  let tail: Promise<void> = Promise.resolve();
  let held = 0;
  return {
    acquire() {
      let release!: () => void;
      const next = new Promise<void>((r) => (release = r));
      const ready = tail.then(() => {
        held++;
        return () => {
          held--;
          release();
        };
      });
      tail = tail.then(() => next);
      return ready;
    },
    get held() {
      return held > 0;
    },
  };
}
