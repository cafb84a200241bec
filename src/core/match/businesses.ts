/**
 * Business match, one row at a time against in-memory indexes (no SQLite round trip per row).
 * Rules (docs/spec/api-reference.md §3.1): exact keys first — profile slug, host, registrable domain; when name
 * and domain are both given the domain decides and the name confirms or picks among businesses sharing
 * the domain; name only → exact name key, then fuzzy name; an invalid domain → no match. A domain or
 * profile that is given but unknown rules out candidates that have a different one. The name exactly as
 * written (folded) is looked up before any reading of it: a business written so is the answer, and
 * several are reported `ambiguous`, as are several sharing a key the name cannot choose among.
 *
 * Over 400 lines on purpose: the documented rule order of one row (keys, then name, then the namesake
 * tie-breaks) reads top to bottom in one file; the scorers live apart.
 */
import { linkedinCompanySlug, normaliseDomain, type DomainKey } from '../../normalise/index.js';
import {
  decide,
  decideFuzzy,
  formConflict,
  NAME_MARGIN,
  NAME_THRESHOLD,
  queryName,
  scorePositions,
  searchCompanyName,
  type CompanyContext,
  type NameSearch,
  type QueryName,
} from './company-search.js';
import { docFrequency, wordsWithPrefix } from '../../indexes/match/token-index.js';
import { alignedScore, lastAlignment } from './company-score.js';
import { calibrated, type ConfidencePath } from './company-confidence.js';
import { retrieveCompany } from './company-retrieve.js';
import { wordEvidence } from './company-words.js';
import { clean } from './input.js';
import { beatsCurrentNames, searchOtherNames, type OtherNameAnswer } from './other-names.js';
import type { BusinessInput, MatchedOn, Scored, Verdict } from './types.js';

/** Among businesses that share a domain or profile, the name must reach this to pick one. */
const POOL_THRESHOLD = 0.75;

/** The country a ccTLD suggests ("acme.de" → "de", "acme.co.uk" → "gb"), null for generic TLDs. */
export function tldCountry(domain: string): string | null {
  const dot = domain.lastIndexOf('.');
  const tld = domain.slice(dot + 1);
  if (tld.length !== 2) return null;
  return tld === 'uk' ? 'gb' : tld;
}

/** A domain key, with the position {@link knownDomain} already looked up (-2 when several share it). */
type Domain = DomainKey & { only?: number };

interface Evidence {
  /** The name as given (trimmed), null when absent; normalised on first use ({@link nameOf}). */
  raw: string | null;
  name?: QueryName | null;
  domain: Domain | null;
  slug: string | null;
  /** The position {@link knownSlug} already looked up for `slug` (-2 when several hold it). */
  slugOnly?: number;
}

/**
 * The verdict for one echoed input row. With `minConfidence` the row is matched to its best candidate
 * iff that candidate's confidence reaches the threshold (rows the default leaves open get a best guess
 * with a lower confidence; matches below the threshold become `none`, keeping their candidates).
 */
export function matchBusinessRow(ctx: CompanyContext, input: BusinessInput): BusinessVerdict {
  const verdict = defaultVerdict(ctx, input);
  const t = ctx.minConfidence;
  if (t === undefined || verdict.kind !== 'match' || verdict.confidence >= t) return verdict;
  const candidates = verdict.candidates.some((c) => c.pos === verdict.pos)
    ? verdict.candidates
    : [{ pos: verdict.pos, score: verdict.confidence }, ...verdict.candidates];
  return { kind: 'none', candidates };
}

function defaultVerdict(ctx: CompanyContext, input: BusinessInput): BusinessVerdict {
  const name = clean(input.name);
  const domainRaw = clean(input.domain);
  const urlRaw = clean(input.url);
  const linkedinRaw = clean(input.linkedin_url);
  if (name === null && domainRaw === null && urlRaw === null && linkedinRaw === null) {
    return { kind: 'error', error: 'missing_identifier' };
  }
  let domain: Domain | null = null;
  if (domainRaw !== null) domain = knownDomain(ctx, domainRaw) ?? normaliseDomain(domainRaw);
  if (domain === null && urlRaw !== null) domain = knownDomain(ctx, urlRaw) ?? normaliseDomain(urlRaw);
  // A domain (or URL) that is given but is not a domain: no match, whatever else the row holds.
  if (domain === null && (domainRaw !== null || urlRaw !== null)) return { kind: 'none', candidates: [] };
  const known = linkedinRaw === null ? null : knownSlug(ctx, linkedinRaw);
  const slug = known !== null ? known.slug : linkedinRaw === null ? null : linkedinCompanySlug(linkedinRaw);
  const ev: Evidence = { raw: name, domain, slug, slugOnly: known?.only };
  return byKeys(ctx, ev) ?? byName(ctx, ev);
}

