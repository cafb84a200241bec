/**
 * vitest global setup: one throwaway PostgreSQL server for the whole run (see `postgres.ts`); its URL
 * reaches the test files as `inject('postgresUrl')`. Stopped when the run ends.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
