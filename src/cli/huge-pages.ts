/**
 * Transparent huge pages for the commands that read a large file's saved indexes. Reading a saved
 * index copies hundreds of MB into freshly allocated memory, and on Linux most of that time is page
 * faults on 4 KB pages. Where transparent huge pages are in `madvise` mode (the Ubuntu/Debian default),
 * glibc 2.35 and later asks for huge pages on its large allocations when the tunable
 * `glibc.malloc.hugetlb=1` is set; glibc reads tunables only when a process starts, so the CLI starts
 * itself again in a child process with it (`main.ts`). This module decides whether that pays; it does
 * no I/O of its own: the facts it may need come in as functions, called only when the cheaper checks
 * before them passed (the glibc version costs a diagnostic report, ~5 ms).
 *
 * @example
 * const plan = hugePagesPlan('serve', ['--db', 'big.db'], hostFacts());
 * if (plan.restart) spawn(process.execPath, [...], { env: { ...process.env, ...plan.env } });
 */
import { readFileSync, statSync } from 'node:fs';

/** `PROSPECTDB_HUGE_PAGES=0` never restarts; `=1` restarts whatever the file's size (where it works). */
export const HUGE_PAGES_ENV = 'PROSPECTDB_HUGE_PAGES';

/** Set in the restarted process, so it never restarts again. */
export const RESTARTED_ENV = 'PROSPECTDB_HUGE_PAGES_RESTARTED';

/** The glibc tunable; `GLIBC_TUNABLES` holds `name=value` pairs joined with ':'. */
export const HUGETLB_TUNABLE = 'glibc.malloc.hugetlb';

/**
 * The commands that open a database and read its saved indexes, and the smallest file each restarts
 * for: the child's start (a second node start, 0.1–0.25 s on a busy 2-core VM) must pay for itself.
 * `serve` reads every index before it listens (at 1M prospects, a 2.4 GB file, it listens 2 s sooner),
 * `mcp` and `match` read many over a session or a batch, `export` its search facets; `request` reads
 * only what one answer needs, which at 1M prospects gains no more than the start costs. Not `index`
 * and `load` (they build indexes rather than read them), nor `info`, `keys`, `credits`, `events`,
 * `migrate` (they read no index), nor `demo` (its file is small).
 */
export const INDEX_READING_COMMANDS: ReadonlyMap<string, number> = new Map([
  ['serve', 256 << 20],
  ['mcp', 256 << 20],
  ['match', 256 << 20],
  ['export', 256 << 20],
  ['request', 4 * 2 ** 30],
]);

/** What the decision may need to know about the host; the functions are called at most once, lazily. */
export interface HostFacts {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** Size in bytes of the file at `path`, or undefined when there is none. */
  fileSize(path: string): number | undefined;
  /** The selected mode of transparent huge pages (`always`, `madvise`, `never`), or undefined. */
  thpMode(): string | undefined;
  /** The glibc version this process runs on (`2.36`), or undefined when it is not glibc (musl). */
  glibcVersion(): string | undefined;
}

/** Why a command runs without the restart. */
export type NoRestart =
  | 'restarted' // this is the restarted process
  | 'cluster-worker' // a worker of `serve --workers`: it inherits its primary's environment
  | 'turned-off' // PROSPECTDB_HUGE_PAGES=0
  | 'not-linux'
  | 'command' // the command reads no saved index
  | 'no-db' // no --db option (the command prints its usage)
  | 'tunable-set' // GLIBC_TUNABLES already sets glibc.malloc.hugetlb
  | 'small-file' // below the command's size in INDEX_READING_COMMANDS, or no such file
  | 'thp-always' // every large allocation gets huge pages already
  | 'thp-unavailable' // transparent huge pages `never`, or not readable
  | 'old-glibc'; // not glibc, or older than 2.35

export type HugePagesPlan =
  | { restart: true; env: { GLIBC_TUNABLES: string; [RESTARTED_ENV]: '1' } }
  | { restart: false; reason: NoRestart };

/** The value of `--db` in a command's arguments (`--db FILE` or `--db=FILE`, the last one wins). */
export function dbOption(args: readonly string[]): string | undefined {
  let db: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === '--db') db = args[++i];
    else if (arg.startsWith('--db=')) db = arg.slice('--db='.length);
  }
  return db || undefined;
}

