/**
 * The shape of one numbered migration of a state area (`src/state/schema.ts` runs them): the SQL that
 * brings a store made by an older version up to this one, in each dialect. Declared here, under the
 * areas' statements, so that `store/sql` need not import the state layer above it.
 */
export interface StateMigration {
  readonly version: number;
  readonly sqlite: string;
  readonly postgres: string;
}
