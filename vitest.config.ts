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
 * The order the files start in: the projects one after the other, `unit` first, the longest files of
 * each project first (`LONGEST`, longest first; the rest in vitest's order). Why:
 * - With `isolate: false` a worker runs the next file in the module graph it has loaded only when that
 *   file is of the same project; at a change of project vitest ends the worker and starts another,
 *   which imports the sources again (3–5 s of CPU). Files ordered longest first across the projects
 *   changed project a dozen times (≈20 new workers, ~40 s of the run on 2 cores); grouped, twice.
 * - `unit` first: it needs no build, and runs beside the one the other two projects' global setup
 *   starts in the background on a fresh clone (`test/support/global-build.ts`); their files wait for it.
 * - Longest first within a project: vitest orders files by the durations it recorded in earlier runs,
 *   but a fresh clone (as CI runs) has none, and it then starts the largest files first: a long file
 *   started late held the end of the run alone (308 s on a fresh clone against ~250 s in a checkout
 *   that had run before). `LONGEST` holds the files of the last runs' top durations (6–55 s each on 2
 *   cores, `node_modules/.vite/vitest/<hash>/results.json`); the project ending the run ends with short
 *   files, so the two workers end together.
 */
const PROJECT_ORDER = ['unit', 'integration', 'postgres'];
const LONGEST = [
  // integration
  'test/docs.test.ts',
  'test/migrate.test.ts',
  'test/huge-pages.cli.test.ts',
  'test/export.test.ts',
  'test/saved-index.test.ts',
  'test/package.test.ts',
  'test/match.self.test.ts',
  'test/swap.test.ts',
  'test/cluster.test.ts',
  'test/http.test.ts',
  'test/server.responsive.test.ts',
  // postgres
  'test/webhooks.test.ts',
  'test/scaleout.test.ts',
  'test/jobs.test.ts',
  'test/mcp.http.test.ts',
  // unit
  'test/fuzz.test.ts',
  'test/load.test.ts',
  'test/load.validate.test.ts',
  'test/match.persons.calibration.test.ts',
  'test/api.boundary.test.ts',
];
class ProjectsLongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const project = (f: TestSpecification) => {
      const i = PROJECT_ORDER.indexOf(f.project.name);
      return i < 0 ? PROJECT_ORDER.length : i;
    };
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONGEST.length : i;
    };
    // Array sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => project(a) - project(b) || rank(a) - rank(b));
  }
}

/**
 * One temp folder per project and run, beside the others in the system temp folder; and one per run
 * for the demo snapshot the projects' files load once (`test/support/demo.ts`).
 */
const run = randomBytes(4).toString('hex');
const tempFor = (project: string) => ({
  PROSPECTDB_TEST_TMPDIR: join(tmpdir(), `prospectdb-test-${run}-${project}`),
  PROSPECTDB_DEMO_CACHE: join(tmpdir(), `prospectdb-test-${run}-demo`),
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
    sequence: { sequencer: ProjectsLongestFirst },
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
          setupFiles: [...common.setupFiles, 'test/support/setup-build.ts'],
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
          setupFiles: [...common.setupFiles, 'test/support/setup-build.ts'],
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
