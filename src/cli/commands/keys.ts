/**
 * `prospectdb keys create|list|revoke --db FILE`: accounts and API keys. A key is printed once, at
 * creation; the database keeps only its SHA-256 hash and visible prefix.
 */
import { parseArgs } from 'node:util';
import { createAccount, issueKey, listAccounts, listKeys, revokeKey } from '../../account/accounts.js';
import { openEngine } from '../../engine.js';

const HELP = `usage:
  prospectdb keys create --db FILE --name NAME [--partner-id ID] [--credits N] [--paid] [--entitlement E]…
      creates an account (trial, 100 credits unless --credits) and prints its first key
  prospectdb keys create --db FILE --account ACCOUNT_ID [--key-name NAME]
      issues another key for an existing account
  prospectdb keys list --db FILE [--account ACCOUNT_ID] [--json]
  prospectdb keys revoke --db FILE KEY_ID_OR_PREFIX`;

export async function run(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      name: { type: 'string' },
      'partner-id': { type: 'string' },
      credits: { type: 'string' },
      paid: { type: 'boolean', default: false },
      entitlement: { type: 'string', multiple: true },
      account: { type: 'string' },
      'key-name': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.db || !action || !['create', 'list', 'revoke'].includes(action)) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
  const engine = openEngine({ path: values.db });
  try {
    if (action === 'create') {
      if (values.account) {
        const key = await issueKey(engine, values.account, values['key-name']);
        console.log(key);
        console.error('prospectdb: key shown once; store it now');
        return 0;
      }
      if (!values.name) {
        console.error(HELP);
        return 2;
      }
      const credits = values.credits === undefined ? undefined : Number(values.credits);
      const created = await createAccount(engine, {
        name: values.name,
        partner_id: values['partner-id'],
        credits,
        account_type: values.paid ? 'paid' : 'trial',
        entitlements: values.entitlement,
        key_name: values['key-name'],
      });
      if (values.json) console.log(JSON.stringify(created, null, 2));
      else {
        console.log(created.api_key);
        console.error(
          `prospectdb: account ${created.account_id} (partner ${created.partner_id}); key shown once`,
        );
      }
      return 0;
    }
    if (action === 'list') {
      const keys = await listKeys(engine, values.account);
      if (values.json) {
        console.log(JSON.stringify({ accounts: await listAccounts(engine), keys }, null, 2));
        return 0;
      }
      for (const k of keys) {
        const state = k.revoked_at ? `revoked ${k.revoked_at}` : 'active';
        console.log(
          `${k.prefix}…  ${k.key_id}  ${k.account_id}  ${k.name ?? '-'}  ${k.created_at}  ${state}`,
        );
      }
      return 0;
    }
    const target = positionals[0];
    if (!target) {
      console.error(HELP);
      return 2;
    }
    if (!(await revokeKey(engine, target))) {
      console.error(`prospectdb: no key '${target}'`);
      return 1;
    }
    console.error(`prospectdb: revoked ${target}`);
    return 0;
  } finally {
    engine.close();
  }
}
