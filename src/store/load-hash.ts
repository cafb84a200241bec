/**
 * The SHA-256 of a stream file (what the snapshot id is made of), computed on a thread of its own while
 * the load reads the same file, so the thread that writes the database does not hash every byte.
 * The second read of the file is served by the page cache.
 */
import { Worker } from 'node:worker_threads';

const HASH_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
try {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(workerData, 'r');
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  parentPort.postMessage({ digest: hash.digest('hex') });
} catch (e) {
  parentPort.postMessage({ error: String(e && e.message) });
}`;

/** The hex SHA-256 of the file at `path`, hashed on a worker thread. */
export function hashFileOffThread(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HASH_WORKER, { eval: true, workerData: path });
    worker.once('message', (m: { digest?: string; error?: string }) => {
      if (m.digest !== undefined) resolve(m.digest);
      else reject(new Error(m.error));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`hash worker exited (${code})`)));
  });
}
