/**
 * Prospect records (docs/spec/snapshot-format.md § prospects). Employees of business `i` are the prospect
 * indexes the plan gives it; a prospect is rebuilt from its index and its employer's core alone.
 */
import type { JobDepartment } from '../../src/schemas/enums.js';
import { INDUSTRIES, type Industry, type IndustryKind } from './data/industries.js';
import { JOB_TITLES, TITLES_BY_DEPARTMENT, type JobTitle } from './data/jobs.js';
import { COUNTRIES } from '../../src/schemas/places.js';
import { DEGREES, INTERESTS, SCHOOLS, fieldsFor, skillsFor } from './data/tech.js';
import { businessCore, type BusinessCore } from './business-core.js';
import { linkedinPosts } from './business-enrichments.js';
import { coreName, legalName } from './naming.js';
import { countryByCode, countryName, pickCity, regionName } from './location.js';
import { emails, linkedinUrls, person, phones, TakenEmails } from './person.js';
import { COUNTRY_PICK, employedCount, employerOf, type Plan } from './plan.js';
import { Rng, STREAM, Weighted } from '../rng.js';
import { monthDate } from './text.js';

const BASE_DEPARTMENTS: Partial<Record<JobDepartment, number>> = {
  sales: 12,
  marketing: 6,
  engineering: 6,
  operations: 8,
  finance: 5,
  'human resources': 4,
  administration: 4,
  'customer success': 3,
  support: 3,
  it: 3,
  product: 2,
  design: 1.5,
  data: 1.5,
  legal: 1,
  strategy: 0.5,
  partnerships: 0.5,
  procurement: 0.7,
  security: 0.5,
};
const KIND_DEPARTMENTS: Readonly<Record<IndustryKind, Partial<Record<JobDepartment, number>>>> = {
  tech: { engineering: 28, product: 6, data: 5, design: 3, security: 2, 'customer success': 6 },
  services: { strategy: 8, operations: 10 },
  health: { healthcare: 35 },
  finance: { finance: 22, sales: 14 },
  industrial: { manufacturing: 22, engineering: 8, logistics: 5, procurement: 3 },
  construction: { trade: 28, operations: 10 },
  logistics: { logistics: 28, operations: 12 },
  retail: { retail: 28, logistics: 5 },
  hospitality: { retail: 12, operations: 18 },
  education: { education: 35 },
  energy: { operations: 15, engineering: 10, trade: 8 },
  media: { creative: 22, marketing: 10, design: 6 },
  nonprofit: { administration: 10, partnerships: 6, 'public service': 5 },
};
// Some industries have their own profession whatever their kind.
const NAICS_DEPARTMENTS: Readonly<Record<number, Partial<Record<JobDepartment, number>>>> = {
  541110: { legal: 40 },
  541211: { finance: 35 },
  531210: { 'real estate': 35 },
  531120: { 'real estate': 25 },
  541714: { 'r&d': 25, healthcare: 3 },
  541715: { 'r&d': 25 },
  325412: { 'r&d': 15, manufacturing: 15, healthcare: 3 },
  339112: { 'r&d': 10, manufacturing: 15, healthcare: 3 },
  424210: { logistics: 15, healthcare: 3 },
};

function titlePick(titles: readonly JobTitle[]): Weighted<JobTitle> {
  return new Weighted(titles.map((t) => [t, t.weight] as const));
}
const TITLE_PICKS = new Map([...TITLES_BY_DEPARTMENT].map(([d, titles]) => [d, titlePick(titles)]));
// Earlier roles: anything but the top of a company.
const EARLIER_PICKS = new Map(
  [...TITLES_BY_DEPARTMENT].map(([d, titles]) => {
    const junior = titles.filter(
      (t) => !['c-suite', 'founder', 'owner', 'president', 'board member'].includes(t.level),
    );
    return [d, titlePick(junior.length > 0 ? junior : TITLES_BY_DEPARTMENT.get('operations')!)];
  }),
);
const LEADERS = titlePick(
  JOB_TITLES.filter(
    (t) => ['owner', 'founder', 'c-suite', 'president'].includes(t.level) && t.department === 'c-suite',
  ),
);

/** Departments per industry; small companies have many more executives per head. */
const DEPARTMENT_PICKS: readonly (readonly [Weighted<JobDepartment>, Weighted<JobDepartment>])[] =
  INDUSTRIES.map((ind: Industry) => {
    const weights = { ...BASE_DEPARTMENTS, ...KIND_DEPARTMENTS[ind.kind], ...NAICS_DEPARTMENTS[ind.naics] };
    const make = (executives: number): Weighted<JobDepartment> =>
      new Weighted(
        Object.entries({ ...weights, 'c-suite': executives }).map(
          ([d, w]) => [d as JobDepartment, w] as const,
        ),
      );
    return [make(6), make(0.3)];
  });

const AGE_GROUPS: readonly (readonly [number, string])[] = [
  [25, '18-24'],
  [35, '25-34'],
  [45, '35-44'],
  [55, '45-54'],
  [65, '55-64'],
];
const ageGroup = (age: number): string => AGE_GROUPS.find(([below]) => age < below)?.[1] ?? '65+';

function pickTitle(rng: Rng, plan: Plan, employer: BusinessCore | null, position: number): JobTitle {
  if (employer && position === 0 && employer.sizeIndex <= 1) return LEADERS.pick(rng);
  const industry = employer ? plan.industry[employer.index]! : rng.int(INDUSTRIES.length);
  const department = DEPARTMENT_PICKS[industry]![employer && employer.sizeIndex >= 2 ? 1 : 0]!.pick(rng);
  return TITLE_PICKS.get(department)!.pick(rng);
}

