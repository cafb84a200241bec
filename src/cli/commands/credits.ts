/** `prospectdb credits grant --db FILE ACCOUNT N` (and `credits balance --db FILE ACCOUNT`). */
import { parseArgs } from 'node:util';
import { balance, grantCredits } from '../../account/accounts.js';
import { openEngine } from '../../engine.js';

const HELP = `usage:
  prospectdb credits grant --db FILE ACCOUNT_ID N     adds N credits (a ledger grant), prints the balance
  prospectdb credits balance --db FILE ACCOUNT_ID`;

export async function run(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { db: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [account, n] = positionals;
  const valid =
    values.db &&
    account &&
    ((action === 'grant' && n !== undefined && /^\d+$/.test(n)) || action === 'balance');
  if (values.help || !valid) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
  const engine = openEngine({ path: values.db });
  try {
    console.log(
      action === 'grant' ? await grantCredits(engine, account, Number(n)) : await balance(engine, account),
    );
    return 0;
  } finally {
    engine.close();
  }
}
