/**
 * Test support: the command line as a child process runs it, from the BUILT package
 * (`dist/cli/main.js`), which the global setup of the projects that start it compiles when it is older
 * than `src/` (`global-build.ts`). A start costs about half the CPU of `node --import tsx
 * src/cli/main.ts`, which compiles the sources in every process (and in every worker of
 * `serve --workers`); the suite starts dozens.
 */
import { fileURLToPath } from 'node:url';

/** Path of the built CLI: `node BUILT_CLI …args` is `prospectdb …args`. */
export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
