/**
 * Prospect match, one row at a time against in-memory indexes. Exact keys first (e-mail, profile slug,
 * phone), then full name within the company: `business_id` restricts the search to one business,
 * otherwise `company_name` is resolved with the business name search (every close candidate is kept, so
 * the person's name can settle which of several near-identical companies is meant), or a work e-mail's
 * domain names the employer; the name is looked up in those companies' word indexes (`person-score.ts`)
 * and decided on a calibrated confidence. Rules (§3.2): `full_name` needs `company_name` or
 * `business_id`, and the reverse.
 */
import type { Context } from '../../runtime/context.js';
import type { KeyLookup } from '../../indexes/hash/index.js';
import type { StringColumn } from '../../indexes/format/strings.js';
import { prospectIds, prospectMatchIndex, type ProspectMatchIndex } from '../../indexes/match/prospects.js';
import {
  linkedinPersonSlug,
  normaliseDomain,
  normaliseEmail,
  normalisePhone,
} from '../../normalise/index.js';
import {
  companyContext,
  NAME_THRESHOLD,
  queryName,
  searchCompanyName,
  type CompanyContext,
} from './company-search.js';
import { clean } from './input.js';
import { LEAD_BANDS, PERSON_CONFIDENCE, SCORE_BANDS } from './person-confidence.js';
import {
  emailEvidence,
  localPartNames,
  localPartWords,
  personNameScore,
  personQuery,
  searchPersonName,
  type EmailEvidence,
  wordRarity,
  type PersonQuery,
} from './person-score.js';
import type { MatchedOn, ProspectInput, Scored, Verdict } from './types.js';

/** A name that agrees with a key hit (e-mail, phone, profile) scores at least this. */
export const PERSON_THRESHOLD = 0.8;
/** At most this many candidate companies for one `company_name`. */
const MAX_COMPANIES = 16;
/** Among several key hits, the name must separate the best from the next by this much. */
const KEY_MARGIN = 0.04;
/**
 * Default decision for a name match (no `minConfidence`): the calibrated confidence must reach this.
 * Precision first: the cells at or above it were right 98% of the time and more where the table was
 * fitted, and on FEBRL 4 (never fitted on) such matches are right 97.8% of the time.
 */
export const DEFAULT_MIN_CONFIDENCE = 0.8;

export interface ProspectContext {
  readonly company: CompanyContext;
  /** Whether verdicts must carry scored candidates and the full `on` list (explain / alternatives). */
  readonly detail: boolean;
  readonly index: ProspectMatchIndex;
  /** The prospect id at each position of `index` (read from the table when asked). */
  readonly ids: StringColumn;
  /** The `minConfidence` option; undefined: the default decision. */
  readonly minConfidence: number | undefined;
  /** Company-name searches of this batch (rows of one batch often name the same company). */
  readonly companySearches: Map<string, readonly Scored[]>;
  /** Sees the features of every name decision (the calibration script reads them). */
  observe?: (features: NameFeatures, pos: number) => void;
}

/** The business name search's hits for `name`, once per batch. */
function companyHits(ctx: ProspectContext, name: string): readonly Scored[] {
  let hits = ctx.companySearches.get(name);
  if (hits === undefined) {
    hits = searchCompanyName(ctx.company, queryName(name)).hits;
    if (ctx.companySearches.size < 4096) ctx.companySearches.set(name, hits);
  }
  return hits;
}

export function prospectContext(engine: Context, detail = true, minConfidence?: number): ProspectContext {
  const index = prospectMatchIndex(engine);
  return {
    company: companyContext(engine, detail),
    detail,
    index,
    ids: prospectIds(engine.db, index),
    minConfidence,
    companySearches: new Map(),
  };
}

/** What the confidence of a name candidate is read from (the calibration's features). */
export interface NameFeatures {
  /** The candidate's score (name similarity, company score, e-mail evidence). */
  score: number;
  /** Its lead over the runner-up (negative for a candidate behind the best). */
  lead: number;
  /** Whether the query or the stored name has a single word (a missing given or family name). */
  oneWord: boolean;
  /** What the e-mail's local part says about the candidate. */
  email: EmailEvidence;
}

/**
 * Calibrated probability that a name candidate is the person meant: the share of right answers observed
 * in its cell (score band × lead band, per e-mail evidence and one-word names) on generated persons with
 * realistic noise, fitted by `scripts/calibrate-persons.ts` (never on the real sets the benches evaluate
 * on). `bench/match/real-persons.ts` prints the reliability table on real data.
 */
export function nameConfidence(f: NameFeatures): number {
  const table = PERSON_CONFIDENCE[f.email]![f.oneWord ? 1 : 0]!;
  return table[band(SCORE_BANDS, f.score)]![band(LEAD_BANDS, f.lead)]!;
}

/** Index of the last band starting at or below `x`. */
function band(starts: readonly number[], x: number): number {
  let i = 0;
  while (i + 1 < starts.length && x >= (starts[i + 1] as number)) i++;
  return i;
}

