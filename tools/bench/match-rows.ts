/**
 * The rows the match bench sends: exact-key rows (a stored domain, a stored e-mail) and labelled mixed
 * rows (every perturbation kind of `eval-rows.ts`, plus rows for entities not in the database), drawn
 * with a seeded generator from the database itself, so the same command works on a user's file.
 */
import type { BusinessRowInput, ProspectRowInput } from '../../src/core/match/index.js';
import type { Engine } from '../../src/engine.js';
import {
  businesses as generatedBusinesses,
  makePlan,
  prospects as generatedProspects,
} from '../generate/index.js';
import { companyMatchKey } from '../../src/normalise/company.js';
import { decodeDoc, fileCodec } from '../../src/store/codec.js';
import {
  BUSINESS_KINDS,
  businessRow,
  PROSPECT_KINDS,
  prospectRow,
  type BusinessDoc,
  type ProspectDoc,
} from './eval-rows.js';
import { Prng } from '../rng.js';

export interface Labelled<Input> {
  kind: string;
  input: Input;
  truth: string | null;
}

/** Plain exact-key lookups, the way one would write them without the engine: the baseline. */
export interface ExactMaps {
  /** Lower-cased domain (no scheme, no `www.`) → business id. */
  domains: Map<string, string>;
  /** Normalised company name → how many businesses hold it. */
  nameCounts: Map<string, number>;
  /** Normalised company name held by one business only → its id. */
  names: Map<string, string>;
  /** Lower-cased e-mail address → prospect id. */
  emails: Map<string, string>;
}

/** The plain baseline's domain normalisation: lower case, no scheme, no `www.`, no path. */
export function plainDomain(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/?#].*$/, '');
}

/** One pass over each table: the baseline's maps (built outside every timer). */
export function exactMaps(engine: Engine): ExactMaps {
  const domains = new Map<string, string>();
  const nameCounts = new Map<string, number>();
  const names = new Map<string, string>();
  for (const r of engine.db
    .prepare('SELECT business_id, name, domain FROM businesses')
    .iterate() as Iterable<{
    business_id: string;
    name: string | null;
    domain: string | null;
  }>) {
    if (r.domain) domains.set(plainDomain(r.domain), r.business_id);
    const key = r.name ? companyMatchKey(r.name) : '';
    if (key) {
      nameCounts.set(key, (nameCounts.get(key) ?? 0) + 1);
      names.set(key, r.business_id);
    }
  }
  for (const [key, n] of nameCounts) if (n > 1) names.delete(key);
  const emails = new Map<string, string>();
  const codec = fileCodec(engine.db);
  for (const r of engine.db
    .prepare('SELECT wire, rest FROM prospects WHERE has_email = 1')
    .iterate() as Iterable<{ wire: Uint8Array; rest: Uint8Array }>) {
    const p = decodeDoc('prospects', r.wire, r.rest, codec);
    for (const e of p.emails ?? []) emails.set(e.address.trim().toLowerCase(), p.prospect_id);
  }
  return { domains, nameCounts, names, emails };
}

/** Up to `n` records of a table at seeded random rowids. */
function sample<Doc>(engine: Engine, table: 'businesses' | 'prospects', n: number, rng: Prng): Doc[] {
  const max =
    (engine.db.prepare(`SELECT max(rowid) AS m FROM ${table}`).get() as { m: number | null }).m ?? 0;
  if (max === 0) return [];
  const want = new Set<number>();
  for (let tries = 0; want.size < Math.min(n, max) && tries < n * 4; tries++) want.add(1 + rng.int(max));
  const read = engine.db.prepare(`SELECT wire, rest FROM ${table} WHERE rowid = ?`);
  const codec = fileCodec(engine.db);
  const out: Doc[] = [];
  for (const rowid of want) {
    const r = read.get(rowid) as { wire: Uint8Array; rest: Uint8Array } | undefined;
    if (r !== undefined) out.push(decodeDoc(table, r.wire, r.rest, codec) as unknown as Doc);
  }
  return out;
}

function shuffle<T>(rng: Prng, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
}

export interface BenchRows {
  exactBusinesses: BusinessRowInput[];
  exactProspects: ProspectRowInput[];
  mixedBusinesses: Labelled<BusinessRowInput>[];
  mixedProspects: Labelled<ProspectRowInput>[];
  /** Why some drawn rows were left out (their label could not be known). */
  notes: string[];
}

/**
 * Rows for the bench: `exact` exact-key rows per entity; `perKind` mixed rows per perturbation kind,
 * plus 10% rows drawn from a snapshot generated with another seed (label: no match). Name-only rows of a
 * name that several businesses share are left out (no matcher can know which one is meant), and so are
 * the unseen rows whose domain, name or e-mail the database holds.
 */
