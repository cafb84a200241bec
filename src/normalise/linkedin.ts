/**
 * LinkedIn profile URLs → slugs. Parsed by hand (no `URL` object): inputs are often scheme-less and
 * this runs once per row at load.
 */

/**
 * The path of a linkedin.com URL (any country or mobile subdomain, with or without scheme), lower-cased,
 * without query or fragment; null when the host is not LinkedIn.
 */
function linkedinPath(url: string): string | null {
  let s = url.trim().toLowerCase();
  if (s.startsWith('https://')) s = s.slice(8);
  else if (s.startsWith('http://')) s = s.slice(7);
  else if (s.startsWith('//')) s = s.slice(2);
  let slash = s.indexOf('/');
  if (slash === -1) return null;
  let host = s.slice(0, slash);
  const port = host.indexOf(':');
  if (port !== -1) host = host.slice(0, port);
  if (host !== 'linkedin.com' && !host.endsWith('.linkedin.com')) return null;
  let end = s.length;
  const query = s.indexOf('?', slash);
  if (query !== -1) end = query;
  const hash = s.indexOf('#', slash);
  if (hash !== -1 && hash < end) end = hash;
  // Collapse a doubled slash after the host ("linkedin.com//in/x").
  while (s.charCodeAt(slash + 1) === 0x2f) slash++;
  return s.slice(slash + 1, end);
}

/** A url-decoded, NFC path segment; null when empty or not decodable. */
function segment(raw: string | undefined): string | null {
  if (raw === undefined || raw.length === 0) return null;
  let decoded = raw;
  if (raw.indexOf('%') !== -1) {
    try {
      decoded = decodeURIComponent(raw).toLowerCase().normalize('NFC');
    } catch {
      return null;
    }
  }
  decoded = decoded.trim();
  if (decoded.length === 0 || decoded.indexOf('/') !== -1) return null;
  return decoded;
}

/**
 * The company slug (or numeric id) of a LinkedIn company URL, lower-cased and url-decoded.
 * @example linkedinCompanySlug('https://www.linkedin.com/company/acme-robotics/about/') // 'acme-robotics'
 */
export function linkedinCompanySlug(url: string | null | undefined): string | null {
  if (url == null) return null;
  const path = linkedinPath(url);
  if (path === null) return null;
  const parts = path.split('/');
  if (parts[0] !== 'company') return null;
  return segment(parts[1]);
}

/**
 * The member slug of a LinkedIn profile URL ("/in/<slug>"). Legacy "/pub/<name>/<a>/<b>/<c>" URLs
 * redirect to "/in/<name>-<c><b><a>" and are rewritten to that slug; "/pub/<name>" alone gives "<name>".
 * @example linkedinPersonSlug('https://uk.linkedin.com/in/Jane-Doe-12ab/?trk=x') // 'jane-doe-12ab'
 */
export function linkedinPersonSlug(url: string | null | undefined): string | null {
  if (url == null) return null;
  const path = linkedinPath(url);
  if (path === null) return null;
  const parts = path.split('/');
  const kind = parts[0];
  if (kind === 'in') return segment(parts[1]);
  if (kind !== 'pub') return null;
  const name = segment(parts[1]);
  if (name === null) return null;
  const a = parts[2];
  const b = parts[3];
  const c = parts[4];
  if (a && b && c && isAlnum(a) && isAlnum(b) && isAlnum(c)) return `${name}-${c}${b}${a}`;
  return name;
}

function isAlnum(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a))) return false;
  }
  return true;
}