/** Score added for what the e-mail's local part says about a candidate (none, agrees, partial, differs). */
const EMAIL_BONUS = [0, 0.1, 0, -0.1] as const;

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
  // A table is named only when its key is given: each is read from the file on first use, and a name
  // match (no keys) must not read them.
  const keys: [MatchedOn, string | null, () => KeyLookup][] = [
    ['email', email, () => index.byEmail],
    ['linkedin', slug, () => index.byLinkedin],
    ['phone', phone, () => index.byPhone],
  ];
  for (const [kind, key, keyIndex] of keys) {
    if (key === null) continue;
    const hit = keyIndex().only(key);
    if (hit === -2) return null;
    if (hit < 0 || !allowed(hit)) continue;
    if (pos >= 0 && hit !== pos) return null;
    pos = hit;
    on.push(kind);
  }
  return pos < 0 ? null : { kind: 'match', pos, confidence: on.length > 1 ? 1 : 0.98, on, candidates: [] };
}

/**
 * Fast path for a number written internationally ("+49 30 1234567", "0049-30-1234567", dots or
 * dashes between the digits): its digits as a key, when the index holds that key. The keys are the
 * parser's E.164 numbers, and the parser reads such a number as its digits (a trunk "0" after the
 * country code is kept when the number is valid with it), so a hit is what parsing would give;
 * anything else (national formats, extensions, brackets, letters) takes the parser.
 */
function knownPhone(index: ProspectMatchIndex, s: string): string | null {
  let i = s.charCodeAt(0) === 43 ? 1 : s.startsWith('00') ? 2 : -1; // '+' or '00'
  if (i < 0) return null;
  let key = '+';
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) key += s[i];
    else if (c !== 32 && c !== 45 && c !== 46) return null; // space - .
  }
  return key.length >= 8 && index.byPhone.has(key) ? key : null;
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
  if (businessId !== null) {
    const pos = company.position(businessId.toLowerCase());
    only = pos < 0 ? -2 : pos;
  }
  const allowed = (pos: number) => only === -1 || index.business.at(pos) === only;
  // Exact keys, each normalised once.
  const email = emailRaw === null ? null : normaliseEmail(emailRaw);
  const emailKey = email !== null && !email.role ? email.key : null;
  const slug = linkedinRaw === null ? null : linkedinPersonSlug(linkedinRaw);
  let phone = phoneRaw === null ? null : knownPhone(index, phoneRaw);
  if (phoneRaw !== null && phone === null) {
    // A national number is read in the employer's country: the business id's, else that of the
    // company the name means (only looked up when the number does not parse on its own).
    let country = only >= 0 ? (company.index.countries.at(only) ?? null) : null;
    phone = normalisePhone(phoneRaw, country ?? undefined);
    if (phone === null && country === null && only === -1 && companyName !== null) {
      const top = companyHits(ctx, companyName)[0];
      if (top !== undefined && top.score >= NAME_THRESHOLD)
        country = company.index.countries.at(top.pos) ?? null;
      if (country !== null) phone = normalisePhone(phoneRaw, country);
    }
    if (phone === null && country === null) phone = normalisePhone(phoneRaw, 'us');
  }
  if (!ctx.detail) {
    const quick = uniqueKeyHit(index, allowed, emailKey, slug, phone);
    if (quick !== null) return quick;
  }
  const person =
    fullName === null ? null : personQuery(fullName, wordRarity(index), (w) => index.wordId.has(w));

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
      name: person === null ? 0 : personNameScore(person, index.names.at(pos) as string),
    }));
    ranked.sort((a, b) => b.on.length - a.on.length || b.name - a.name || a.pos - b.pos);
    const best = ranked[0]!;
    const second = ranked[1];
    const candidates = ranked.map((r) => ({ pos: r.pos, score: Math.min(1, 0.9 + 0.05 * r.on.length) }));
    if (second === undefined || best.on.length > second.on.length || best.name - second.name >= KEY_MARGIN) {
      const nameAgrees = best.name >= PERSON_THRESHOLD;
      const on: MatchedOn[] = nameAgrees ? [...best.on, 'name'] : best.on;
      return { kind: 'match', pos: best.pos, confidence: on.length > 1 ? 1 : 0.98, on, candidates };
    }
    // Several prospects hold the key and no name tells them apart.
    if (person === null) return { kind: 'none', candidates, ambiguous: true };
  }
  if (person === null) return { kind: 'none', candidates: [] };

  // Full name within the company (or the companies `company_name` or a work e-mail's domain may mean).
  const companies: Scored[] = [];
  let companyOn: MatchedOn = 'business_id';
  if (only >= 0) companies.push({ pos: only, score: 1 });
  else if (only === -1) {
    companyOn = 'company';
    if (companyName !== null) {
      for (const h of companyHits(ctx, companyName)) {
        if (h.score < NAME_THRESHOLD || companies.length >= MAX_COMPANIES) break;
        companies.push({ pos: h.pos, score: h.score }); // a copy: the e-mail domain may raise its score
      }
    }
    // A work e-mail's domain names the employer too.
    if (email !== null && !email.personal) {
      const d = normaliseDomain(email.domain);
      if (d !== null) {
        for (const pos of company.index.byDomain.get(d.registrable)) {
          if (companies.length >= MAX_COMPANIES) break;
          const known = companies.find((c) => c.pos === pos);
          if (known === undefined) companies.push({ pos, score: companyName === null ? 1 : NAME_THRESHOLD });
          else known.score = Math.max(known.score, NAME_THRESHOLD);
        }
      }
    }
  }
  if (companies.length === 0) return { kind: 'none', candidates: [] };
  const found = nameCandidates(index, person, companies, email === null || email.role ? null : emailRaw);
  const best = found[0];
  if (best === undefined) return { kind: 'none', candidates: [] };
  const oneWord = (pos: number) => person.readings[0]!.length === 1 || !index.names.at(pos)!.includes(' ');
  const features = (c: EmailScored, other: number): NameFeatures => ({
    score: c.score,
    lead: c.score - other,
    oneWord: oneWord(c.pos),
    email: c.email ?? 0,
  });
  const bestFeatures = features(best, found[1]?.score ?? 0);
  ctx.observe?.(bestFeatures, best.pos);
  const confidence = nameConfidence(bestFeatures);
  // Candidates carry calibrated confidences, each against the best (or, for the best, the runner-up).
  const candidates = ctx.detail
    ? found.slice(0, 16).map((c, i) => ({
        pos: c.pos,
        score: i === 0 ? confidence : nameConfidence(features(c, best.score)),
      }))
    : [];
  const min = ctx.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const exactName = personNameScore(person, index.names.at(best.pos) as string) === 1;
  // The name exactly as one person in the company meant holds it: no near namesake there (a colleague
  // with a double surname, say) outweighs it.
  const written = person.readings[0]!.join(' ');
  const exact = found.filter((c) => index.names.at(c.pos) === written);
  const sure = Math.max(confidence, DEFAULT_MIN_CONFIDENCE);
  if (exact.length === 1 && confidence < min && sure >= min) {
    const pos = exact[0]!.pos;
    const moved = candidates.filter((c) => c.pos !== pos);
    return {
      kind: 'match',
      pos,
      confidence: sure,
      on: [companyOn, 'name'],
      candidates: ctx.detail ? [{ pos, score: sure }, ...moved] : [],
    };
  }
  if (confidence < min) {
    // Below the bar: no match, the best candidate first among the alternatives; two people of the same
    // name in the company (or companies) meant are reported ambiguous.
    const runnerUp = found[1];
    const twin =
      exactName &&
      runnerUp !== undefined &&
      personNameScore(person, index.names.at(runnerUp.pos) as string) === 1;
    return twin ? { kind: 'none', candidates, ambiguous: true } : { kind: 'none', candidates };
  }
  return {
    kind: 'match',
    pos: best.pos,
    confidence,
    on: [companyOn, exactName ? 'name' : 'name_fuzzy'],
    candidates,
  };
}

