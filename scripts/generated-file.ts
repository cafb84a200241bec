/**
 * The last step of every generator script here: write the generated text to its file, or with
 * `--check` exit 1 when the committed file differs from it (what CI and the tests rely on).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Writes `text` to `out` (a file URL), or checks it is what `out` holds when run with `--check`. */
export function writeOrCheck(out: URL, text: string, script: string): void {
  const path = fileURLToPath(out);
  if (process.argv.includes('--check')) {
    if (readFileSync(path, 'utf8') !== text) {
      process.stderr.write(`${path} is stale: run node --import tsx ${script}\n`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(path, text);
  process.stderr.write(`wrote ${path}\n`);
}
