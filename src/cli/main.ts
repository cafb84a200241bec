#!/usr/bin/env node
/** `prospectdb <command> …`: one module per command, loaded on demand so start-up stays fast. */
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
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
  // Huge pages (Linux only) speed up the commands that read a database's saved indexes (`--db FILE`).
  if (process.platform === 'linux' && rest.some((a) => a === '--db' || a.startsWith('--db='))) {
    const code = await withHugePages(name, rest);
    if (code !== undefined) return code;
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

/**
 * Runs the command again in a child process with huge pages when that pays (`huge-pages.ts`) and
 * resolves with its exit code; in that child, follows the parent's signals. Undefined: run it here.
 */
async function withHugePages(name: string, rest: string[]): Promise<number | undefined> {
  const hugePages = await import('./huge-pages.js');
  if (process.env[hugePages.RESTARTED_ENV]) {
    // Not seen by the processes this one starts (the workers of `serve --workers N`).
    delete process.env[hugePages.RESTARTED_ENV];
    followParentSignals();
    return undefined;
  }
  const plan = hugePages.hugePagesPlan(name, rest, hugePages.hostFacts());
  return plan.restart ? restart(plan.env) : undefined;
}

/**
 * The signals the restarted child gets from its parent (`huge-pages.ts`): the stop and swap signals the
 * commands handle (SIGINT, SIGTERM, SIGHUP), and SIGUSR2, which ends a node process that does not
 * listen for it: sent to the PID its user sees, it ends both processes, as it ended the one before.
 */
const RELAYED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGUSR2'] as const;
type RelayedSignal = (typeof RELAYED_SIGNALS)[number];

/** The message that carries a signal from the parent to the restarted child. */
const SIGNAL_MESSAGE = 'prospectdb:signal';
/** The message by which the restarted child says it follows the parent's signal messages. */
const FOLLOWS_MESSAGE = 'prospectdb:follows';

/**
 * Runs this command again in a child node process with `env` added (the glibc tunable for huge pages),
 * the same arguments and standard streams, and resolves with its exit code; a child ended by a signal
 * ends this process by the same signal. The signals this process gets go to the child as messages on
 * an IPC channel, not as signals: Ctrl-C (and a kill of the process group, or of a systemd unit's
 * cgroup) reaches both processes, and the child drops a message for a signal that reached it directly
 * (`followParentSignals`), so that `serve` is asked to stop once, not stopped once and killed by the
 * second. Resolves undefined when the child could not start: the command then runs in this process.
 */
async function restart(env: Record<string, string>): Promise<number | undefined> {
  const { spawn } = await import('node:child_process');
  // Listening before the child exists: a signal that arrives while it starts is not the default kill
  // of this process alone. Until the child says it follows (`followParentSignals`), a signal goes to
  // it as a signal, which ends it as it would have ended this process.
  const early: RelayedSignal[] = [];
  let follows = false;
  let child: ChildProcess | undefined = undefined;
  // A child that follows gets messages only. Its channel closes only as it exits (Node closes it in
  // the process's teardown, after the command ended), so a closed channel or a failed send means the
  // signal is too late to matter; a raw signal then could still land in that teardown, after the
  // child's listeners are gone, and end a child that was exiting with 0 by that signal (seen once
  // under load: Ctrl-C of `serve`, the parent's relay handled after the child had stopped).
  const relay = (signal: RelayedSignal) => {
    if (!child) early.push(signal);
    else if (!follows) child.kill(signal);
    else if (child.connected) child.send({ [SIGNAL_MESSAGE]: signal }, () => {});
  };
  for (const signal of RELAYED_SIGNALS) process.on(signal, relay);
  child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  child.on('message', (message: unknown) => {
    if ((message as Record<string, unknown> | null)?.[FOLLOWS_MESSAGE] === true) follows = true;
  });
  for (const signal of early.splice(0)) relay(signal);
  return new Promise((resolve) => {
    const done = (code: number | undefined) => {
      for (const signal of RELAYED_SIGNALS) process.off(signal, relay);
      resolve(code);
    };
    // A spawn that failed has no pid; a later error (a signal that could not be sent) changes nothing.
    child.on('error', () => child.pid === undefined && done(undefined));
    child.once('exit', (code, signal) => {
      if (signal === null) return done(code ?? 1);
      for (const s of RELAYED_SIGNALS) process.off(s, relay);
      process.kill(process.pid, signal);
      // Only reached for a signal that does not end a node process by default.
      done(128 + ((constants.signals as Record<string, number>)[signal] ?? 0));
    });
  });
}

/**
 * In the restarted child: raises the signals the parent relays, except one that reached this process
 * directly too (within 2 s), and ends this process when the parent is gone. Installed before the
 * command adds its own listeners, so `onSignal` runs first and knows whether any other listener is
 * there: with none, it does what the signal does to a process without listeners (ends it).
 */
function followParentSignals(): void {
  const channel = process.channel;
  if (!channel || process.env.NODE_UNIQUE_ID !== undefined) return;
  const direct = new Map<RelayedSignal, number[]>();
  let relaying = false;
  const byDefault = (signal: RelayedSignal) => {
    process.off(signal, onSignal);
    process.kill(process.pid, signal);
  };
  const raise = (signal: RelayedSignal) => {
    if (process.listenerCount(signal) <= 1) return byDefault(signal);
    relaying = true;
    try {
      process.emit(signal, signal);
    } finally {
      relaying = false;
    }
  };
  const onSignal = (signal: RelayedSignal) => {
    if (relaying) return;
    if (process.listenerCount(signal) === 1) return byDefault(signal);
    direct.set(signal, [...(direct.get(signal) ?? []), Date.now()]);
  };
  for (const signal of RELAYED_SIGNALS) process.on(signal, onSignal);
  process.on('message', (message: unknown) => {
    const signal = (message as Record<string, unknown> | null)?.[SIGNAL_MESSAGE];
    if (!RELAYED_SIGNALS.includes(signal as RelayedSignal)) return;
    // Two turns of the event loop: a signal the kernel delivered to this process before the parent
    // sent the message (Ctrl-C reaches both at once) has run its listeners by then, even when this
    // process was busy.
    setImmediate(() =>
      setImmediate(() => {
        const now = Date.now();
        const seen = (direct.get(signal as RelayedSignal) ?? []).filter((t) => now - t < 2_000);
        direct.set(signal as RelayedSignal, seen.slice(1));
        if (seen.length === 0) raise(signal as RelayedSignal);
      }),
    );
  });
  // The parent outlives the child, unless something killed it (SIGKILL): stop as a SIGTERM stops.
  process.on('disconnect', () => raise('SIGTERM'));
  if (!process.connected) raise('SIGTERM');
  else process.send!({ [FOLLOWS_MESSAGE]: true });
  // Neither the channel nor these listeners keep the process running.
  channel.unref();
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
