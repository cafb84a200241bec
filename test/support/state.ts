/**
 * The two state stores every state suite runs against (one shared suite, two implementations): the
 * embedded SQLite default and PostgreSQL on the run's throwaway server (`global-postgres.ts`), each
 * test on a database of its own.
 *
 * @example describe.each(STATE_KINDS)('credits (%s state)', (kind) => {
 *   it('…', async () => { const engine = await openTestEngine(kind, { clock }); … });
 * });
 */
import { inject } from 'vitest';
import { openEngine, type Engine, type EngineOptions } from '../../src/engine.js';
import { freshDatabase } from './postgres.js';

export type StateKind = 'sqlite' | 'postgres';
export const STATE_KINDS: readonly StateKind[] = ['sqlite', 'postgres'];

/** The `state` option for a fresh store of `kind` (undefined: the embedded default). */
export async function stateFor(kind: StateKind): Promise<string | undefined> {
  return kind === 'postgres' ? freshDatabase(inject('postgresUrl')) : undefined;
}

/** An engine (in memory unless `options.path` says otherwise) on a fresh state store of `kind`, ready. */
export async function openTestEngine(kind: StateKind, options: EngineOptions = {}): Promise<Engine> {
  const engine = openEngine({ ...options, state: options.state ?? (await stateFor(kind)) });
  await engine.state.ready();
  return engine;
}
