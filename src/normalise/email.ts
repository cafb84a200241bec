/**
 * E-mail addresses → one key per mailbox, following the sub-addressing rules each big provider really
 * applies, plus the role-account and free-mail flags that matching and scoring use.
 */
import { domainToASCII } from 'node:url';
import { commaList } from './text.js';

/** `key` is `${local}@${domain}` after provider rules; `role` marks shared inboxes, `personal` free-mail. */
export interface EmailKey {
  key: string;
  local: string;
  domain: string;
  role: boolean;
  personal: boolean;
}

/** RFC 5322 "atext" plus dots (checked separately), unquoted local parts only. */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;
/** LDH labels, TLD alphabetic or punycode. */
const DOMAIN =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

type Rule = 'gmail' | 'plus' | 'yahoo';

/** Providers whose sub-addressing rules are documented (exact domains). */
const PROVIDER_RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ['gmail.com', 'gmail'],
  ['googlemail.com', 'gmail'],
  ['fastmail.com', 'plus'],
  ['fastmail.fm', 'plus'],
  ['icloud.com', 'plus'],
  ['me.com', 'plus'],
  ['mac.com', 'plus'],
  ['proton.me', 'plus'],
  ['protonmail.com', 'plus'],
  ['protonmail.ch', 'plus'],
  ['pm.me', 'plus'],
]);

/** Brands whose country domains (hotmail.co.uk, yahoo.fr, outlook.com.br …) follow one rule. */
const BRAND_RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ['outlook', 'plus'],
  ['hotmail', 'plus'],
  ['live', 'plus'],
  ['msn', 'plus'],
  ['yahoo', 'yahoo'],
  ['ymail', 'yahoo'],
  ['rocketmail', 'yahoo'],
]);

/** Free-mail brands recognised under any country suffix ("gmx.de", "yandex.ru", "yahoo.co.jp"). */
const FREE_MAIL_BRANDS: ReadonlySet<string> = new Set(
  commaList(`gmail, googlemail, yahoo, ymail, rocketmail, outlook, hotmail, live, msn, aol, gmx, yandex, icloud,
    protonmail, proton, zoho, mail, tutanota, libero, laposte, rediffmail, naver, seznam`),
);
const COUNTRY_SUFFIX = /^(?:[a-z]{2,3}|com?\.[a-z]{2}|net\.[a-z]{2})$/;

/** Free-mail domains that are not "<brand>.<country suffix>". */
const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set(
  commaList(`me.com, mac.com, pm.me, tuta.io, web.de, t-online.de, freenet.de, mail.ru, inbox.ru, list.ru, bk.ru,
    rambler.ru, ya.ru, qq.com, foxmail.com, 163.com, 126.com, yeah.net, sina.com, sina.cn, sohu.com, 139.com,
    hanmail.net, daum.net, wp.pl, o2.pl, interia.pl, orange.fr, wanadoo.fr, free.fr, sfr.fr, btinternet.com,
    comcast.net, verizon.net, att.net, sbcglobal.net, bellsouth.net, cox.net, charter.net, earthlink.net,
    bigpond.com, optusnet.com.au, shaw.ca, rogers.com, sympatico.ca, fastmail.com, fastmail.fm, hey.com,
    gmx.net, gmx.com, mail.com, email.com, usa.com, inbox.com, lycos.com, excite.com, uol.com.br, bol.com.br,
    terra.com.br, virgilio.it, tiscali.it, alice.it, tin.it, telenet.be, skynet.be, ziggo.nl, kpnmail.nl,
    bluewin.ch, hushmail.com, mailinator.com, guerrillamail.com`),
);