/** Whether glibc `version` (`2.36`) is 2.35 or later, the first to read `glibc.malloc.hugetlb`. */
export function glibcHasHugetlb(version: string | undefined): boolean {
  const m = version === undefined ? null : /^(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 2 || (major === 2 && minor >= 35);
}

/**
 * Whether `prospectdb <command> …args` should start again in a child process with
 * `glibc.malloc.hugetlb=1`, and the variables to add to its environment: an existing `GLIBC_TUNABLES`
 * keeps its tunables, one that sets `glibc.malloc.hugetlb` (to anything) is left as the user set it.
 */
export function hugePagesPlan(command: string, args: readonly string[], host: HostFacts): HugePagesPlan {
  const { env } = host;
  const no = (reason: NoRestart): HugePagesPlan => ({ restart: false, reason });
  if (env[RESTARTED_ENV]) return no('restarted');
  if (env.NODE_UNIQUE_ID !== undefined) return no('cluster-worker');
  const wanted = env[HUGE_PAGES_ENV];
  if (wanted === '0') return no('turned-off');
  if (host.platform !== 'linux') return no('not-linux');
  const minBytes = INDEX_READING_COMMANDS.get(command);
  if (minBytes === undefined) return no('command');
  const db = dbOption(args);
  if (db === undefined) return no('no-db');
  const tunables = env.GLIBC_TUNABLES ?? '';
  const list = tunables.split(':').filter((t) => t !== '');
  if (list.some((t) => t.startsWith(`${HUGETLB_TUNABLE}=`))) return no('tunable-set');
  if (wanted !== '1' && !((host.fileSize(db) ?? 0) >= minBytes)) return no('small-file');
  const mode = host.thpMode();
  if (mode === 'always') return no('thp-always');
  if (mode !== 'madvise') return no('thp-unavailable');
  if (!glibcHasHugetlb(host.glibcVersion())) return no('old-glibc');
  return {
    restart: true,
    env: { GLIBC_TUNABLES: [...list, `${HUGETLB_TUNABLE}=1`].join(':'), [RESTARTED_ENV]: '1' },
  };
}

/** The selected word of a `/sys/kernel/mm/transparent_hugepage/enabled` line: `always [madvise] never`. */
export function selectedMode(text: string): string | undefined {
  return /\[(\w+)\]/.exec(text)?.[1];
}

/** The facts of this process and host, read on demand. */
export function hostFacts(env: NodeJS.ProcessEnv = process.env): HostFacts {
  return {
    platform: process.platform,
    env,
    fileSize(path) {
      try {
        return statSync(path).size;
      } catch {
        return undefined;
      }
    },
    thpMode() {
      try {
        return selectedMode(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'));
      } catch {
        return undefined;
      }
    },
    glibcVersion() {
      const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
      return report?.header?.glibcVersionRuntime;
    },
  };
}

/** `256 MB`, `4 GB`. */
const size = (bytes: number) => (bytes >= 1 << 30 ? `${bytes / 2 ** 30} GB` : `${bytes / 2 ** 20} MB`);

/**
 * One line on whether huge pages speed up reading the saved indexes of the file at `db` (for
 * `prospectdb info`): `on for serve, …` or `off: why`.
 */
export function describeHugePages(db: string, host: HostFacts): string {
  // Read once for all the commands asked about.
  const once = <T>(read: () => T) => {
    let value: { v: T } | undefined;
    return () => (value ??= { v: read() }).v;
  };
  const fileSize = once(() => host.fileSize(db));
  const facts: HostFacts = {
    ...host,
    env: { ...host.env, [RESTARTED_ENV]: undefined },
    fileSize,
    thpMode: once(() => host.thpMode()),
    glibcVersion: once(() => host.glibcVersion()),
  };
  const plans = [...INDEX_READING_COMMANDS.keys()].map(
    (c) => [c, hugePagesPlan(c, ['--db', db], facts)] as const,
  );
  const on = plans.filter(([, plan]) => plan.restart).map(([c]) => c);
  const first = plans.find(([, plan]) => plan.restart)?.[1] ?? plans[0]![1];
  if (first.restart)
    return `on for ${on.join(', ')}: restarted with GLIBC_TUNABLES=${first.env.GLIBC_TUNABLES} (${HUGE_PAGES_ENV}=0 turns it off)`;
  switch (first.reason) {
    case 'tunable-set': {
      const set = (host.env.GLIBC_TUNABLES ?? '')
        .split(':')
        .filter((t) => t.startsWith(`${HUGETLB_TUNABLE}=`));
      return `${set.at(-1) === `${HUGETLB_TUNABLE}=0` ? 'off' : 'on'}: GLIBC_TUNABLES sets ${set.at(-1)}`;
    }
    case 'thp-always':
      return 'on: transparent huge pages are always on here';
    case 'turned-off':
      return `off: ${HUGE_PAGES_ENV}=0`;
    case 'not-linux':
      return 'off: Linux only';
    case 'small-file': {
      const least = Math.min(...INDEX_READING_COMMANDS.values());
      return `off: the file is below ${size(least)} (${HUGE_PAGES_ENV}=1 turns it on)`;
    }
    case 'thp-unavailable':
      return 'off: transparent huge pages are not available (/sys/kernel/mm/transparent_hugepage/enabled)';
    case 'old-glibc':
      return 'off: needs glibc 2.35 or later';
    default:
      return `off (${first.reason})`;
  }
}
