/**
 * Setup file of the `integration` and `postgres` projects: waits until the build their global setup
 * started in the background has ended (`global-build.ts`), and fails the file with the build's own
 * output when it failed. Once the build has ended this costs one file read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

const status = inject('buildStatus');
while (!existsSync(status)) await sleep(100);
const failure = readFileSync(status, 'utf8');
if (failure) {
  const err = new Error(`the build the built-package tests need failed: ${failure}`);
  err.stack = err.message; // the reason is the build's output; a stack of this file would only hide it
  throw err;
}
