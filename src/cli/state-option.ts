/**
 * `--state FILE|postgres://…`: the one option every command that opens a database shares, taken off the
 * command line here (once, in `main.ts`, which loads this module only for such a command) so no command parses it. It names the state store (accounts,
 * keys, credits, webhooks, jobs, OAuth) for every engine the command opens, through the
 * `PROSPECTDB_STATE` environment variable that `openEngine` reads when no `state` option is given: the
 * worker processes a command forks inherit it, and a deployment can set the variable instead of the
 * flag to keep a password out of the process list.
 */

import { STATE_ENV } from '../state/env.js';

export { STATE_ENV };

export const STATE_HELP = `state store (every command that opens a database):
  --state FILE|postgres://USER:PASSWORD@HOST:PORT/DB
      where accounts, keys, credits, webhooks, jobs and OAuth live. Default: beside the --db snapshot
      (a single-file database made before the split keeps them in its own file). A postgres:// URL
      shares them between processes and machines; the database must exist, the tables are made and
      migrated on open. ${STATE_ENV}=… does the same as --state (and keeps a password out of ps).`;

export type StateOption =
  { ok: true; state: string | undefined; args: string[] } | { ok: false; error: string };

/** Removes `--state VALUE` / `--state=VALUE` from a command's arguments (not after a `--`). */
export function takeStateOption(args: readonly string[]): StateOption {
  const rest: string[] = [];
  let state: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    let value: string | undefined;
    if (arg === '--state') {
      value = args[++i];
      if (value === undefined || value.startsWith('--'))
        return { ok: false, error: '--state needs a value: a SQLite file or a postgres:// URL' };
    } else if (arg.startsWith('--state=')) value = arg.slice('--state='.length);
    else {
      rest.push(arg);
      continue;
    }
    if (value === '')
      return { ok: false, error: '--state needs a value: a SQLite file or a postgres:// URL' };
    state = value;
  }
  return { ok: true, state, args: rest };
}
