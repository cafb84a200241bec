#!/usr/bin/env node
/** `prospectdb <command> …`: one module per command, loaded on demand so start-up stays fast. */
import { isEngineError } from '../errors.js';

type CommandModule = { run(argv: string[]): Promise<number> };

type Command = {
  summary: string;
  load: () => Promise<CommandModule>;
  /** Opens a database: takes the shared `--state` option. */
  engine?: true;
};

const COMMANDS: Record<string, Command> = {
  generate: { summary: 'write a seeded synthetic snapshot', load: () => loadTool('generate') },
  load: {
    summary: 'load a snapshot folder into a database file',
    load: () => import('./commands/load.js'),
    engine: true,
  },
  migrate: {
    summary: 'rewrite a database of an older layout into the current one',
    load: () => import('./commands/migrate.js'),
  },
  index: {
    summary: 'build every index of a database file and save it there',
    load: () => import('./commands/index.js'),
    engine: true,
  },
  info: {
    summary: 'counts, as_of and format version of a database',
    load: () => import('./commands/info.js'),
    engine: true,
  },
  match: {
    summary: 'match a CSV/JSONL file of businesses or prospects to ids',
    load: () => import('./commands/match.js'),
    engine: true,
  },
  serve: {
    summary: 'serve the HTTP-compatible API over a database',
    load: () => import('./commands/serve.js'),
    engine: true,
  },
  request: {
    summary: 'send one request to the facade without a socket',
    load: () => import('./commands/request.js'),
    engine: true,
  },
  export: {
    summary: 'export every matching record to JSON Lines, CSV or Parquet',
    load: () => import('./commands/export.js'),
    engine: true,
  },
  keys: {
    summary: 'create, list and revoke API keys',
    load: () => import('./commands/keys.js'),
    engine: true,
  },
  credits: {
    summary: 'grant credits to an account',
    load: () => import('./commands/credits.js'),
    engine: true,
  },
  mcp: {
    summary: 'serve the agent tools to a local MCP client over stdio',
    load: () => import('./commands/mcp.js'),
    engine: true,
  },
  events: {
    summary: 'ingest events (webhook deliveries follow)',
    load: () => import('./commands/events.js'),
    engine: true,
  },
  bench: {
    summary: 'measure this machine beside same-run baselines; report in Markdown, HTML and JSON',
    load: () => loadTool('bench'),
  },
  demo: {
    summary: 'serve the demo snapshot with a demo account (npm start)',
    load: () => import('./commands/demo.js'),
    engine: true,
  },
};

/** A development tool that is not in the installed package (package.json "files" leaves tools out). */
class ToolMissing extends Error {}

/**
 * The development tools (`generate`, `bench`) live in tools/, outside the library, its build and its
 * package: from a checkout they load from source when the CLI runs from source (tsx), else from their
 * build in dist-tools/ (`npm run build:tools`). Loaded by a computed URL, so the library's import graph
 * never holds them.
 */
async function loadTool(name: 'generate' | 'bench'): Promise<CommandModule> {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fromSource ? `../../tools/${name}/command.ts` : `../../dist-tools/tools/${name}/command.js`;
  const url = new URL(path, import.meta.url);
  try {
    return (await import(url.href)) as CommandModule;
  } catch (e) {
    const { existsSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    if (existsSync(fileURLToPath(url))) throw e;
    throw new ToolMissing(
      `'${name}' is a development tool, not part of the installed package. From a checkout of the ` +
        `repository: npm run build:tools, then prospectdb ${name} …; or npm run ${name} -- …`,
    );
  }
}

/** The shared option in the top-level usage (its full help is `state-option.ts`, shown with a command's). */
const STATE_USAGE = `option of every command that opens a database:
  --state FILE|postgres://USER:PASSWORD@HOST:PORT/DB   the state store (accounts, keys, credits, webhooks,
      jobs, OAuth); default beside the --db snapshot. PROSPECTDB_STATE=… does the same.`;

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: prospectdb <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nprospectdb <command> --help shows the options of a command.\n\n${STATE_USAGE}`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`prospectdb: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  if (!command.engine) return (await command.load()).run(rest);
  const { STATE_ENV, STATE_HELP, takeStateOption } = await import('./state-option.js');
  const taken = takeStateOption(rest);
  if (!taken.ok) {
    console.error(`prospectdb ${name}: ${taken.error}`);
    return 2;
  }
  if (taken.state !== undefined) process.env[STATE_ENV] = taken.state;
  const code = await (await command.load()).run(taken.args);
  if (taken.args.includes('--help') || taken.args.includes('-h')) console.error(`\n${STATE_HELP}`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (isEngineError(e)) console.error(`prospectdb: ${e.message} [${e.code}]`);
    else if (e instanceof ToolMissing) console.error(`prospectdb: ${e.message}`);
    else if (
      e instanceof Error &&
      e.name === 'TypeError' &&
      'code' in e &&
      String(e.code).startsWith('ERR_PARSE_ARGS')
    )
      console.error(`prospectdb: ${e.message}`);
    else console.error(e);
    process.exitCode = 1;
  },
);
