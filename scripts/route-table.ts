/**
 * Writes `src/facade/routes/table.generated.ts`: every route of every area (`src/facade/routes/index.ts`),
 * its method and path, in the order the router takes them. The facade finds a request's route in this
 * table and imports the route's area on first use, so it never imports every area to route one request.
 *
 *   node --import tsx scripts/route-table.ts [--check]
 *
 * `--check` exits 1 when the committed table differs from the areas' routes (the facade test does too).
 */
import { AREAS } from '../src/facade/routes/index.js';
import { writeOrCheck } from './generated-file.js';
import { renderRouteTable, routeTable } from './route-table-lib.js';

writeOrCheck(
  new URL('../src/facade/routes/table.generated.ts', import.meta.url),
  renderRouteTable(await routeTable(AREAS)),
  'scripts/route-table.ts',
);
