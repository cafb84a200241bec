/** `prospectdb mcp --db FILE --api-key KEY`: the agent tool server on stdio (for local MCP clients). */
import { parseArgs } from 'node:util';
import { openEngine } from '../../engine.js';
import { serveStdio } from '../../mcp/stdio.js';

const HELP = `usage: prospectdb mcp --db FILE [--api-key KEY]

Serves the prospectdb tools (match, fetch, stats, autocomplete, events, enrichments, research, credits)
to a local MCP client over stdin/stdout. The API key identifies the account whose credits the tools
spend; it may also come from the PROSPECTDB_API_KEY environment variable (keeps it out of process
listings). stdout carries the protocol only; messages go to stderr.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      'api-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const apiKey = values['api-key'] ?? process.env.PROSPECTDB_API_KEY;
  if (values.help || !values.db || !apiKey) {
    console.error(HELP);
    return values.help ? 0 : 2;
  }
  const engine = openEngine({ path: values.db });
  try {
    await serveStdio(engine, apiKey);
    return 0;
  } finally {
    engine.close();
  }
}