/**
 * Fast path for the common inputs: a registrable domain the index holds, written bare ("acme.com"), with
 * "www.", or as an http(s) URL with a path ("https://www.Acme.com/about"). The index's keys came from
 * the full parser, so a hit is exactly what parsing would give; anything else (other subdomains,
 * unknown or non-ASCII names, odd schemes) takes the parser. The key is looked up straight from the
 * input's characters (capitals folded on the fly): only a hit makes a string.
 */
function knownDomain(ctx: CompanyContext, s: string): Domain | null {
  let start = 0;
  const scheme = s.indexOf('://');
  if (scheme !== -1) {
    if (!(foldedIs(s, 0, 'http') && (scheme === 4 || (scheme === 5 && foldedIs(s, 4, 's'))))) return null;
    start = scheme + 3;
  }
  let end = s.length;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || c === 64 || c > 0x7e) return null; // spaces, '@', non-ASCII: the parser decides
    if (end === s.length && (c === 47 || c === 63 || c === 35 || c === 58)) end = i; // / ? # :
  }
  if (end === start) return null;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i) | 0x20; // ASCII capitals as small letters ('-', '.' and digits keep theirs)
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46)) return null;
  }
  if (foldedIs(s, start, 'www.')) start += 4;
  const only = ctx.index.byDomain.onlyFolded(s, start, end);
  if (only === -1) return null;
  const bare = lowerAscii(s.slice(start, end));
  return { registrable: bare, host: bare, only };
}

/**
 * Fast path for a company profile written the common way ("https://www.linkedin.com/company/acme-gmbh/",
 * any case, with or without scheme, path tail, query): its slug as `linkedinCompanySlug` gives it and
 * the one business holding it (-1 none, -2 several), read without slicing the URL apart. Null: take
 * the parser (other hosts or subdomains, ports, doubled slashes, escaped or unusual characters).
 */
function knownSlug(ctx: CompanyContext, s: string): { slug: string; only: number } | null {
  let i = 0;
  if (foldedIs(s, 0, 'https://')) i = 8;
  else if (foldedIs(s, 0, 'http://')) i = 7;
  else if (foldedIs(s, 0, '//')) i = 2;
  if (foldedIs(s, i, 'www.')) i += 4;
  if (!foldedIs(s, i, 'linkedin.com/company/')) return null;
  const start = i + 21;
  let end = start;
  for (; end < s.length; end++) {
    const c = s.charCodeAt(end);
    if (c === 47 || c === 63 || c === 35) break; // / ? #
    const l = c | 0x20;
    if (!((l >= 97 && l <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 46)) return null;
  }
  if (end === start) return null;
  return { slug: lowerAscii(s.slice(start, end)), only: ctx.index.byLinkedin.onlyFolded(s, start, end) };
}

/** Whether `s` holds `lower` (small ASCII letters and punctuation) at `at`, capitals folded. */
function foldedIs(s: string, at: number, lower: string): boolean {
  if (at + lower.length > s.length) return false;
  for (let j = 0; j < lower.length; j++) {
    let c = s.charCodeAt(at + j);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(j)) return false;
  }
  return true;
}

/** An ASCII string lower-cased (itself when it has no capitals: no copy). */
function lowerAscii(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) return s.toLowerCase();
  }
  return s;
}

/** Exact keys: profile slug and domain (host before registrable domain). Null when neither hits. */
/**
 * The common case without allocations: each given key names at most one business and they agree (a key
 * that names none is ignored, as in the general rule). Null sends the row to the general rule.
 */
function uniqueKeyHit(ctx: CompanyContext, ev: Evidence): Verdict | null {
  const { index } = ctx;
  const p = ev.slug === null ? -1 : (ev.slugOnly ?? index.byLinkedin.only(ev.slug));
  let d = -1;
  if (ev.domain !== null) {
    if (ev.domain.host !== ev.domain.registrable && index.byHost.has(ev.domain.host)) return null;
    d = ev.domain.only ?? index.byDomain.only(ev.domain.registrable);
  }
  if (p === -2 || d === -2) return null;
  if (p >= 0 && d >= 0 && p !== d) return null;
  if (p < 0 && d < 0) return null;
  const on: MatchedOn[] = p >= 0 && d >= 0 ? ['linkedin', 'domain'] : p >= 0 ? ['linkedin'] : ['domain'];
  return { kind: 'match', pos: p >= 0 ? p : d, confidence: 0.98, on, candidates: [] };
}

