/**
 * Outbound webhook requests that cannot be turned against the service's own network (SSRF).
 *
 * - The URL is parsed by WHATWG rules, so decimal (`2130706433`), hex (`0x7f.1`), octal and short
 *   (`127.1`) IPv4 forms are already normalised to dotted quads before they are checked.
 * - A host name is resolved once; if any of its addresses is private, loopback, link-local, a metadata
 *   address or otherwise not publicly routable, the request is refused. The socket then connects to the
 *   checked address (a pinned `lookup`), so a second, different DNS answer (rebinding) is never used.
 * - Redirects are never followed: a 3xx is an answer, not a new request.
 * - Unless `allowPrivateTargets` is set, only `https` is allowed. The option (tests, local development)
 *   lifts both the address and the scheme rules.
 */
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export interface TargetPolicy {
  allowPrivateTargets: boolean;
}

/** Resolves a host to all its addresses (injected in tests; `dns.lookup` by default). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const defaultResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba metadata 100.100.100.200)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (includes AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** Host names refused without resolving them. */
const BLOCKED_NAMES =
  /(^|\.)(localhost|localdomain|internal|local|home\.arpa)$|^metadata(\.|$)|^instance-data(\.|$)/;

function expandIPv6(ip: string): number[] | null {
  // Returns the 8 groups of an IPv6 address (embedded dotted IPv4 tail allowed).
  let text = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const parts = dotted[1].split('.').map(Number);
    const hi = (((parts[0] ?? 0) << 8) | (parts[1] ?? 0)).toString(16);
    const lo = (((parts[2] ?? 0) << 8) | (parts[3] ?? 0)).toString(16);
    text = text.slice(0, -dotted[1].length) + `${hi}:${lo}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(Math.max(0, fill)).fill('0'), ...tail].map((g) =>
    parseInt(g, 16),
  );
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

function embeddedIPv4(groups: number[]): string {
  const hi = groups[6] ?? 0;
  const lo = groups[7] ?? 0;
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for any address a webhook must not reach (private, loopback, link-local, metadata, reserved…). */
export function isBlockedAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return BLOCKED.check(ip, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse
  if (BLOCKED.check(ip, 'ipv6')) return true;
  const groups = expandIPv6(ip);
  if (!groups) return true;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0] = groups;
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): judge the embedded IPv4 address.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return isBlockedAddress(embeddedIPv4(groups));
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isBlockedAddress(embeddedIPv4(groups));
  }
  // 6to4 (2002:AABB:CCDD::/48) embeds an IPv4 address in groups 1–2.
  if (g0 === 0x2002) return isBlockedAddress(`${g1 >> 8}.${g1 & 255}.${g2 >> 8}.${g2 & 255}`);
  return false;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The checks that need no DNS: scheme, credentials in the URL, literal addresses and reserved names.
 * Used when a webhook is registered (422) and again before every request.
 */
export function checkUrl(raw: string, policy: TargetPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: 'scheme must be https' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not allowed' };
  if (policy.allowPrivateTargets) return { ok: true, url };
  if (url.protocol !== 'https:') return { ok: false, reason: 'scheme must be https' };
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(host)) {
    if (isBlockedAddress(host)) return { ok: false, reason: 'target address is not allowed' };
  } else if (BLOCKED_NAMES.test(host) || !host.includes('.')) {
    return { ok: false, reason: 'target host is not allowed' };
  }
  return { ok: true, url };
}

export type Resolution = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

/** Resolves the URL's host and checks every address it has; the request must connect to `address`. */
export async function resolveTarget(url: URL, policy: TargetPolicy, resolver: Resolver): Promise<Resolution> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (!policy.allowPrivateTargets && isBlockedAddress(host)) {
      return { ok: false, reason: 'target address is not allowed' };
    }
    return { ok: true, address: host, family: isIP(host) as 4 | 6 };
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolver(host);
  } catch {
    return { ok: false, reason: 'dns_error' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'dns_error' };
  if (!policy.allowPrivateTargets && addresses.some((a) => isBlockedAddress(a.address))) {
    return { ok: false, reason: 'target address is not allowed' };
  }
  const first = addresses[0]!;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: TargetPolicy;
  resolver?: Resolver;
  signal?: AbortSignal;
}

/** Outcome of one request; bodies are drained and never returned. */
export type PostOutcome =
  | { kind: 'response'; status: number; retryAfter: string | null; latencyMs: number }
  | { kind: 'timeout'; latencyMs: number }
  | { kind: 'network'; error: string; latencyMs: number }
  | { kind: 'blocked'; reason: string; latencyMs: number }
  | { kind: 'aborted'; latencyMs: number };

/** POSTs `body` to `rawUrl` after the SSRF checks, connecting to the checked address. */
export async function guardedPost(rawUrl: string, options: PostOptions): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const checked = checkUrl(rawUrl, options.policy);
  if (!checked.ok) return { kind: 'blocked', reason: checked.reason, latencyMs: 0 };
  const url = checked.url;
  const target = await resolveTarget(url, options.policy, options.resolver ?? defaultResolver);
  if (!target.ok) {
    return target.reason === 'dns_error'
      ? { kind: 'network', error: 'dns_error', latencyMs: elapsed() }
      : { kind: 'blocked', reason: target.reason, latencyMs: elapsed() };
  }
  if (options.signal?.aborted) return { kind: 'aborted', latencyMs: 0 };
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) {
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      cb(null, target.address, target.family);
    }
  };
  const client = url.protocol === 'https:' ? https : http;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const req = client.request(
      {
        method: 'POST',
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        lookup: isIP(hostname) ? undefined : pinned,
        agent: false,
      },
      (res) => {
        const retryAfter = res.headers['retry-after'];
        res.resume(); // drain: the body is never read or reported
        res.on('end', () =>
          finish({
            kind: 'response',
            status: res.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            latencyMs: elapsed(),
          }),
        );
        res.on('error', () => finish({ kind: 'network', error: 'response_error', latencyMs: elapsed() }));
      },
    );
    const timer = setTimeout(() => {
      finish({ kind: 'timeout', latencyMs: elapsed() });
      req.destroy();
    }, options.timeoutMs);
    const onAbort = () => {
      finish({ kind: 'aborted', latencyMs: elapsed() });
      req.destroy();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e: NodeJS.ErrnoException) =>
      finish({ kind: 'network', error: e.code ?? 'network_error', latencyMs: elapsed() }),
    );
    req.end(options.body);
  });
}
