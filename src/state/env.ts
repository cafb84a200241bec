/** The environment variable naming the state store when the engine's `state` option is not given. */
export const STATE_ENV = 'PROSPECTDB_STATE';
