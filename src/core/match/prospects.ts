/**
 * Prospect match, one row at a time against in-memory indexes. Exact keys first (e-mail, profile slug,
 * phone), then full name within the company: `business_id` restricts the search to one business,
 * otherwise `company_name` is resolved with the business name search (every close candidate is kept, so
 * the person's name can settle which of several near-identical companies is meant). Rules (§3.2):
 * `full_name` needs `company_name` or `business_id`, and the reverse.
 */
import type { Engine } from '../../engine.js';
import type { KeyIndex } from '../../indexes/match/key-index.js';
import { prospectMatchIndex, type ProspectMatchIndex } from '../../indexes/match/prospects.js';
import {
  givenNameVariants,
  linkedinPersonSlug,
  normaliseDomain,
  normaliseEmail,
  normalisePersonName,
  normalisePhone,
  type PersonName,
} from '../../normalise/index.js';
import {
  companyContext,
  NAME_THRESHOLD,
  queryName,
  searchCompanyName,
  type CompanyContext,
} from './company-search.js';
import { clean } from './input.js';
import { tokenSimilarity } from './similarity.js';
import type { MatchedOn, ProspectInput, Scored, Verdict } from './types.js';

/** A person-name match within the company needs this score … */
export const PERSON_THRESHOLD = 0.8;
/** … and must beat every other candidate prospect by this much. */
const PERSON_MARGIN = 0.04;
/** At most this many candidate companies for one `company_name`. */
const MAX_COMPANIES = 16;

export interface ProspectContext {
  readonly company: CompanyContext;
  /** Whether verdicts must carry scored candidates and the full `on` list (explain / alternatives). */
  readonly detail: boolean;
  readonly index: ProspectMatchIndex;
}

export function prospectContext(engine: Engine, detail = true): ProspectContext {
  return { company: companyContext(engine, detail), detail, index: prospectMatchIndex(engine) };
}

/**
 * Similarity of a query name and a stored `given last` key in [0, 1]: last names must agree (up to a
 * typo), first names must agree up to a nickname, an initial or a typo; middle names are ignored.
 */
export function personScore(q: PersonName, variants: readonly string[], key: string): number {
  if (key === q.key) return 1;
  const space = key.lastIndexOf(' ');
  if (space === -1 || q.last.length === 0) return 0;
  const cGiven = key.slice(0, key.indexOf(' '));
  const cLast = key.slice(space + 1);
  const lastSim = q.last === cLast ? 1 : tokenSimilarity(q.last, cLast);
  if (lastSim === 0) return 0;
  let firstSim: number;
  if (q.given === cGiven) firstSim = 1;
  else if (variants.includes(cGiven)) firstSim = 0.95;
  else if (q.first.length === 1) firstSim = cGiven.startsWith(q.first) ? 0.85 : 0;
  else firstSim = Math.max(tokenSimilarity(q.given, cGiven), tokenSimilarity(q.first, cGiven));
  if (firstSim === 0) return 0;
  return 0.5 * lastSim + 0.5 * firstSim;
}

/**
 * The common case without allocations: every given key names at most one allowed prospect and they
 * agree; the general rule would pick that prospect whatever the name says. Null: take the general rule.
 */
function uniqueKeyHit(
  index: ProspectMatchIndex,
  allowed: (pos: number) => boolean,
  email: string | null,
  slug: string | null,
  phone: string | null,
): Verdict | null {
  let pos = -1;
  const on: MatchedOn[] = [];
  const keys: [MatchedOn, KeyIndex, string | null][] = [
    ['email', index.byEmail, email],
    ['linkedin', index.byLinkedin, slug],
    ['phone', index.byPhone, phone],
  ];
  for (const [kind, keyIndex, key] of keys) {
    if (key === null) continue;
    const hit = keyIndex.only(key);
    if (hit === -2) return null;
    if (hit < 0 || !allowed(hit)) continue;
    if (pos >= 0 && hit !== pos) return null;
    pos = hit;
    on.push(kind);
  }
  return pos < 0 ? null : { kind: 'match', pos, confidence: on.length > 1 ? 1 : 0.98, on, candidates: [] };
}

