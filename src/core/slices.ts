/**
 * Cooperative time slices for long synchronous work on the main thread (a research batch, a job batch):
 * the work calls the slicer between units, and it yields to the event loop (`setImmediate`, so sockets
 * are polled) once `sliceMs` of work has run since the last yield. Results do not change, only when
 * the loop gets to run something else.
 *
 * @example
 * const slice = timeSlicer();
 * for (const row of rows) { work(row); await slice(); }
 */
export const DEFAULT_SLICE_MS = 10;

export function timeSlicer(sliceMs = DEFAULT_SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}