/** The query name, normalised once and only when a rule needs it (a unique key hit does not). */
function nameOf(ev: Evidence): QueryName | null {
  if (ev.name === undefined) ev.name = ev.raw === null ? null : queryName(ev.raw);
  return ev.name;
}

function byKeys(ctx: CompanyContext, ev: Evidence): Verdict | null {
  const { index } = ctx;
  if (!ctx.detail) {
    const quick = uniqueKeyHit(ctx, ev);
    if (quick !== null) return quick;
  }
  const byProfile = ev.slug === null ? [] : index.byLinkedin.get(ev.slug);
  let byDomain: number[] = [];
  let domainKind: MatchedOn = 'domain';
  if (ev.domain !== null) {
    const host = ev.domain.host !== ev.domain.registrable ? index.byHost.get(ev.domain.host) : [];
    if (host.length > 0) {
      byDomain = host;
      domainKind = 'host';
    } else {
      byDomain = index.byDomain.get(ev.domain.registrable);
    }
  }
  if (byProfile.length === 0 && byDomain.length === 0) return null;

  let pool: number[];
  let on: MatchedOn[];
  let agreed = true;
  if (byProfile.length > 0 && byDomain.length > 0) {
    const both = byProfile.filter((p) => byDomain.includes(p));
    if (both.length > 0) {
      pool = both;
      on = ['linkedin', domainKind];
    } else {
      pool = [...new Set([...byProfile, ...byDomain])];
      on = [];
      agreed = false;
    }
  } else if (byProfile.length > 0) {
    pool = byProfile;
    on = ['linkedin'];
  } else {
    pool = byDomain;
    on = [domainKind];
  }
  // Among several businesses sharing a key, one written with another legal form is another legal entity.
  // (A single key hit stands: when name and domain are both given, the domain decides.)
  if (ev.raw !== null && pool.length > 1) {
    const q = nameOf(ev) as QueryName;
    const kept = pool.filter((pos) => !formConflict(ctx, q, pos));
    if (kept.length > 0) pool = kept;
  }
  pool.sort((a, b) => a - b);

  if (pool.length === 1 && agreed && !ctx.detail) {
    // One business holds the key: the answer stands whatever the name says; without explanations or
    // alternatives to report, the name is not even normalised.
    return { kind: 'match', pos: pool[0] as number, confidence: 0.98, on, candidates: [] };
  }
  const q = nameOf(ev);
  const scored = q === null ? pool.map((pos) => ({ pos, score: 0 })) : scorePositions(ctx, q, pool);
  if (pool.length === 1 && agreed) {
    const pos = pool[0] as number;
    const nameAgrees = q !== null && (scored[0]?.score ?? 0) >= NAME_THRESHOLD;
    return {
      kind: 'match',
      pos,
      confidence: on.length > 1 || nameAgrees ? 1 : 0.98,
      on: nameAgrees ? [...on, 'name'] : on,
      candidates: scored,
    };
  }
  // Several businesses share the key, or the keys disagree: the name must pick one. When it cannot, a
  // shared key is reported ambiguous (every holder among the candidates).
  const open: Verdict = agreed
    ? { kind: 'none', candidates: scored, ambiguous: true }
    : { kind: 'none', candidates: scored };
  if (q === null) return open;
  const country = ev.domain === null ? null : tldCountry(ev.domain.registrable);
  const pick = decide(ctx, scored, q, { threshold: POOL_THRESHOLD, margin: NAME_MARGIN, country });
  if (pick === null) return open;
  const keyOn: MatchedOn[] = agreed
    ? on
    : [
        ...(byProfile.includes(pick.pos) ? (['linkedin'] as const) : []),
        ...(byDomain.includes(pick.pos) ? [domainKind] : []),
      ];
  return {
    kind: 'match',
    pos: pick.pos,
    confidence: 0.9 * pick.score,
    on: [...keyOn, 'name'],
    candidates: scored,
  };
}

/** A name answer: the business, how sure, on what evidence, and the path and raw score calibrated. */
export interface NameAnswer {
  pos: number;
  confidence: number;
  on: MatchedOn[];
  path: ConfidencePath;
  raw: number;
}