/** Local parts of shared inboxes (matched on the whole local part or its first "."/"-"/"_" segment). */
const ROLE_ACCOUNTS: ReadonlySet<string> = new Set(
  commaList(`info, information, sales, support, admin, administrator, contact, contactus, hello, hi, office,
    billing, invoices, invoice, accounting, accounts, finance, hr, jobs, careers, recruiting, recruitment,
    talent, marketing, noreply, no-reply, donotreply, do-not-reply, team, help, helpdesk, enquiries, enquiry,
    inquiries, inquiry, press, media, pr, webmaster, postmaster, hostmaster, abuse, security, privacy, legal,
    compliance, service, services, customerservice, customercare, care, orders, order, bookings, booking,
    reservations, reception, general, mail, email, feedback, partners, partnerships, investors, ir, news,
    newsletter, community, social, it, tech, ops, operations, dev, devops, all, everyone, staff, root`),
);

/** Role words that are also given names or initials: only a whole local part counts ("dev@", not "dev.patel@"). */
const NAME_LIKE_ROLES: ReadonlySet<string> = new Set(
  commaList('dev, hi, all, care, it, ir, pr, tech, mail, general'),
);

/**
 * Normalises an e-mail address: trimmed, lower-cased, provider sub-addressing removed (Gmail dots and
 * "+tag", Microsoft/iCloud/Fastmail/Proton "+tag", Yahoo disposable "-keyword"); null when not an address.
 * @example normaliseEmail(' J.Smith+news@GoogleMail.com ') // { key: 'jsmith@gmail.com', local: 'jsmith', domain: 'gmail.com', role: false, personal: true }
 */
export function normaliseEmail(input: string | null | undefined): EmailKey | null {
  if (input == null) return null;
  let s = input.trim().toLowerCase();
  if (s.startsWith('mailto:')) s = s.slice(7);
  const at = s.lastIndexOf('@');
  if (at <= 0 || at === s.length - 1) return null;
  let local = s.slice(0, at);
  let domain = s.slice(at + 1);
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return null;
  }
  if (!DOMAIN.test(domain)) {
    const ascii = nonAsciiDomain(domain);
    if (ascii === null) return null;
    domain = ascii;
  }
  const dot = domain.indexOf('.');
  const brand = domain.slice(0, dot);
  const suffix = domain.slice(dot + 1);
  const countryDomain = COUNTRY_SUFFIX.test(suffix);
  const rule = PROVIDER_RULES.get(domain) ?? (countryDomain ? BRAND_RULES.get(brand) : undefined);
  if (rule === 'gmail') {
    domain = 'gmail.com';
    local = cutAt(local, '+').replaceAll('.', '');
  } else if (rule === 'plus') {
    local = cutAt(local, '+');
  } else if (rule === 'yahoo') {
    // Yahoo IDs cannot contain "-": "base-keyword" is a disposable address of the account owning "base".
    local = cutAt(local, '-');
  }
  if (local.length === 0) return null;
  const personal = FREE_MAIL_DOMAINS.has(domain) || (countryDomain && FREE_MAIL_BRANDS.has(brand));
  return { key: `${local}@${domain}`, local, domain, role: isRoleAccount(local), personal };
}

function cutAt(local: string, sep: string): string {
  const i = local.indexOf(sep);
  return i === -1 ? local : local.slice(0, i);
}

function isRoleAccount(local: string): boolean {
  if (ROLE_ACCOUNTS.has(local)) return true;
  let end = local.length;
  for (let i = 0; i < local.length; i++) {
    const c = local.charCodeAt(i);
    if (c === 0x2e || c === 0x2d || c === 0x5f || c === 0x2b) {
      end = i;
      break;
    }
  }
  // Trailing digits too: "info2", "sales01".
  while (end > 0 && isDigit(local.charCodeAt(end - 1))) end--;
  if (end === local.length || end === 0) return false;
  const head = local.slice(0, end);
  return ROLE_ACCOUNTS.has(head) && !NAME_LIKE_ROLES.has(head);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Internationalised domains → punycode; null when still not a valid domain. */
function nonAsciiDomain(domain: string): string | null {
  let nonAscii = false;
  for (let i = 0; i < domain.length; i++) if (domain.charCodeAt(i) > 0x7f) nonAscii = true;
  if (!nonAscii) return null;
  const ascii = domainToASCII(domain);
  return ascii.length > 0 && DOMAIN.test(ascii) ? ascii : null;
}
