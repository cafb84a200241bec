/** Test and bench support: one HTTP request over loopback with a hang guard, and latency percentiles. */
import { request as httpRequest, type Agent } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Milliseconds from sending to the last byte of the answer. */
  ms: number;
}

export interface SendOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  agent?: Agent | false;
  /** Rejects when no full answer arrived within this many ms (a hang guard, not a speed test). */
  timeoutMs?: number;
  localAddress?: string;
}

export function send(port: number, path: string, options: SendOptions = {}): Promise<Reply> {
  const { method = options.body === undefined ? 'GET' : 'POST', timeoutMs = 5_000 } = options;
  const payload =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: options.agent,
        localAddress: options.localAddress,
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(guard);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          });
        });
        res.on('error', reject);
      },
    );
    const guard = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (e) => {
      clearTimeout(guard);
      reject(e);
    });
    req.end(payload);
  });
}

/** The q-quantile (0–1) of `values`, nearest rank; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