/**
 * A verdict with, for a name answer, the path and raw score its confidence was calibrated from, and
 * every answer weighed for the row (the calibration fits each path on its own answers, whichever won).
 */
export type BusinessVerdict = Verdict & { path?: ConfidencePath; raw?: number; weighed?: NameAnswer[] };

/**
 * Word evidence ({@link wordEvidence}) decides by default from this calibrated confidence. The fit
 * counts one query in five without an answer, more than a user's file of known customers has, so it
 * is conservative: answers from 0.8 were right 0.99 of the time on the held-apart half of the listed
 * names (`bench/match/real-companies.ts`).
 */
const WORDS_DEFAULT = 0.8;
/**
 * Word-evidence answers are reported at most this sure. Their table is fitted on listed names, where
 * such answers were right 97% of the time; on the early-childhood organisations (a site written with or
 * without its parent organisation) about 80%: the 0.9–1.0 band stays for evidence that carries over
 * from one kind of data to another (the same name, typos, legal forms).
 */
const WORDS_CAP = 0.89;

function answer(pos: number, path: ConfidencePath, raw: number, on: MatchedOn[], cap = 1): NameAnswer {
  return { pos, confidence: Math.min(cap, calibrated(path, raw)), on, path, raw };
}

/** A name answer as the row's verdict, with the candidates the explain output lists. */
function matchOf(a: NameAnswer, candidates: Scored[]): BusinessVerdict {
  return {
    kind: 'match',
    pos: a.pos,
    confidence: a.confidence,
    on: a.on,
    candidates,
    path: a.path,
    raw: a.raw,
  };
}

/** Name only (or keys that are known nowhere): exact name key, then fuzzy name. */
function byName(ctx: CompanyContext, ev: Evidence): BusinessVerdict {
  const q = nameOf(ev);
  if (q === null) return { kind: 'none', candidates: [] };
  const { index } = ctx;
  const domain = ev.domain;
  const slug = ev.slug;
  // A domain or profile that is given but unknown cannot belong to a business that has another one.
  const accept =
    domain === null && slug === null
      ? undefined
      : (pos: number) =>
          (domain === null || index.domains.at(pos) === null) &&
          (slug === null || index.linkedin.at(pos) === null);
  const search = searchCompanyName(ctx, q, accept, !ctx.detail);
  const country = domain === null ? null : tldCountry(domain.registrable);
  if (search.full === true && search.hits.length > 1) {
    // Several businesses written exactly so: only the country a domain suggests can tell them apart
    // (their legal forms are the same words); otherwise no reading or guess can, and the row says so.
    const there = country === null ? [] : search.hits.filter((h) => index.countries.at(h.pos) === country);
    if (there.length !== 1) return { kind: 'none', candidates: search.hits, ambiguous: true };
    return matchOf(answer((there[0] as Scored).pos, 'namesakes', 1, ['name']), search.hits);
  }
  // No current name has the row's name key: an other name with it comes before fuzzy current names
  // (`other-names.ts`).
  const others = search.exact ? null : searchOtherNames(ctx, q, accept, { fuzzy: false, country });
  if (others !== null && others.pos >= 0 && beatsCurrentNames(others, search.hits)) {
    return otherNameVerdict(others, search.hits);
  }
  const pick = search.exact
    ? decide(ctx, search.hits, q, { threshold: NAME_THRESHOLD, margin: NAME_MARGIN, country })
    : decideFuzzy(ctx, search.hits, q, search.scored ?? q.scored, { country });
  if (pick === null && !search.exact && others === null) {
    const fuzzy = searchOtherNames(ctx, q, accept, { fuzzy: true, country });
    if (fuzzy !== null && fuzzy.pos >= 0 && beatsCurrentNames(fuzzy, search.hits)) {
      return otherNameVerdict(fuzzy, search.hits);
    }
  }
  const weighed: NameAnswer[] = [];
  const withCandidate = (a: NameAnswer, score: number): BusinessVerdict => {
    const candidates = search.hits.some((h) => h.pos === a.pos)
      ? search.hits
      : [{ pos: a.pos, score }, ...search.hits];
    if (!weighed.includes(a)) weighed.push(a);
    return { ...matchOf(a, candidates), weighed };
  };
  if (pick === null) {
    const other = otherForm(ctx, q, accept);
    if (other !== null) return withCandidate(other, 1);
    const expanded = abbreviated(ctx, q, accept);
    if (expanded !== null) return withCandidate(expanded, 0.9);
    const words = search.exact ? null : wordEvidence(ctx, q, accept);
    const byWords =
      words === null ? null : answer(words.pos, 'words', words.strength, ['name_fuzzy'], WORDS_CAP);
    if (byWords !== null) weighed.push(byWords);
    // With a threshold every answer is weighed, so each path's answers do not depend on the table.
    const guess = ctx.minConfidence === undefined ? null : bestGuess(ctx, q, accept, search, weighed);
    if (
      byWords !== null &&
      byWords.confidence >= WORDS_DEFAULT &&
      rarestWordShare(ctx, ctx.index.nameKeys.at(byWords.pos) as string) <= OTHER_FORM_MAX_SHARED
    )
      return withCandidate(byWords, 0.5);
    if (guess === null) return { kind: 'none', candidates: search.hits };
    return withCandidate(guess, guess.path === 'words' ? 0.5 : 1);
  }
  const a = search.exact
    ? answer(pick.pos, search.hits.length === 1 ? 'exact' : 'namesakes', 1, ['name'])
    : answer(pick.pos, 'fuzzy', pick.score, ['name_fuzzy']);
  return matchOf(a, search.hits);
}

