/** Where the packaged demo snapshot lives, so a quickstart runs from an installed package. */
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of the demo snapshot folder shipped with the package (`fixtures/demo`: 2,000
 * businesses, 10,000 prospects, 3,000 events).
 * @example await openEngine().load(DEMO_SNAPSHOT);
 */
export const DEMO_SNAPSHOT = fileURLToPath(new URL('../fixtures/demo', import.meta.url));