/**
 * The record of prospect `k`; `employer` is the core of its business when the caller already has it.
 * `taken` (the sequential generator's) keeps e-mail mailboxes unique; without it (a prospect rebuilt
 * alone for an event) an address may lack the number a namesake earlier in the snapshot forced on it.
 */
export function prospectRecord(
  plan: Plan,
  k: number,
  employer: BusinessCore | null,
  position: number,
  taken?: TakenEmails,
): Record<string, unknown> {
  const rng = new Rng(plan.seed, STREAM.prospect, k);
  const id = rng.hex(40);
  // Location: mostly headquarters, sometimes an office elsewhere, sometimes remote in the same country.
  let country = employer ? employer.country : COUNTRIES[COUNTRY_PICK.pick(rng)]!;
  let city = employer ? employer.city : pickCity(rng, country);
  const where = rng.next();
  if (employer && where > 0.8) {
    const office = employer.operating.length > 0 && where < 0.92 ? rng.pick(employer.operating) : null;
    if (office) {
      country = countryByCode(office.country_code);
      city = country.cities.find((c) => c[0] === office.city_name) ?? city;
    } else {
      city = pickCity(rng, country);
    }
  }
  const p = person(rng, country);
  const fullName = `${p.first} ${p.last}`;
  const title = pickTitle(rng, plan, employer, position);
  const links = rng.chance(0.92) ? linkedinUrls(rng, p, k, plan.seed) : null;

  // Work history, newest first: current role, then 1–4 earlier ones with small gaps.
  const currentMonths = Math.min(240, 1 + Math.floor(-Math.log(1 - rng.next()) * 30));
  let start = plan.asOfMonth - currentMonths;
  const companyName = employer
    ? employer.name
    : legalName(rng, coreName(rng, country, rng.pick(INDUSTRIES), city), country, false);
  const experience = [
    {
      company_name: companyName,
      title: title.title,
      start_date: monthDate(start),
      end_date: null as string | null,
    },
  ];
  let total = currentMonths;
  const earlier = EARLIER_PICKS.get(title.department)!;
  for (let n = rng.between(1, 4); n > 0; n--) {
    const end = start - rng.between(0, 6);
    const months = rng.between(6, 60);
    start = end - months;
    total += months;
    const previous = legalName(
      rng,
      coreName(rng, country, rng.pick(INDUSTRIES), pickCity(rng, country)),
      country,
      rng.chance(0.2),
    );
    experience.push({
      company_name: previous,
      title: earlier.pick(rng).title,
      start_date: monthDate(start),
      end_date: monthDate(end),
    });
  }
  const careerStartYear = Math.floor(start / 12);
  const age = Math.floor(plan.asOfMonth / 12) - careerStartYear + 22 + rng.between(-1, 3);

  const schools = SCHOOLS[country.code] ?? SCHOOLS.us!;
  const education = [
    {
      school: rng.pick(schools),
      degree: rng.pick(DEGREES.slice(0, 2)),
      field: rng.pick(fieldsFor(title.department)),
      end_year: careerStartYear,
    },
  ];
  if (rng.chance(0.3)) {
    education.unshift({
      school: rng.pick(schools),
      degree: rng.pick(DEGREES.slice(2)),
      field: rng.pick(fieldsFor(title.department)),
      end_year: Math.min(careerStartYear + rng.between(2, 8), Math.floor(plan.asOfMonth / 12)),
    });
  }
  const skills = rng.sample(skillsFor(title.department), rng.between(3, 8));
  const record = {
    prospect_id: id,
    business_id: employer ? employer.id : null,
    first_name: p.first,
    last_name: p.last,
    full_name: fullName,
    linkedin: links ? links.primary : null,
    linkedin_url_array: links ? links.variants : [],
    country_code: country.code,
    country_name: countryName(country.code),
    region_country_code: city[1],
    region_name: regionName(city[1]),
    city: city[0],
    job_title: title.title,
    job_level_main: title.level,
    job_level_array: title.levels,
    job_department_main: title.department,
    job_department_array: title.departments,
    total_experience_months: total,
    current_role_months: currentMonths,
    experience,
    skills,
    interests: rng.sample(INTERESTS, rng.between(0, 5)),
    education,
    age_group: ageGroup(age),
    gender: p.gender,
    emails: emails(rng, p, employer, taken),
    phone_numbers: phones(rng, country, city),
    enrichments: {} as Record<string, unknown>,
  };
  if (links && rng.chance(0.15)) {
    record.enrichments.linkedin_posts = linkedinPosts(
      rng,
      plan,
      fullName,
      links.primary.split('/').pop()!,
      null,
      skills,
    );
  }
  return record;
}

/** Prospect `k` rebuilt alone (events use it to describe the person). */
export function prospectAt(plan: Plan, k: number): Record<string, unknown> {
  const b = employerOf(plan, k);
  if (b < 0) return prospectRecord(plan, k, null, -1);
  return prospectRecord(plan, k, businessCore(plan, b), k - plan.firstProspect[b]!);
}

/** Every prospect of the plan: employees business by business, then those without an employer. */
export function* prospects(plan: Plan): Generator<Record<string, unknown>> {
  const taken = new TakenEmails();
  for (let b = 0; b < plan.businesses; b++) {
    const from = plan.firstProspect[b]!;
    const to = plan.firstProspect[b + 1]!;
    if (from === to) continue;
    const core = businessCore(plan, b);
    for (let k = from; k < to; k++) yield prospectRecord(plan, k, core, k - from, taken);
  }
  for (let k = employedCount(plan); k < plan.prospects; k++) yield prospectRecord(plan, k, null, -1, taken);
}
