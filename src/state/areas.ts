/** Every area of the state store, in the order their tables are made (keys refer to accounts). */
import { ACCOUNT_MIGRATIONS, ACCOUNT_SCHEMA } from '../store/sql/accounts.js';
import { JOBS_MIGRATIONS, JOBS_SCHEMA } from '../store/sql/jobs.js';
import { OAUTH_SCHEMA } from '../store/sql/oauth.js';
import { EVENTS_ACCOUNT_DDL, WEBHOOK_MIGRATIONS } from '../store/sql/webhooks.js';
import type { StateArea } from './db.js';

export const STATE_AREAS: readonly StateArea[] = [
  { name: 'accounts', ddl: ACCOUNT_SCHEMA, migrations: ACCOUNT_MIGRATIONS },
  { name: 'jobs', ddl: JOBS_SCHEMA, migrations: JOBS_MIGRATIONS },
  { name: 'oauth', ddl: OAUTH_SCHEMA },
  { name: 'webhooks', ddl: EVENTS_ACCOUNT_DDL, migrations: WEBHOOK_MIGRATIONS },
];
