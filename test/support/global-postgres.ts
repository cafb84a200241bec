/**
 * vitest global setup of the `postgres` project: one throwaway PostgreSQL server for the project's
 * files (see `postgres.ts`); its URL reaches them as `inject('postgresUrl')`. Stopped when the run ends.
 *
 * A server that cannot start fails the run before any of these files runs, with the reason and what to
 * do (a green run must not hide that half of the state suites did not run); `npm run test:quick` and
 * `vitest run --project unit --project integration` need no server.
 */
import type { TestProject } from 'vitest/node';
import { PostgresUnavailable, startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    const server = await startPostgres();
    project.provide('postgresUrl', server.url);
    return () => server.stop();
  } catch (err) {
    if (!(err instanceof PostgresUnavailable)) throw err;
    const message =
      `The PostgreSQL server for the state-store tests could not be started: ${err.message}\n` +
      'The tests that need no server still run with `npm run test:quick` ' +
      '(or `npx vitest run --project unit --project integration`).';
    const failure = new Error(message);
    failure.stack = message; // the reason is the message; a stack trace of the setup would only hide it
    throw failure;
  }
}
