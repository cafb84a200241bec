/** Business records (docs/spec/snapshot-format.md § businesses), one at a time from the plan. */
import { INTENT_LEVELS, type IntentLevel } from '../../src/schemas/enums.js';
import { TECHNOLOGIES, categoryLabel } from '../../src/schemas/technologies.js';
import {
  TECH_CATEGORIES,
  categoryWeight,
  INTENT_TOPICS,
  type TechCategory,
  type TechStack,
} from './data/tech.js';
import { businessCore, type BusinessCore } from './business-core.js';
import { businessEnrichments } from './business-enrichments.js';
import { countryName, regionName } from './location.js';
import { otherNames } from './other-names.js';
import type { Plan } from './plan.js';
import { Rng, STREAM, Weighted } from '../rng.js';

export type { TechStack } from './data/tech.js';

const TECH_COUNT: readonly (readonly [number, number])[] = [
  [3, 6],
  [4, 9],
  [6, 14],
  [8, 18],
  [10, 22],
  [12, 28],
  [15, 32],
  [18, 40],
];
const CATEGORY_PICKS = new Map(
  [
    'tech',
    'services',
    'health',
    'finance',
    'industrial',
    'construction',
    'logistics',
    'retail',
    'hospitality',
    'education',
    'energy',
    'media',
    'nonprofit',
  ].map((kind) => [
    kind,
    new Weighted(TECH_CATEGORIES.map((c) => [c, categoryWeight(kind as never, c)] as const)),
  ]),
);
const INTENT_LEVEL = new Weighted<IntentLevel>(INTENT_LEVELS.map((l, i) => [l, [50, 35, 15][i]!] as const));

function techStack(rng: Rng, core: BusinessCore): TechStack {
  const picks = CATEGORY_PICKS.get(core.industry.kind)!;
  const [fewest, most] = TECH_COUNT[core.sizeIndex]!;
  const stack = new Map<TechCategory, string[]>();
  for (let n = rng.between(fewest, most); n > 0; n--) {
    const category = picks.pick(rng);
    const list = TECHNOLOGIES[category];
    // Popular tools (listed first) are far more common than niche ones.
    const tech = list[Math.floor(rng.next() ** 2 * list.length)]!;
    const held = stack.get(category) ?? [];
    if (!held.includes(tech)) stack.set(category, [...held, tech]);
  }
  return new Map(TECH_CATEGORIES.filter((c) => stack.has(c)).map((c) => [c, stack.get(c)!]));
}

function description(rng: Rng, core: BusinessCore, keywords: readonly string[]): string {
  const where = `${core.city[0]}, ${core.country.code === 'us' ? core.city[1].slice(3).toUpperCase() : countryName(core.country.code).replace(/\b\w/g, (c) => c.toUpperCase())}`;
  const what = core.industry.google[0]!.toLowerCase();
  const offer = keywords.slice(0, 3).join(', ');
  return rng.chance(0.5)
    ? `${core.name} is a ${what} headquartered in ${where}. Founded in ${core.foundedYear}, it focuses on ${offer}.`
    : `Founded in ${core.foundedYear} and based in ${where}, ${core.name} provides ${offer} to customers ${core.sizeIndex >= 4 ? 'worldwide' : `across ${core.city[2]}`}.`;
}

/** The full record of business `i`. */
export function businessRecord(plan: Plan, i: number): Record<string, unknown> {
  const core = businessCore(plan, i);
  const rng = new Rng(plan.seed, STREAM.enrichment, i);
  const { industry } = core;
  const keywords = rng.sample(industry.keywords, rng.between(2, industry.keywords.length));
  const stack = techStack(rng, core);
  const topics = rng.chance(0.45)
    ? rng
        .sample(INTENT_TOPICS, rng.between(1, 5))
        .map((topic) => ({ topic, intent_level: INTENT_LEVEL.pick(rng) }))
    : [];
  const website = `https://www.${core.domain}`;
  const linkedin = rng.chance(0.9) ? `https://www.linkedin.com/company/${core.linkedinSlug}` : null;
  const businessDescription = rng.chance(0.92) ? description(rng, core, keywords) : null;
  const logo = rng.chance(0.85) ? `https://logo.clearbit.com/${core.domain}` : null;
  const record = {
    business_id: core.id,
    name: core.name,
    domain: core.domain,
    website,
    linkedin_profile: linkedin,
    logo,
    business_description: businessDescription,
    country_code: core.country.code,
    country_name: countryName(core.country.code),
    region_country_code: core.city[1],
    region: regionName(core.city[1]),
    city_name: core.city[0],
    city_region: core.city[2],
    operating_locations: core.operating,
    number_of_employees_range: core.size,
    yearly_revenue_range: core.revenue,
    founded_year: core.foundedYear,
    number_of_locations: core.locations,
    naics: industry.naics,
    naics_description: industry.naicsDescription,
    sic_code: industry.sic,
    sic_code_description: industry.sicDescription,
    google_category: industry.google,
    linkedin_category: [industry.linkedin],
    company_tech_stack_tech: [...stack.values()].flat(),
    company_tech_stack_categories: [...stack.keys()].map(categoryLabel),
    website_keywords: keywords,
    business_intent_topics: topics,
    is_public_company: core.isPublic,
    ticker: core.ticker,
    enrichments: {},
  };
  record.enrichments = businessEnrichments(plan, rng, core, {
    website,
    linkedin,
    description: businessDescription,
    logo,
    keywords,
    stack,
    topics: topics.map((t) => t.topic),
  });
  // Last, and only when there are some: a record without other names is as it was before the field.
  const others = otherNames(plan.seed, core);
  return others.length > 0 ? { ...record, other_names: others } : record;
}

/** Every business of the plan, in index order. */
export function* businesses(plan: Plan): Generator<Record<string, unknown>> {
  for (let i = 0; i < plan.businesses; i++) yield businessRecord(plan, i);
}