interface EmailScored extends Scored {
  /** What the e-mail's local part says (absent: no e-mail). */
  email?: EmailEvidence;
}

/** How many name candidates the e-mail's evidence is weighed on. */
const EMAIL_CANDIDATES = 16;

/**
 * Name candidates within `companies`, best first, each with what the e-mail's local part says about it
 * (see {@link emailEvidence}); the evidence moves the score, so an address written from one candidate's
 * name settles between near namesakes. People the local part names ("jsmith") are looked up too: the
 * name given beside the address may be too far off to find them.
 */
function nameCandidates(
  index: ProspectMatchIndex,
  person: PersonQuery,
  companies: readonly Scored[],
  email: string | null,
): EmailScored[] {
  const found = searchPersonName(index, person, companies);
  const parts = email === null ? null : localPartWords(email);
  if (parts === null) return found;
  const top = found.slice(0, EMAIL_CANDIDATES);
  const seen = new Set(top.map((c) => c.pos));
  for (const name of localPartNames(index, parts)) {
    const q = personQuery(name);
    if (q === null) continue;
    for (const hit of searchPersonName(index, q, companies).slice(0, 4)) {
      if (seen.has(hit.pos)) continue;
      seen.add(hit.pos);
      const company = companies.find((c) => c.pos === index.business.at(hit.pos));
      const score = personNameScore(person, index.names.at(hit.pos) as string);
      top.push({ pos: hit.pos, score: 0.85 * score + 0.15 * (company?.score ?? 0) });
    }
  }
  const out = top.map((c) => {
    const ev = emailEvidence(parts, index.names.at(c.pos) as string);
    return { pos: c.pos, score: c.score + EMAIL_BONUS[ev], email: ev };
  });
  out.sort((a, b) => b.score - a.score || a.pos - b.pos);
  return out;
}
