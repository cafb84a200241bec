/**
 * Website / domain input → registrable domain (Public Suffix List via tldts) and host.
 */
import { domainToASCII } from 'node:url';
import { createRequire } from 'node:module';
import type * as Tldts from 'tldts';

let tldts: typeof Tldts | undefined;
/**
 * The Public Suffix List (~0.2 MB of code) is loaded on the first domain to read (a business match row
 * with a website, an e-mail), not by every process that imports prospectdb: a fetch never reads one.
 */
const parse: typeof Tldts.parse = (url, options) =>
  (tldts ??= createRequire(import.meta.url)('tldts') as typeof Tldts).parse(url, options);

/** `registrable` is the PSL registrable domain ("acme.co.uk"); `host` the hostname without a leading "www.". */
export interface DomainKey {
  registrable: string;
  host: string;
}

// Private PSL suffixes count (github.io, myshopify.com, blogspot.com …): otherwise every site on such a
// platform would share one registrable domain and match each other.
const PARSE_OPTIONS = { allowPrivateDomains: true, detectIp: true, validateHostname: true } as const;

/** "mailto:", "tel:", "javascript:" … but not "acme.com:8080". */
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;

function hasNonAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return true;
  return false;
}

/**
 * Normalises a domain or website URL; null for anything that is not a public hostname (empty, spaces,
 * no dot, IP address, unknown TLD, localhost, e-mail addresses, other schemes).
 * @example normaliseDomain('https://www.Acme.co.uk/about?x=1') // { registrable: 'acme.co.uk', host: 'acme.co.uk' }
 */
export function normaliseDomain(input: string | null | undefined): DomainKey | null {
  if (input == null) return null;
  let s = input.trim();
  if (s.length === 0 || s.indexOf('@') !== -1) return null;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20) return null; // spaces or control characters inside
  }
  const scheme = s.indexOf('://');
  if (scheme !== -1) {
    const name = s.slice(0, scheme).toLowerCase();
    if (name !== 'http' && name !== 'https') return null;
  } else if (OTHER_SCHEME.test(s)) {
    return null;
  }
  if (hasNonAscii(s)) s = toAsciiHost(s);
  if (s.length === 0) return null;
  const r = parse(s, PARSE_OPTIONS);
  const hostname = r.hostname;
  const registrable = r.domain;
  if (hostname === null || registrable === null || r.isIp === true) return null;
  if (r.publicSuffix === null || (r.isIcann !== true && r.isPrivate !== true)) return null;
  const host =
    hostname.startsWith('www.') && hostname.length > registrable.length ? hostname.slice(4) : hostname;
  return { registrable, host };
}

/** Internationalised hostnames → punycode, so "münchen.de" and "xn--mnchen-3ya.de" are one key. */
function toAsciiHost(s: string): string {
  const scheme = s.indexOf('://');
  const start = scheme !== -1 ? scheme + 3 : s.startsWith('//') ? 2 : 0;
  let end = s.length;
  for (const sep of ['/', '?', '#', ':']) {
    const at = s.indexOf(sep, start);
    if (at !== -1 && at < end) end = at;
  }
  const ascii = domainToASCII(s.slice(start, end).toLowerCase());
  return ascii.length === 0 ? '' : ascii + s.slice(end);
}
