/**
 * The decision to restart the CLI with `glibc.malloc.hugetlb=1` (`src/cli/huge-pages.ts`): every rule,
 * the environment it hands the child, and which host facts it reads (the costly ones only when the
 * cheaper checks passed).
 */
import { describe, expect, it } from 'vitest';
import {
  dbOption,
  describeHugePages,
  glibcHasHugetlb,
  INDEX_READING_COMMANDS,
  hugePagesPlan,
  selectedMode,
  type HostFacts,
  type HugePagesPlan,
} from '../src/cli/huge-pages.js';

const BIG = 362 << 20;
const SERVE_MIN = INDEX_READING_COMMANDS.get('serve')!;
const REQUEST_MIN = INDEX_READING_COMMANDS.get('request')!;

interface Host {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  size?: number;
  thp?: string;
  glibc?: string;
}

/** Host facts from `host` (a Linux glibc 2.36 host in madvise mode with a 362 MB file by default), and which were read. */
function facts(host: Host = {}): { facts: HostFacts; read: string[] } {
  const read: string[] = [];
  return {
    read,
    facts: {
      platform: host.platform ?? 'linux',
      env: host.env ?? {},
      fileSize: (path) => {
        read.push(`size ${path}`);
        return 'size' in host ? host.size : BIG;
      },
      thpMode: () => {
        read.push('thp');
        return 'thp' in host ? host.thp : 'madvise';
      },
      glibcVersion: () => {
        read.push('glibc');
        return 'glibc' in host ? host.glibc : '2.36';
      },
    },
  };
}

const restart = (tunables: string): HugePagesPlan => ({
  restart: true,
  env: { GLIBC_TUNABLES: tunables, PROSPECTDB_HUGE_PAGES_RESTARTED: '1' },
});
const no = (reason: string) => ({ restart: false, reason });