export function benchRows(
  engine: Engine,
  maps: ExactMaps,
  exact: number,
  perKind: number,
  seed: number,
): BenchRows {
  const rng = new Prng(seed);
  const notes: string[] = [];
  const bs = sample<BusinessDoc>(engine, 'businesses', Math.max(exact, perKind * 4), rng);
  const ps = sample<ProspectDoc>(engine, 'prospects', Math.max(exact, perKind * 4), rng);

  const withDomain = bs.filter((b) => b.domain);
  const exactBusinesses: BusinessRowInput[] = [];
  for (let i = 0; withDomain.length > 0 && i < exact; i++)
    exactBusinesses.push({ domain: (withDomain[i % withDomain.length] as BusinessDoc).domain });
  const withEmail = ps.filter((p) => (p.emails ?? []).length > 0);
  const exactProspects: ProspectRowInput[] = [];
  for (let i = 0; withEmail.length > 0 && i < exact; i++)
    exactProspects.push({ email: (withEmail[i % withEmail.length] as ProspectDoc).emails?.[0]?.address });

  const nameOnly = (r: BusinessRowInput) =>
    typeof r.name === 'string' && !r.domain && !r.url && !r.linkedin_url;
  const shared = (name: string) => (maps.nameCounts.get(companyMatchKey(name)) ?? 0) > 1;
  let ambiguous = 0;
  const mixedBusinesses: Labelled<BusinessRowInput>[] = [];
  for (const kind of BUSINESS_KINDS) {
    let made = 0;
    for (let tries = 0; made < perKind && bs.length > 0 && tries < perKind * 20; tries++) {
      const b = rng.pick(bs);
      const input = businessRow(rng, b, kind);
      if (input === null) continue;
      if (nameOnly(input) && shared(b.name)) {
        ambiguous++;
        continue;
      }
      mixedBusinesses.push({ kind, input, truth: b.business_id });
      made++;
    }
  }
  if (ambiguous > 0) notes.push(`${ambiguous} name-only business rows left out: their name is shared`);

  // Entities not in the database: another seed's snapshot, checked against the maps.
  const unseenCount = Math.round(mixedBusinesses.length / 9);
  const plan = makePlan({
    businesses: unseenCount * 3 + 10,
    prospects: unseenCount * 3 + 10,
    events: 0,
    seed: seed + 7919,
  });
  const others = [...generatedBusinesses(plan)] as unknown as BusinessDoc[];
  const byId = new Map(others.map((b) => [b.business_id, b]));
  const knownBusiness = (b: BusinessDoc) =>
    (b.domain && maps.domains.has(plainDomain(b.domain))) || maps.nameCounts.has(companyMatchKey(b.name));
  const fresh = others.filter((b) => !knownBusiness(b));
  for (let made = 0, tries = 0; made < unseenCount && fresh.length > 0 && tries < unseenCount * 20; tries++) {
    const kind = rng.pick(BUSINESS_KINDS);
    const input = businessRow(rng, rng.pick(fresh), kind);
    if (input === null) continue;
    mixedBusinesses.push({ kind: `unseen:${kind}`, input, truth: null });
    made++;
  }

  const companies = new Map<string, BusinessDoc>();
  const read = engine.db.prepare('SELECT wire, rest FROM businesses WHERE business_id = ?');
  const codec = fileCodec(engine.db);
  const companyOf = (p: ProspectDoc): BusinessDoc | undefined => {
    if (!p.business_id) return undefined;
    let b = companies.get(p.business_id);
    if (b === undefined) {
      const r = read.get(p.business_id) as { wire: Uint8Array; rest: Uint8Array } | undefined;
      if (r === undefined) return undefined;
      b = decodeDoc('businesses', r.wire, r.rest, codec) as unknown as BusinessDoc;
      companies.set(p.business_id, b);
    }
    return b;
  };
  const mixedProspects: Labelled<ProspectRowInput>[] = [];
  for (const kind of PROSPECT_KINDS) {
    let made = 0;
    for (let tries = 0; made < perKind && ps.length > 0 && tries < perKind * 20; tries++) {
      const p = rng.pick(ps);
      const input = prospectRow(rng, p, companyOf(p), kind);
      if (input === null) continue;
      mixedProspects.push({ kind, input, truth: p.prospect_id });
      made++;
    }
  }
  const otherProspects = ([...generatedProspects(plan)] as unknown as ProspectDoc[]).filter(
    (p) => !(p.emails ?? []).some((e) => maps.emails.has(e.address.trim().toLowerCase())),
  );
  const unseenProspects = Math.round(mixedProspects.length / 9);
  for (
    let made = 0, tries = 0;
    made < unseenProspects && otherProspects.length > 0 && tries < unseenProspects * 20;
    tries++
  ) {
    const kind = rng.pick(PROSPECT_KINDS);
    const p = rng.pick(otherProspects);
    const b = p.business_id ? byId.get(p.business_id) : undefined;
    if (b !== undefined && knownBusiness(b)) continue;
    const input = prospectRow(rng, p, b, kind);
    if (input === null) continue;
    mixedProspects.push({ kind: `unseen:${kind}`, input, truth: null });
    made++;
  }
  return {
    exactBusinesses,
    exactProspects,
    mixedBusinesses: shuffle(rng, mixedBusinesses),
    mixedProspects: shuffle(rng, mixedProspects),
    notes,
  };
}
