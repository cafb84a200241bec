/**
 * Timing with `performance.now()` loops: every sample is kept (the report charts distributions, and
 * percentiles need the samples), so there is no benchmark library in the runtime dependencies.
 */
export interface Distribution {
  n: number;
  mean: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of samples (milliseconds in, milliseconds out). */
export function distribution(samples: readonly number[]): Distribution {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(s.length, 1);
  return {
    n: s.length,
    mean,
    min: s[0] ?? NaN,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: s.at(-1) ?? NaN,
  };
}

/** Milliseconds of each of `n` calls (after `warm` unmeasured calls that fill caches and the JIT). */
export function timeEach(n: number, fn: (i: number) => unknown, warm = Math.min(n, 5)): number[] {
  for (let i = 0; i < warm; i++) fn(i);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn(i);
    out[i] = performance.now() - t;
  }
  return out;
}

/**
 * Rows per second of `fn` over `rows` cut into batches of `batch`: passes over the rows repeat until
 * `minMs` has elapsed (at least one pass), after one unmeasured warm-up pass over a prefix.
 */
export async function rowsPerSecond<Row>(
  rows: readonly Row[],
  batch: number,
  fn: (slice: readonly Row[]) => unknown,
  minMs = 250,
): Promise<number> {
  const warm = rows.slice(0, Math.min(rows.length, batch * 3));
  for (let i = 0; i < warm.length; i += batch) await fn(warm.slice(i, i + batch));
  let done = 0;
  const t = performance.now();
  do {
    for (let i = 0; i < rows.length; i += batch) await fn(rows.slice(i, i + batch));
    done += rows.length;
  } while (performance.now() - t < minMs);
  return (done / (performance.now() - t)) * 1000;
}
