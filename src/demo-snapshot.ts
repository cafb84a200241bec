/**
 * Where the packaged demo snapshot is. Resolved from this module's own URL, not from the working
 * directory: `src/` and `dist/` sit beside `fixtures/` in the repository and in an installed package
 * (package.json `files` ships `fixtures/demo`).
 */
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of the demo snapshot shipped with the package (2,000 businesses, 10,000 prospects,
 * 3,000 events, `as_of` 2026-11-01): a folder to pass to `engine.load`.
 * @example const engine = openEngine(); await engine.load(DEMO_SNAPSHOT);
 */
export const DEMO_SNAPSHOT: string = fileURLToPath(new URL('../fixtures/demo', import.meta.url));
