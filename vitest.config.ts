import { randomBytes } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Three projects (`npx vitest run --project <name>`):
 * - `unit`: in-process unit and property tests, no server and no child process: `npm run test:quick`
 *   (which also sends 1,000 fuzz requests instead of 10,000);
 * - `integration`: tests that start servers, CLIs or child processes, build the package, or run whole
 *   pipelines over generated, demo or real data;
 * - `postgres`: the suites that also run against PostgreSQL: the only project that starts a server
 *   (one for its files, `test/support/global-postgres.ts`).
 * Every test file writes its temp files into a folder of its own (`TMPDIR`), which must be empty when
 * the file ends (`test/support/setup-temp.ts`, `test/support/global-temp.ts`).
 */
const POSTGRES = [
  'test/accounts.state.test.ts',
  'test/cli.state.test.ts',
  'test/engine.test.ts',
  'test/enrollments.test.ts',
  'test/events.test.ts',
  'test/facade.test.ts',
  'test/jobs.test.ts',
  'test/mcp.http.test.ts',
  'test/scaleout.test.ts',
  'test/state.test.ts',
  'test/webhooks.test.ts',
];
const INTEGRATION = [
  // servers, CLIs, child processes, the built package
  'test/bench-cli.test.ts',
  'test/cluster.test.ts',
  'test/demo.test.ts',
  'test/docs.test.ts',
  'test/http.test.ts',
  'test/huge-pages.cli.test.ts',
  'test/mcp.stdio.test.ts',
  'test/migrate.test.ts',
  'test/package.test.ts',
  'test/research.test.ts',
  'test/server.hardening.test.ts',
  'test/server.responsive.test.ts',
  'test/ssrf.test.ts',
  'test/swap.test.ts',
  // whole pipelines over generated, demo or real data, files written and read back (the slowest files)
  'test/company-cap.test.ts',
  'test/delta.test.ts',
  'test/evaluate.test.ts',
  'test/export.parquet.test.ts',
  'test/export.test.ts',
  'test/generate.test.ts',
  'test/index-format.saved.test.ts',
  'test/live-examples.test.ts',
  'test/load.threads.test.ts',
  'test/match.curve.test.ts',
  'test/match.persons.real.test.ts',
  'test/match.quality.test.ts',
  'test/match.real.test.ts',
  'test/match.self.test.ts',
  'test/saved-index.test.ts',
  'test/search.demo.test.ts',
];

/**
 * The longest files (6–55 s each on 2 cores, the rest under 6 s), longest first, started first. vitest
 * orders files by the durations it recorded in earlier runs, but a fresh clone (as CI runs) has none,
 * and it then starts the largest files first: a long file started late held the end of the run alone
 * (308 s on a fresh clone against ~250 s in a checkout that had run before). Keep it to the files of
 * the last runs' top durations (`node_modules/.vite/vitest/<hash>/results.json`).
 */
const LONGEST = [
  'test/docs.test.ts',
  'test/migrate.test.ts',
  'test/scaleout.test.ts',
  'test/webhooks.test.ts',
  'test/package.test.ts',
  'test/saved-index.test.ts',
  'test/jobs.test.ts',
  'test/huge-pages.cli.test.ts',
  'test/cluster.test.ts',
  'test/mcp.http.test.ts',
  'test/export.test.ts',
  'test/match.self.test.ts',
  'test/swap.test.ts',
  'test/load.test.ts',
  'test/server.responsive.test.ts',
];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONGEST.length : i;
    };
    // Array sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/** One temp folder per project and run, beside the others in the system temp folder. */
const run = randomBytes(4).toString('hex');
const tempFor = (project: string) => ({
  PROSPECTDB_TEST_TMPDIR: join(tmpdir(), `prospectdb-test-${run}-${project}`),
  PROSPECTDB_SYSTEM_TMPDIR: tmpdir(),
});

const common = {
  // Child processes, not threads: a test's native handles (better-sqlite3), working folder and signal
  // handlers stay out of vitest's own process.
  pool: 'forks' as const,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  setupFiles: ['test/support/setup-temp.ts'],
  // One module graph per worker, not per file: importing the sources again for each file cost more
  // CPU than most of their tests (half the integration and postgres projects' import time). Safe
  // because the files share no mutable module state: what src keeps at module level is caches of
  // constant things (the route table, compiled schemas, codecs keyed by database) and scratch buffers
  // reset on each call, and test/support keeps none that outlives a file (a temp folder is made again
  // when the file that made it removed it); the setup file still runs per file (its own temp folder
  // and leak check).
  isolate: false,
};

export default defineConfig({
  test: {
    // One test file per core. vitest's default keeps a core for its own process (cores − 1), which on a
    // 2-core machine ran the files one at a time; the main process only collects results.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          ...common,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...POSTGRES, ...INTEGRATION],
          env: tempFor('unit'),
          globalSetup: ['test/support/global-temp.ts'],
        },
      },
      {
        extends: true,
        test: {
          ...common,
          name: 'integration',
          include: INTEGRATION,
          env: tempFor('integration'),
          globalSetup: ['test/support/global-temp.ts', 'test/support/global-build.ts'],
        },
      },
      {
        extends: true,
        test: {
          ...common,
          name: 'postgres',
          include: POSTGRES,
          env: tempFor('postgres'),
          globalSetup: [
            'test/support/global-temp.ts',
            'test/support/global-build.ts',
            'test/support/global-postgres.ts',
          ],
        },
      },
    ],
  },
});