/**
 * The verdict of an other-name answer: calibrated as a current name's answer of the same kind, with the
 * businesses the current and the other names scored as candidates (each once, at its best score).
 */
function otherNameVerdict(a: OtherNameAnswer, current: readonly Scored[]): BusinessVerdict {
  const path: ConfidencePath = !a.exact ? 'fuzzy' : a.holders === 1 ? 'exact' : 'namesakes';
  const best = new Map<number, number>();
  for (const h of [...a.hits, ...current]) best.set(h.pos, Math.max(best.get(h.pos) ?? 0, h.score));
  const candidates = [...best]
    .map(([pos, score]) => ({ pos, score }))
    .sort((x, y) => y.score - x.score || x.pos - y.pos);
  const raw = a.exact ? 1 : a.score;
  return {
    kind: 'match',
    pos: a.pos,
    confidence: calibrated(path, raw),
    on: [a.exact ? 'name' : 'name_fuzzy', 'other_name'],
    candidates,
    path,
    raw,
  };
}

/** Abbreviated words ("Brightw. Electr.", "Intl Business Mach"): at most this many readings each. */
const PREFIX_READINGS = 8;

/**
 * A name whose words no indexed name has are read as abbreviations or cut-off words of indexed words
 * ("Brightw. Electr." → "brightwell electronics"): when exactly one business has a name that a reading
 * gives exactly (legal form allowing), that business.
 */
function abbreviated(
  ctx: CompanyContext,
  q: QueryName,
  accept: ((pos: number) => boolean) | undefined,
): NameAnswer | null {
  const words = q.scored.tokens;
  if (words.length === 0 || words.length > 6) return null;
  const tokens = ctx.tokens();
  const readings: string[][] = [];
  let unknown = 0;
  for (const w of words) {
    if (tokens.vocabId.has(w) || w.length < 3 || /^[0-9]+$/.test(w)) {
      readings.push([w]);
      continue;
    }
    const full = wordsWithPrefix(tokens, w, PREFIX_READINGS);
    if (full.length === 0) return null;
    readings.push(full);
    unknown++;
  }
  if (unknown === 0) return null;
  let keys = [''];
  for (const r of readings) {
    keys = keys.flatMap((k) => r.map((w) => (k ? `${k} ${w}` : w)));
    if (keys.length > 64) return null;
  }
  const found = new Set<number>();
  for (const key of keys)
    for (const pos of ctx.index.byNameKey.get(key))
      if ((accept === undefined || accept(pos)) && !formConflict(ctx, q, pos)) found.add(pos);
  if (found.size !== 1) return null;
  const [pos] = found as Set<number> & Iterable<number>;
  return answer(pos as number, 'abbreviated', 1, ['name_fuzzy']);
}

/**
 * The same name with another legal form is matched at most at this confidence, whatever the labelled
 * sets say: they hold one business per name, so they cannot show how often two legal entities share a
 * name ("Nordlicht GmbH" and "Nordlicht Inc."), which is why a caller who asks for confident answers
 * gets none from a legal form alone.
 */
const OTHER_FORM_CAP = 0.8;

/**
 * At most this many names of the snapshot may hold the name's rarest word for a legal form alone, or a
 * word more or less (`company-words.ts`), to be read as a spelling of the same company by default. A name whose words few names have ("Brightwell") written with
 * another form is the same company written differently; a name built of words hundreds of names share
 * ("Summit Networks", "Quantumbit Talent") with another form is as often a second company of that name,
 * and the more names a snapshot holds, the likelier. Such rows stay open by default; a caller who lowers
 * `min_confidence` still gets the candidate, at its calibrated confidence.
 */