describe('hugePagesPlan', () => {
  const cases: [string, string, string[], Host, HugePagesPlan | ReturnType<typeof no>, string[]][] = [
    // name, command, args, host, plan, facts read
    [
      'a large file in madvise mode',
      'serve',
      ['--db', 'big.db'],
      {},
      restart('glibc.malloc.hugetlb=1'),
      ['size big.db', 'thp', 'glibc'],
    ],
    [
      '--db=FILE',
      'request',
      ['GET', '/v2/x', '--db=big.db'],
      { size: 5 * 2 ** 30 },
      restart('glibc.malloc.hugetlb=1'),
      ['size big.db', 'thp', 'glibc'],
    ],
    [
      'request: exactly 4 GB',
      'request',
      ['GET', '/v2/x', '--db', 'a.db'],
      { size: REQUEST_MIN },
      restart('glibc.malloc.hugetlb=1'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      'request: one answer from a file below 4 GB',
      'request',
      ['GET', '/v2/x', '--db', 'a.db'],
      { size: REQUEST_MIN - 1 },
      no('small-file'),
      ['size a.db'],
    ],
    [
      'request, forced',
      'request',
      ['GET', '/v2/x', '--db', 'a.db'],
      { env: { PROSPECTDB_HUGE_PAGES: '1' } },
      restart('glibc.malloc.hugetlb=1'),
      ['thp', 'glibc'],
    ],
    [
      'exactly 256 MB',
      'match',
      ['--db', 'a.db'],
      { size: SERVE_MIN },
      restart('glibc.malloc.hugetlb=1'),
      ['size a.db', 'thp', 'glibc'],
    ],
    ['mcp', 'mcp', ['--db', 'a.db'], {}, restart('glibc.malloc.hugetlb=1'), ['size a.db', 'thp', 'glibc']],
    [
      'export',
      'export',
      ['--db', 'a.db', '--entity', 'prospects'],
      {},
      restart('glibc.malloc.hugetlb=1'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      'other tunables are kept',
      'serve',
      ['--db', 'a.db'],
      { env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' } },
      restart('glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      'empty tunables',
      'serve',
      ['--db', 'a.db'],
      { env: { GLIBC_TUNABLES: '' } },
      restart('glibc.malloc.hugetlb=1'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      'glibc 3.0',
      'serve',
      ['--db', 'a.db'],
      { glibc: '3.0' },
      restart('glibc.malloc.hugetlb=1'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      'glibc 2.35',
      'serve',
      ['--db', 'a.db'],
      { glibc: '2.35' },
      restart('glibc.malloc.hugetlb=1'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      '=1 forces a small file',
      'serve',
      ['--db', 'a.db'],
      { size: 1000, env: { PROSPECTDB_HUGE_PAGES: '1' } },
      restart('glibc.malloc.hugetlb=1'),
      ['thp', 'glibc'],
    ],
    [
      '=1 forces a missing file',
      'serve',
      ['--db', 'a.db'],
      { size: undefined, env: { PROSPECTDB_HUGE_PAGES: '1' } },
      restart('glibc.malloc.hugetlb=1'),
      ['thp', 'glibc'],
    ],
    [
      'another value is the default',
      'serve',
      ['--db', 'a.db'],
      { size: 1000, env: { PROSPECTDB_HUGE_PAGES: 'yes' } },
      no('small-file'),
      ['size a.db'],
    ],
    ['a small file', 'serve', ['--db', 'a.db'], { size: SERVE_MIN - 1 }, no('small-file'), ['size a.db']],
    ['a missing file', 'serve', ['--db', 'a.db'], { size: undefined }, no('small-file'), ['size a.db']],
    ['THP always', 'serve', ['--db', 'a.db'], { thp: 'always' }, no('thp-always'), ['size a.db', 'thp']],
    ['THP never', 'serve', ['--db', 'a.db'], { thp: 'never' }, no('thp-unavailable'), ['size a.db', 'thp']],
    [
      'no THP in the kernel',
      'serve',
      ['--db', 'a.db'],
      { thp: undefined },
      no('thp-unavailable'),
      ['size a.db', 'thp'],
    ],
    [
      '=1 does not force THP never',
      'serve',
      ['--db', 'a.db'],
      { thp: 'never', env: { PROSPECTDB_HUGE_PAGES: '1' } },
      no('thp-unavailable'),
      ['thp'],
    ],
    [
      'glibc 2.34',
      'serve',
      ['--db', 'a.db'],
      { glibc: '2.34' },
      no('old-glibc'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      'glibc 2.9',
      'serve',
      ['--db', 'a.db'],
      { glibc: '2.9' },
      no('old-glibc'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      'not glibc (musl)',
      'serve',
      ['--db', 'a.db'],
      { glibc: undefined },
      no('old-glibc'),
      ['size a.db', 'thp', 'glibc'],
    ],
    [
      '=1 does not force an old glibc',
      'serve',
      ['--db', 'a.db'],
      { glibc: '2.31', env: { PROSPECTDB_HUGE_PAGES: '1' } },
      no('old-glibc'),
      ['thp', 'glibc'],
    ],
    [
      'hugetlb set by the user',
      'serve',
      ['--db', 'a.db'],
      { env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' } },
      no('tunable-set'),
      [],
    ],
    [
      'hugetlb set among others',
      'serve',
      ['--db', 'a.db'],
      { env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2' } },
      no('tunable-set'),
      [],
    ],
    [
      "=1 keeps the user's hugetlb",
      'serve',
      ['--db', 'a.db'],
      { env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1', PROSPECTDB_HUGE_PAGES: '1' } },
      no('tunable-set'),
      [],
    ],
    ['=0', 'serve', ['--db', 'a.db'], { env: { PROSPECTDB_HUGE_PAGES: '0' } }, no('turned-off'), []],
    ['macOS', 'serve', ['--db', 'a.db'], { platform: 'darwin' }, no('not-linux'), []],
    [
      'Windows, forced',
      'serve',
      ['--db', 'a.db'],
      { platform: 'win32', env: { PROSPECTDB_HUGE_PAGES: '1' } },
      no('not-linux'),
      [],
    ],
    [
      'the restarted process',
      'serve',
      ['--db', 'a.db'],
      { env: { PROSPECTDB_HUGE_PAGES_RESTARTED: '1', PROSPECTDB_HUGE_PAGES: '1' } },
      no('restarted'),
      [],
    ],
    [
      'a cluster worker',
      'serve',
      ['--db', 'a.db'],
      { env: { NODE_UNIQUE_ID: '3' } },
      no('cluster-worker'),
      [],
    ],
    ['info reads no index', 'info', ['--db', 'a.db'], {}, no('command'), []],
    ['index builds them', 'index', ['--db', 'a.db'], {}, no('command'), []],
    ['load builds them', 'load', ['--db', 'a.db', 'snap'], {}, no('command'), []],
    ['keys', 'keys', ['list', '--db', 'a.db'], {}, no('command'), []],
    ['demo', 'demo', [], { env: { PROSPECTDB_HUGE_PAGES: '1' } }, no('command'), []],
    ['no --db', 'serve', ['--port', '80'], {}, no('no-db'), []],
    ['--db without a value', 'serve', ['--db'], {}, no('no-db'), []],
    ['--db= empty', 'serve', ['--db='], {}, no('no-db'), []],
    ['--db after --', 'request', ['GET', '/x', '--', '--db', 'a.db'], {}, no('no-db'), []],
  ];
  it.each(cases)('%s', (_name, command, args, host, plan, read) => {
    const f = facts(host);
    expect(hugePagesPlan(command, args, f.facts)).toEqual(plan);
    expect(f.read).toEqual(read);
  });
});

describe('parsing', () => {
  it('takes the last --db, in either form', () => {
    expect(dbOption(['--db', 'a.db', '--db=b.db'])).toBe('b.db');
    expect(dbOption(['--db=a.db', '--port', '1', '--db', 'c.db'])).toBe('c.db');
    expect(dbOption(['--dbx', 'a.db'])).toBeUndefined();
  });
  it('reads the selected THP mode', () => {
    expect(selectedMode('always [madvise] never\n')).toBe('madvise');
    expect(selectedMode('[always] madvise never\n')).toBe('always');
    expect(selectedMode('always madvise [never]\n')).toBe('never');
    expect(selectedMode('')).toBeUndefined();
  });
  it('compares glibc versions numerically', () => {
    expect(['2.34', '2.35', '2.36', '2.4', '2.100', '3.0', 'x', ''].map(glibcHasHugetlb)).toEqual([
      false,
      true,
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(glibcHasHugetlb(undefined)).toBe(false);
  });
});

describe('describeHugePages (prospectdb info)', () => {
  it('says what the commands that read the indexes do for the file', () => {
    const line = (host: Host) => describeHugePages('a.db', facts(host).facts);
    expect(line({})).toBe(
      'on for serve, mcp, match, export: restarted with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (PROSPECTDB_HUGE_PAGES=0 turns it off)',
    );
    expect(line({ size: REQUEST_MIN })).toBe(
      'on for serve, mcp, match, export, request: restarted with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (PROSPECTDB_HUGE_PAGES=0 turns it off)',
    );
    // In the restarted process too (info itself is never restarted, but may run under a restarted one).
    expect(line({ env: { PROSPECTDB_HUGE_PAGES_RESTARTED: '1' } })).toBe(line({}));
    expect(line({ size: 1 })).toBe('off: the file is below 256 MB (PROSPECTDB_HUGE_PAGES=1 turns it on)');
    expect(line({ env: { PROSPECTDB_HUGE_PAGES: '0' } })).toBe('off: PROSPECTDB_HUGE_PAGES=0');
    expect(line({ env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' } })).toBe(
      'off: GLIBC_TUNABLES sets glibc.malloc.hugetlb=0',
    );
    expect(line({ env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1' } })).toBe(
      'on: GLIBC_TUNABLES sets glibc.malloc.hugetlb=1',
    );
    expect(line({ thp: 'always' })).toBe('on: transparent huge pages are always on here');
    expect(line({ thp: 'never' })).toBe(
      'off: transparent huge pages are not available (/sys/kernel/mm/transparent_hugepage/enabled)',
    );
    expect(line({ glibc: '2.31' })).toBe('off: needs glibc 2.35 or later');
    expect(line({ platform: 'darwin' })).toBe('off: Linux only');
  });
});