/** The verdict for one echoed input row. */
export function matchProspectRow(ctx: ProspectContext, input: ProspectInput): Verdict {
  const businessId = clean(input.business_id);
  const fullName = clean(input.full_name);
  const companyName = clean(input.company_name);
  const emailRaw = clean(input.email);
  const phoneRaw = clean(input.phone_number);
  const linkedinRaw = clean(input.linkedin);
  const hasCompany = businessId !== null || companyName !== null;
  if (fullName === null && !hasCompany && emailRaw === null && phoneRaw === null && linkedinRaw === null) {
    return { kind: 'error', error: 'missing_identifier' };
  }
  // The pairing rules guard the name search only: an exact key (e-mail, phone, profile) stands alone.
  const hasKey = emailRaw !== null || phoneRaw !== null || linkedinRaw !== null;
  if (!hasKey && fullName !== null && !hasCompany) return { kind: 'error', error: 'missing_company' };
  if (!hasKey && fullName === null && hasCompany) return { kind: 'error', error: 'missing_full_name' };

  const { index, company } = ctx;
  // -1: no restriction; -2: a business id that names no business (nothing can match).
  let only = -1;
  if (businessId !== null) only = company.index.byId.get(businessId.toLowerCase()) ?? -2;
  const allowed = (pos: number) => only === -1 || index.business[pos] === only;
  // Exact keys, each normalised once.
  const email = emailRaw === null ? null : normaliseEmail(emailRaw);
  const emailKey = email !== null && !email.role ? email.key : null;
  const slug = linkedinRaw === null ? null : linkedinPersonSlug(linkedinRaw);
  let phone: string | null = null;
  if (phoneRaw !== null) {
    const country = only >= 0 ? company.index.countries[only] : null;
    phone =
      normalisePhone(phoneRaw, country ?? undefined) ?? (country ? null : normalisePhone(phoneRaw, 'us'));
  }
  if (!ctx.detail) {
    const quick = uniqueKeyHit(index, allowed, emailKey, slug, phone);
    if (quick !== null) return quick;
  }
  const person = fullName === null ? null : normalisePersonName(fullName);
  const variants = person === null ? [] : givenNameVariants(person.first);

  // Each hit collects the keys that point at it.
  const tally = new Map<number, MatchedOn[]>();
  const count = (kind: MatchedOn, hits: number[]) => {
    for (const pos of hits) {
      if (!allowed(pos)) continue;
      const on = tally.get(pos);
      if (on === undefined) tally.set(pos, [kind]);
      else if (!on.includes(kind)) on.push(kind);
    }
  };
  if (emailKey !== null) count('email', index.byEmail.get(emailKey));
  if (slug !== null) count('linkedin', index.byLinkedin.get(slug));
  if (phone !== null) count('phone', index.byPhone.get(phone));
  if (tally.size > 0) {
    const ranked = [...tally].map(([pos, on]) => ({
      pos,
      on,
      name: person === null ? 0 : personScore(person, variants, index.nameKeys[pos] as string),
    }));
    ranked.sort((a, b) => b.on.length - a.on.length || b.name - a.name || a.pos - b.pos);
    const best = ranked[0]!;
    const second = ranked[1];
    const candidates = ranked.map((r) => ({ pos: r.pos, score: Math.min(1, 0.9 + 0.05 * r.on.length) }));
    if (
      second === undefined ||
      best.on.length > second.on.length ||
      best.name - second.name >= PERSON_MARGIN
    ) {
      const nameAgrees = best.name >= PERSON_THRESHOLD;
      const on: MatchedOn[] = nameAgrees ? [...best.on, 'name'] : best.on;
      return { kind: 'match', pos: best.pos, confidence: on.length > 1 ? 1 : 0.98, on, candidates };
    }
    if (person === null) return { kind: 'none', candidates };
  }
  if (person === null) return { kind: 'none', candidates: [] };

  // Full name within the company (or the companies `company_name` may mean).
  const companies: Scored[] = [];
  let companyOn: MatchedOn = 'business_id';
  if (only >= 0) companies.push({ pos: only, score: 1 });
  else if (only === -1 && companyName !== null) {
    companyOn = 'company';
    const search = searchCompanyName(company, queryName(companyName));
    for (const h of search.hits) {
      if (h.score < NAME_THRESHOLD || companies.length >= MAX_COMPANIES) break;
      companies.push(h);
    }
    // A work e-mail's domain names the employer too.
    if (email !== null && !email.personal) {
      const d = normaliseDomain(email.domain);
      if (d !== null) {
        for (const pos of company.index.byDomain.get(d.registrable)) {
          if (!companies.some((c) => c.pos === pos)) companies.push({ pos, score: NAME_THRESHOLD });
        }
      }
    }
  }
  const scored: Scored[] = [];
  for (const c of companies) {
    for (let m = index.memberStart[c.pos] as number; m < (index.memberStart[c.pos + 1] as number); m++) {
      const pos = index.members[m] as number;
      const s = personScore(person, variants, index.nameKeys[pos] as string);
      if (s > 0) scored.push({ pos, score: 0.85 * s + 0.15 * c.score });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.pos - b.pos);
  const best = scored[0];
  if (best === undefined) return { kind: 'none', candidates: [] };
  const threshold = 0.85 * PERSON_THRESHOLD + 0.15 * NAME_THRESHOLD;
  const second = scored[1];
  if (best.score < threshold || (second !== undefined && best.score - second.score < PERSON_MARGIN)) {
    return { kind: 'none', candidates: scored };
  }
  const exactName = index.nameKeys[best.pos] === person.key;
  return {
    kind: 'match',
    pos: best.pos,
    confidence: Math.min(1, best.score) * (exactName ? 0.98 : 0.92),
    on: [companyOn, exactName ? 'name' : 'name_fuzzy'],
    candidates: scored,
  };
}
