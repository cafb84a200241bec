/**
 * The import rules of src/ (the library) and tools/ (the generator and the bench command), checked by
 * `npm run lint` (dependency-cruiser, type imports included). They are the README's data-flow picture
 * (docs/ARCHITECTURE.md says them in words): each layer imports only the layers below it; no import
 * circle anywhere; `engine.ts` is the composition root, imported only from above it. The tools sit above
 * every layer: they may import the library, the library never imports them.
 */

/** Bottom to top. A file may import its own layer and the layers below it, never one above. */
const LAYERS = [
  ['base', '^src/(errors\\.ts$|demo-snapshot\\.ts$|schemas/)'],
  ['normalise', '^src/normalise/'],
  ['snapshot', '^src/snapshot/'],
  ['store', '^src/store/'],
  // The state store (SQLite or PostgreSQL) behind one async SQL port; its SQL is in store/sql.
  ['state', '^src/state/'],
  ['runtime', '^src/runtime/'],
  ['indexes', '^src/indexes/'],
  ['account', '^src/account/'],
  // The webhooks slice (registry, enrollments, outbox, delivery worker): an ingested event (core)
  // queues its deliveries here.
  ['webhooks', '^src/webhooks/'],
  ['core', '^src/core/'],
  // The jobs slice (uploads, job state, worker): its batches run core operations.
  ['jobs', '^src/jobs/'],
  // File writers (JSON Lines, CSV, Parquet) over core's export iterators, for the command line and notebooks.
  ['export', '^src/export/'],
  ['facade', '^src/facade/'],
  ['root', '^src/engine\\.ts$'],
  ['adapters', '^src/(http|mcp)/'],
  // Where the two adapters meet: the HTTP server with the agent tool server mounted on it, in one
  // process or in many worker processes (serve/cluster.ts).
  ['serve', '^src/serve/(index|cluster)\\.ts$'],
  // The entries: the package (index.ts) and its functions (`api/`: each checks its input before it calls
  // the core), `prospectdb/server` (serve/server.ts, serve/on-demand.ts), the CLI.
  ['top', '^src/(cli/|api/|index\\.ts$|serve/(server|on-demand)\\.ts$)'],
  ['tools', '^tools/'],
];

/** Known exceptions, each one import (from file → to file), to be removed rather than added to. None today. */
const EXCEPTIONS = [];

/**
 * `rule`, with each exception's file held to it for every import but the excepted one: the rule skips
 * the file, and a copy of the rule checks the file with the excepted target left out.
 */
function withExceptions(rule) {
  const rules = [rule];
  for (const [from, to] of EXCEPTIONS) {
    const file = from.replace(/^\^|\$$/g, '').replace(/\\/g, '');
    const inRule =
      new RegExp(rule.from.path).test(file) &&
      !(rule.from.pathNot && new RegExp(rule.from.pathNot).test(file));
    if (!inRule) continue;
    rule.from = { ...rule.from, pathNot: [rule.from.pathNot, from].filter(Boolean).join('|') };
    rules.push({
      ...rule,
      name: `${rule.name}-except`,
      from: { path: from },
      to: { ...rule.to, pathNot: [rule.to.pathNot, to].filter(Boolean).join('|') },
    });
  }
  return rules;
}

const upward = LAYERS.slice(0, -1).flatMap(([name, path], i) =>
  withExceptions({
    name: `no-upward-from-${name}`,
    severity: 'error',
    comment: `${name} (${path}) imports only its own layer and the layers below it`,
    from: { path },
    to: {
      path: LAYERS.slice(i + 1)
        .map(([, p]) => p)
        .join('|'),
    },
  }),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import circle in src/ or tools/ (type imports included)',
      from: { path: '^(src|tools)/' },
      to: { circular: true },
    },
    ...upward,
  ],
  options: {
    // Type-only imports count: a circle of types is still a circle of modules.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    includeOnly: '^(src|tools)/',
  },
};