const OTHER_FORM_MAX_SHARED = 5;

/** How many names hold the rarest word of `key` (0 when a word is in no name). */
function rarestWordShare(ctx: CompanyContext, key: string): number {
  const tokens = ctx.tokens();
  let least = Infinity;
  for (const word of key.split(' ')) {
    const n = docFrequency(tokens, tokens.vocabId.get(word));
    if (n < least) least = n;
  }
  return least;
}

/**
 * The one business with the same name, written with another legal form ("Brightwell Inc." when only
 * "Brightwell N.V." exists): matched at a lower confidence, and said so. Several such namesakes, or a
 * name of common words ({@link OTHER_FORM_MAX_SHARED}): none.
 */
function otherForm(
  ctx: CompanyContext,
  q: QueryName,
  accept: ((pos: number) => boolean) | undefined,
): NameAnswer | null {
  if (q.form.length === 0 || q.key.length === 0) return null;
  const same = ctx.index.byNameKey.get(q.key);
  if (same.length !== 1) return null;
  const pos = same[0] as number;
  if ((accept !== undefined && !accept(pos)) || !formConflict(ctx, q, pos)) return null;
  if (rarestWordShare(ctx, q.key) > OTHER_FORM_MAX_SHARED) return null;
  return answer(pos, 'other_form', 1, ['name', 'legal_form_differs'], OTHER_FORM_CAP);
}

/**
 * The best candidate of a row the default decision leaves open, with a calibrated confidence: namesakes
 * shared out (with another legal form when none has the one written), the word evidence, or the best
 * fuzzy candidate discounted for words only one name has and for a close runner-up; the surest of them.
 */
function bestGuess(
  ctx: CompanyContext,
  q: QueryName,
  accept: ((pos: number) => boolean) | undefined,
  search: NameSearch,
  weighed: NameAnswer[],
): NameAnswer | null {
  const same = ctx.index.byNameKey.get(q.key).filter((p) => accept === undefined || accept(p));
  if (same.length > 0) {
    same.sort((a, b) => a - b);
    const fits = same.filter((p) => !formConflict(ctx, q, p));
    if (fits.length > 0) return answer(fits[0] as number, 'guess_namesakes', 1 / fits.length, ['name']);
    return answer(
      same[0] as number,
      'other_form',
      1 / same.length,
      ['name', 'legal_form_differs'],
      OTHER_FORM_CAP,
    );
  }
  if (search.exact) return null;
  const best = search.hits[0];
  let fuzzy: NameAnswer | null = null;
  if (best !== undefined) {
    const second = search.hits[1]?.score ?? 0;
    alignedScore(search.scored ?? q.scored, ctx.scored(best.pos));
    const unmatched = lastAlignment.unmatched;
    const lead = Math.min(1, (best.score - second) / 0.1);
    const raw = best.score * (0.55 + 0.35 * lead) * (unmatched > 0 ? 0.9 : 1);
    fuzzy = answer(best.pos, 'guess_fuzzy', raw, ['name_fuzzy']);
    weighed.push(fuzzy);
  }
  // The top hit of a word search: a candidate for every row that shares a (read) word with a name.
  // The word evidence reads families of names and qualifiers, which the word search does not: on the
  // candidate it weighed, the search's answer is never surer than it ("Brightwell Group" for "Brightwell").
  const hit = retrieveCompany(ctx, q, accept);
  if (hit !== null) {
    const words = weighed.find((a) => a.path === 'words' && a.pos === hit.pos);
    weighed.push(answer(hit.pos, 'guess_retrieved', hit.raw, ['name_fuzzy'], words?.confidence ?? 1));
  }
  let surest: NameAnswer | null = null;
  for (const a of weighed) if (surest === null || a.confidence > surest.confidence) surest = a;
  return surest;
}

/** The best other candidates of a verdict, for `alternatives`. */
export function otherCandidates(verdict: Verdict, k: number): Scored[] {
  if (verdict.kind === 'error' || k <= 0) return [];
  const chosen = verdict.kind === 'match' ? verdict.pos : -1;
  const out: Scored[] = [];
  for (const c of verdict.candidates) {
    if (c.pos === chosen) continue;
    out.push(c);
    if (out.length >= k) break;
  }
  return out;
}
