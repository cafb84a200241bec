/**
 * Enrichment payloads of a business (docs/spec/api-reference.md §14.4 field names), each present for a
 * realistic share of companies. Values agree with the record: same name, website, size, tech stack and
 * topics.
 *
 * Over 400 lines on purpose: one builder per enrichment payload of docs/spec/api-reference.md §14.4 (a table
 * of small functions).
 */
import { COMPANY_SIZES } from '../../src/schemas/enums.js';
import { FUNDING_STAGES, INVESTORS } from './data/companies.js';
import { CULTURES } from './data/names.js';
import { categoryLabel } from '../../src/schemas/technologies.js';
import type { TechStack } from './data/tech.js';
import { businessCore, type BusinessCore } from './business-core.js';
import { countryName, postcode, regionName } from './location.js';
import type { Plan } from './plan-types.js';
import type { Rng } from '../rng.js';
import { isoDay, isoTime, monthDate, slug } from './text.js';

export interface BusinessFacts {
  website: string;
  linkedin: string | null;
  description: string | null;
  logo: string | null;
  keywords: readonly string[];
  stack: TechStack;
  topics: readonly string[];
}

const DAY = 86_400_000;
const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;
const WORKFORCE_DEPARTMENTS = [
  'real_estate',
  'design',
  'education',
  'pr',
  'trades',
  'customer_service',
  'health',
  'operations',
  'sales',
  'legal',
  'finance',
  'media',
  'hr',
  'marketing',
  'engineering',
];
const STREET_WORDS = [
  'Main',
  'Market',
  'Park',
  'Harbor',
  'Mission',
  'Broad',
  'King',
  'Church',
  'Station',
  'River',
  'Oak',
  'Cedar',
];
const STREET_TYPES = ['Street', 'Ave', 'Blvd', 'Road', 'Way', 'Plaza'];

function street(rng: Rng, core: BusinessCore): string {
  const n = rng.between(1, 250);
  const word = rng.pick(STREET_WORDS);
  switch (core.country.code) {
    case 'de':
    case 'ch':
      return `${rng.pick(CULTURES.german!.last)}straße ${n}`;
    case 'fr':
      return `${n} rue ${rng.pick(CULTURES.french!.last)}`;
    case 'es':
      return `Calle de ${rng.pick(CULTURES.spanish!.last)} ${n}`;
    case 'it':
      return `Via ${rng.pick(CULTURES.italian!.last)} ${n}`;
    case 'br':
      return `Rua ${rng.pick(CULTURES.portuguese!.last)}, ${n}`;
    case 'nl':
      return `${rng.pick(CULTURES.dutch!.last).replace(/^(de|van der|van den|van) /, '')}straat ${n}`;
    case 'se':
      return `${rng.pick(CULTURES.nordic!.last)}gatan ${n}`;
    case 'jp':
      return `${rng.between(1, 5)}-${rng.between(1, 20)}-${rng.between(1, 30)} ${rng.pick(['Marunouchi', 'Shibuya', 'Umeda', 'Sakae', 'Tenjin'])}`;
    default:
      return `${n} ${word} ${rng.pick(STREET_TYPES)}`;
  }
}

function firmographics(rng: Rng, core: BusinessCore, facts: BusinessFacts): object {
  const byCountry = new Map<string, number>([
    [core.country.code, Math.max(1, core.locations - core.operating.length)],
  ]);
  for (const o of core.operating) byCountry.set(o.country_code, (byCountry.get(o.country_code) ?? 0) + 1);
  return {
    business_id: core.id,
    name: core.name,
    business_description: facts.description,
    website: facts.website,
    country_name: countryName(core.country.code),
    region_name: regionName(core.city[1]),
    city_name: core.city[0],
    street: street(rng, core),
    zip_code: postcode(rng, core.country, core.city),
    naics: String(core.industry.naics),
    naics_description: core.industry.naicsDescription,
    sic_code: core.industry.sic,
    sic_code_description: core.industry.sicDescription,
    ticker: core.ticker,
    number_of_employees_range: core.size,
    yearly_revenue_range: core.revenue,
    linkedin_industry_category: core.industry.linkedin,
    linkedin_profile: facts.linkedin,
    business_logo: facts.logo,
    locations_distribution: [...byCountry].map(([code, n]) => ({ country: countryName(code), locations: n })),
  };
}

function technographics(stack: TechStack): object {
  const out: Record<string, unknown> = {
    full_tech_stack: [...stack.values()].flat(),
    full_nested_tech_stack: [...stack].map(([c, technologies]) => ({
      category: categoryLabel(c),
      technologies,
    })),
  };
  // Only the categories the company uses: 21 mostly empty arrays would double the payload.
  for (const [c, technologies] of stack) out[c] = technologies;
  return out;
}

function webstack(rng: Rng, plan: Plan, core: BusinessCore, facts: BusinessFacts): object {
  const techs = [...facts.stack.values()].flat();
  const pay = techs.filter((t) => t === 'Stripe' || t === 'PayPal' || t === 'Klarna');
  const premium = Math.min(techs.length, rng.between(0, 2 + core.sizeIndex * 2));
  const spend = premium * rng.between(50, 900);
  return {
    business_id: core.id,
    affiliate_links: rng.chance(0.1),
    company_vertical: core.industry.google[0],
    db_indexed: true,
    earliest_record: isoTime(Date.UTC(Math.max(core.foundedYear, 2000), rng.int(12), 1)),
    ecommerce: core.industry.kind === 'retail',
    established: true,
    latest_update: isoTime(plan.asOfMs - rng.between(1, 60) * DAY),
    live_techs: true,
    money_spend_on_website_technologies: spend,
    number_of_pages_on_sitemap: rng.between(5, 40 + core.sizeIndex * 300),
    number_of_premium_technologies: premium,
    number_of_social_networks: rng.between(1, 6),
    parked: false,
    payment_options: pay.length > 0,
    payment_technologies_in_use: pay.join(', '),
    premium_techs: premium,
    product_count: core.industry.kind === 'retail' ? rng.between(20, 5000) : 0,
    q_rank: rng.between(1_000, 9_000_000),
    shopify_apps_in_use: techs.includes('Shopify') ? 'Klaviyo, Judge.me' : '',
    spend,
    status: 'active',
    categories_to_technologies_tree: Object.fromEntries(
      [...facts.stack].slice(0, 4).map(([c, t]) => [categoryLabel(c), t]),
    ),
    technologies_categories: [...facts.stack.keys()].map(categoryLabel).join(', '),
    technologies_sub_categories: '',
    technologies_used_by_company_website: techs.join(', '),
    umbrella: rng.between(0, 3),
  };
}

function fundingAndAcquisition(rng: Rng, plan: Plan, core: BusinessCore): object {
  const asOfYear = Math.floor(plan.asOfMonth / 12);
  const rounds = Math.min(
    FUNDING_STAGES.length - 2,
    rng.between(1, 2 + Math.min(4, asOfYear - core.foundedYear)),
  );
  let month = (core.foundedYear + 1) * 12 + rng.int(12);
  let value = rng.between(2, 30) * 100_000;
  const info = [];
  const investors = new Set<string>();
  for (let r = 0; r < rounds && month < plan.asOfMonth; r++) {
    const lead = rng.pick(INVESTORS);
    const round = rng.sample(INVESTORS, rng.between(1, 4));
    investors.add(lead).add(round[0]!);
    info.push({
      round_type: FUNDING_STAGES[r]!,
      round_date: isoTime(Date.UTC(Math.floor(month / 12), month % 12, 1)),
      round_value_usd: value,
      lead_investor: lead,
      investors: round,
    });
    month += rng.between(9, 30);
    value = Math.round(value * (1.8 + rng.next() * 2.5));
  }
  const first = info[0];
  const last = info[info.length - 1];
  const prev = info[info.length - 2];
  const advisors = rng.between(0, 2);
  const culture = CULTURES[core.country.cultures[0]![0]]!;
  return {
    domain: core.domain,
    company_name: core.name,
    investors: [...investors],
    number_of_advisors: advisors,
    num_of_news: rng.between(0, 40 + core.sizeIndex * 20),
    current_advisors: Array.from({ length: advisors }, () => ({
      name: `${rng.pick(culture.male)} ${rng.pick(culture.last)}`,
      title: 'Advisor',
    })),
    ipo_size_usd: core.isPublic ? String(rng.between(50, 2000) * 1_000_000) : null,
    ipo_date: core.isPublic
      ? isoTime(
          Date.UTC(
            rng.between(Math.max(core.foundedYear + 3, 1980), asOfYear - 1),
            rng.int(12),
            rng.between(1, 28),
          ),
        )
      : null,
    is_ipo: core.isPublic,
    number_of_investors_for_first_funding_round: first?.investors.length ?? null,
    first_funding_round_value_usd: first?.round_value_usd ?? null,
    first_funding_round_type: first?.round_type ?? null,
    first_funding_round_date: first?.round_date ?? null,
    number_of_funding_rounds: info.length,
    acquired_by: null,
    latest_funding_increase_in_percents:
      last && prev ? String(Math.round((last.round_value_usd / prev.round_value_usd - 1) * 100)) : null,
    last_funding_round_date: last?.round_date ?? null,
    last_funding_round_value_usd: last ? String(last.round_value_usd) : null,
    last_funding_round_type: last?.round_type ?? null,
    number_of_investors_for_last_funding_round: last?.investors.length ?? null,
    funding_rounds_info: info,
    known_funding_total_value: info.reduce((s, r) => s + r.round_value_usd, 0),
  };
}

const KIND_SHARES: Readonly<Record<string, Partial<Record<string, number>>>> = {
  tech: { engineering: 40, sales: 15, marketing: 8, customer_service: 8 },
  health: { health: 45, operations: 10 },
  education: { education: 45 },
  construction: { trades: 35, operations: 15 },
  media: { media: 25, design: 15, marketing: 15 },
  services: { sales: 15, finance: 10, legal: 10 },
};

function workforceTrends(rng: Rng, plan: Plan, core: BusinessCore): object {
  const boosts = KIND_SHARES[core.industry.kind] ?? { operations: 25, sales: 15 };
  const raw = WORKFORCE_DEPARTMENTS.map((d) => (boosts[d] ?? 3) * (0.5 + rng.next()));
  const total = raw.reduce((s, x) => s + x, 0);
  const out: Record<string, unknown> = {};
  WORKFORCE_DEPARTMENTS.forEach((d, i) => {
    out[`perc_${d}_roles`] = round((raw[i]! / total) * 100, 1);
    out[`change_in_${d}_roles`] = rng.between(-12, 18);
  });
  const quarterMonth = plan.asOfMonth - (plan.asOfMonth % 3) - 3;
  out.change_in_roles_divisor = rng.between(10, 400);
  out.profiles_found_per_quarter = rng.between(3, 30 + core.sizeIndex * 400);
  out.quarters = isoTime(Date.UTC(Math.floor(quarterMonth / 12), quarterMonth % 12, 1));
  return out;
}

function websiteTraffic(rng: Rng, plan: Plan, core: BusinessCore): object {
  const visits = Math.round(10 ** (2.5 + core.sizeIndex * 0.55 + rng.next() * 1.5));
  const mobileShare = rng.between(25, 70);
  const bounce = round(0.3 + rng.next() * 0.4);
  const share = (p: number): number => Math.round(visits * p);
  const month = plan.asOfMonth - 1;
  return {
    business_id: core.id,
    accuracy: round(0.5 + rng.next() * 0.5),
    bounced_visits: share(bounce),
    bounce_rate: bounce,
    channel: 'all',
    desktop_share: 100 - mobileShare,
    device_type: 'all',
    direct: share(0.35),
    display_ad: share(0.02),
    mail: share(0.03),
    mobile_bounce_rate: round(Math.min(0.95, bounce + 0.08)),
    mobile_hits: share((mobileShare / 100) * 3.1),
    mobile_pages_per_visit: rng.between(1, 4),
    mobile_share: mobileShare,
    mobile_users: share((mobileShare / 100) * 0.7),
    mobile_visits: share(mobileShare / 100),
    pages_per_visit: rng.between(1, 6),
    paid: share(0.05),
    referral: share(0.08),
    rank: Math.max(1, Math.round(5e8 / visits)),
    search: share(0.42),
    search_organic: share(0.38),
    social_paid: share(0.01),
    target: 'worldwide',
    time_on_site: rng.between(20, 400),
    unknown_channel: share(0.04),
    users: share(0.7),
    visits,
    month_period: monthDate(month).slice(0, 7),
  };
}

function ratings(rng: Rng, plan: Plan, core: BusinessCore): object {
  const base = 2.8 + rng.next() * 1.9;
  const r = (): number => round(Math.min(5, Math.max(1, base + (rng.next() - 0.5))), 1);
  const reviews = rng.between(5, 40 + core.sizeIndex * 600);
  const positive = round(0.35 + (base - 2.8) / 4, 2);
  return {
    company_name: core.name,
    company_city: core.city[0],
    company_country_code: core.country.code,
    company_region: regionName(core.city[1]),
    company_street: null,
    company_url: `https://www.${core.domain}`,
    company_zip_code: null,
    experience_negative: round(1 - positive - 0.2),
    experience_neutral: 0.2,
    experience_positive: positive,
    ratings_all_reviews_count: reviews,
    ratings_business_outlook: round(rng.next()),
    ratings_career_opportunities: r(),
    ratings_ceo_approval: round(rng.next()),
    ratings_ceo_approval_count: Math.round(reviews * 0.6),
    ratings_compensation_benefits: r(),
    ratings_culture_values: r(),
    ratings_diversity_inclusion: r(),
    ratings_overall: round(base, 1),
    ratings_recommend_to_friend: round(positive + 0.1),
    ratings_senior_management: r(),
    ratings_work_life_balance: r(),
    total_reviews_count: reviews,
    company_score: [3, 2, 1, 0].map((q) => [
      isoTime(Date.UTC(Math.floor((plan.asOfMonth - q * 3) / 12), (plan.asOfMonth - q * 3) % 12, 1)),
      round(base + (rng.next() - 0.5) * 0.3, 1),
    ]),
  };
}

const POST_LINES = [
  (c: BusinessCore) => `We're hiring! Join the ${c.name} team in ${c.city[0]}.`,
  (c: BusinessCore) => `Proud to share that ${c.name} was named one of the best places to work this year.`,
  (c: BusinessCore, k: string) => `New on our blog: how teams are rethinking ${k}.`,
  (c: BusinessCore, k: string) => `Meet us next week to talk about ${k} — stop by our booth!`,
  (c: BusinessCore) => `Thank you to our customers and partners for an incredible quarter at ${c.name}.`,
];

/** LinkedIn posts of a company or a person (`display_name` is the author). */
export function linkedinPosts(
  rng: Rng,
  plan: Plan,
  author: string,
  handle: string,
  core: BusinessCore | null,
  keywords: readonly string[],
): object[] {
  return Array.from({ length: rng.between(1, 3) }, () => {
    const days = rng.between(1, 120);
    const keyword = keywords.length > 0 ? rng.pick(keywords) : 'our industry';
    const text = core
      ? rng.pick(POST_LINES)(core, keyword)
      : `Great conversations this week about ${keyword}. Grateful for this community.`;
    return {
      display_name: author,
      post_text: text,
      days_since_posted: days,
      post_url: `https://www.linkedin.com/posts/${handle}_${slug(text.split(' ').slice(0, 4).join(' '))}-activity-7${rng.digits(18)}-${rng.hex(4)}`,
      number_of_comments: rng.between(0, 40),
      number_of_likes: rng.between(3, 900),
      created_at: isoTime(plan.asOfMs - days * DAY - rng.int(DAY)),
    };
  });
}

function lookalikes(rng: Rng, plan: Plan, core: BusinessCore): object[] {
  const peers = plan.byIndustry[plan.industry[core.index]!]!;
  const chosen = new Set<number>();
  for (let tries = 0; chosen.size < 3 && tries < 10; tries++) {
    const j = peers[rng.int(peers.length)]!;
    if (j !== core.index) chosen.add(j);
  }
  return [...chosen].map((j) => {
    const other = businessCore(plan, j);
    return {
      business_id: core.id,
      lookalike_business_id: other.id,
      lookalike_business_name: other.name,
      lookalike_website: `https://www.${other.domain}`,
      lookalike_description: `${other.industry.google[0]} in ${other.city[0]}`,
      lookalike_number_of_employees_range: other.size,
      lookalike_revenue_range: other.revenue,
      lookalike_naics_description: other.industry.naicsDescription,
      lookalike_country_location: other.country.code,
      similarity_score: (0.6 + rng.next() * 0.39).toFixed(2),
    };
  });
}

function hierarchy(rng: Rng, plan: Plan, core: BusinessCore): object | null {
  const parentIndex = plan.large[rng.int(plan.large.length)]!;
  if (core.sizeIndex < COMPANY_SIZES.indexOf('1001-5000') && parentIndex !== core.index) {
    const parent = businessCore(plan, parentIndex);
    return {
      business_id: core.id,
      parent_company_id: parent.id,
      parent_company_name: parent.name,
      ultimate_parent_id: parent.id,
      ultimate_parent_name: parent.name,
      subsidiaries: [],
      organization_tree: {
        business_id: parent.id,
        name: parent.name,
        children: [{ business_id: core.id, name: core.name }],
      },
    };
  }
  if (core.sizeIndex < 5) return null;
  return {
    business_id: core.id,
    parent_company_id: null,
    parent_company_name: null,
    ultimate_parent_id: core.id,
    ultimate_parent_name: core.name,
    subsidiaries: [],
    organization_tree: { business_id: core.id, name: core.name, children: [] },
  };
}

function websiteChanges(rng: Rng, plan: Plan, core: BusinessCore, facts: BusinessFacts): object[] {
  const changes = [
    ['Added a new careers page with open engineering roles', 'The company is expanding its team'],
    ['Updated pricing page with a new enterprise tier', 'Moving upmarket to larger customers'],
    [`Launched a landing page for ${facts.keywords[0] ?? 'a new service'}`, 'New product or service focus'],
    ['Published a new customer case study', 'Investing in customer marketing'],
    ['Redesigned the home page and navigation', 'Brand refresh'],
  ] as const;
  return rng.sample(changes, rng.between(1, 2)).map(([change_description, change_implication]) => ({
    url: facts.website,
    change_description,
    change_implication,
    date: isoTime(plan.asOfMs - rng.between(1, 90) * DAY),
  }));
}

function websiteKeywords(facts: BusinessFacts): object {
  return {
    url: facts.website,
    keywords_indicator: 'True',
    text_results: facts.keywords.slice(0, 3).map((k, rank) => ({
      snippet: `… ${k} for teams of every size …`,
      url: `${facts.website}/${slug(k)}`,
      rank: rank + 1,
    })),
  };
}

function financialIndicators(rng: Rng, core: BusinessCore): object {
  const revenue = 10 ** (7 + core.sizeIndex * 0.45 + rng.next());
  const ebitda = revenue * (0.05 + rng.next() * 0.3);
  return {
    asset_turnover: round(0.3 + rng.next() * 1.5),
    cagr: round(-0.05 + rng.next() * 0.3, 3),
    cogs: Math.round(revenue * (0.3 + rng.next() * 0.4)),
    ebitda: Math.round(ebitda),
    enterprise_value_over_ebitda: round(6 + rng.next() * 30),
    price_earnings_ratio: round(8 + rng.next() * 50),
    revenue_yearly: Math.round(revenue),
    roa: round(-0.05 + rng.next() * 0.2, 3),
    roc: round(-0.05 + rng.next() * 0.3, 3),
    sg_and_a: Math.round(revenue * (0.1 + rng.next() * 0.3)),
    tsr_1y: round(-0.3 + rng.next() * 0.8, 3),
    tsr_3y: round(-0.4 + rng.next() * 1.4, 3),
    tsr_5y: round(-0.4 + rng.next() * 2.5, 3),
    working_capital: Math.round(revenue * (0.05 + rng.next() * 0.2)),
    cash_and_cash_equivalents: Math.round(revenue * (0.05 + rng.next() * 0.4)),
    earnings_surprises: { last_quarter_surprise_percent: round(-10 + rng.next() * 20, 1) },
    leadership: [
      {
        name: `${rng.pick(CULTURES.anglo!.male)} ${rng.pick(CULTURES.anglo!.last)}`,
        title: 'Chief Executive Officer',
      },
    ],
    peer_companies: {},
  };
}

/** Fields every 10-K payload shares: the filing itself. */
function filing(rng: Rng, plan: Plan, core: BusinessCore): Record<string, unknown> {
  const cik = String(rng.between(1_000_000, 1_999_999));
  const year = Math.floor(plan.asOfMonth / 12) - (plan.asOfMonth % 12 < 3 ? 1 : 0);
  const accession = `0001${rng.digits(6)}-${String(year % 100).padStart(2, '0')}-${rng.digits(6)}`;
  const symbol = core.ticker?.split(':')[1] ?? '';
  const filed = Date.UTC(year, 1, rng.between(10, 28));
  const folder = `https://www.sec.gov/Archives/edgar/data/${cik}/${accession.replace(/-/g, '')}`;
  return {
    link_to_html: `${folder}/${symbol.toLowerCase()}-${isoDay(filed - 60 * DAY).replace(/-/g, '')}.htm`,
    link_to_filing_details: `${folder}/${accession}-index.htm`,
    form_type: '10-K',
    accession_number: accession,
    form_description: 'Annual report [Section 13 and 15(d), not S-K Item 405]',
    company_name: core.name,
    cik,
    ticker: symbol,
    filed_at: isoTime(filed),
  };
}

function tenK(rng: Rng, plan: Plan, core: BusinessCore, facts: BusinessFacts): Record<string, object> {
  const k = facts.keywords;
  const topic = k[0] ?? 'our core products';
  const common = filing(rng, plan, core);
  const peers = plan.byIndustry[plan.industry[core.index]!]!;
  const competitors = Array.from(
    { length: Math.min(3, peers.length) },
    () => businessCore(plan, peers[rng.int(peers.length)]!).name,
  ).filter((n) => n !== core.name);
  return {
    pc_business_challenges_10k: {
      technological_disruption: [`Rapid change in ${topic} could make our offerings less competitive.`],
      company_data_security_breach: ['A breach of our systems could harm our reputation and results.'],
      company_market_saturation: [`Growth in ${core.industry.linkedin} may slow as markets mature.`],
      company_data_security_privacy: ['Evolving privacy regulation may increase our compliance costs.'],
      company_competition: ['We face intense competition from established and emerging companies.'],
      company_customer_adoption: [`Customers may adopt ${k[1] ?? topic} more slowly than we expect.`],
      ...common,
    },
    pc_competitive_landscape_10k: {
      competitive_differentiation: [
        `Breadth of our ${topic} offering`,
        'Customer service and long-standing relationships',
      ],
      key_competitors: competitors,
      ...common,
    },
    pc_strategy_10k: {
      target_market: [`Mid-size and enterprise customers in ${countryName(core.country.code)}`],
      company_value_proposition: [`Reliable ${topic} at scale`],
      company_focus: [`Expanding ${k[1] ?? topic}`],
      company_partnerships: ['Technology and channel partnerships'],
      company_product_development: [`Investing in ${k[2] ?? topic}`],
      company_marketing_sales: ['Direct sales supported by digital marketing'],
      ...common,
    },
  };
}

/** The enrichments of one business; coverage varies by size, kind and listing. */
export function businessEnrichments(
  plan: Plan,
  rng: Rng,
  core: BusinessCore,
  facts: BusinessFacts,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const tech = core.industry.kind === 'tech';
  if (rng.chance(0.95)) out.firmographics = firmographics(rng, core, facts);
  if (facts.stack.size > 0 && rng.chance(0.85)) out.technographics = technographics(facts.stack);
  if (rng.chance(0.6)) out.webstack = webstack(rng, plan, core, facts);
  if (rng.chance(tech ? 0.85 : core.sizeIndex >= 2 ? 0.6 : 0.3))
    out.funding_and_acquisition = fundingAndAcquisition(rng, plan, core);
  if (rng.chance(0.75)) out.workforce_trends = workforceTrends(rng, plan, core);
  if (rng.chance(0.8)) out.website_traffic = websiteTraffic(rng, plan, core);
  if (core.sizeIndex >= 2 && rng.chance(0.6)) out.company_ratings_by_employees = ratings(rng, plan, core);
  if (facts.linkedin && rng.chance(0.4)) {
    out.linkedin_posts = linkedinPosts(
      rng,
      plan,
      core.name,
      facts.linkedin.split('/').pop()!,
      core,
      facts.keywords,
    );
  }
  if (rng.chance(0.6)) out.lookalikes = lookalikes(rng, plan, core);
  if (rng.chance(core.sizeIndex >= 2 ? 0.35 : 0.05)) {
    const h = hierarchy(rng, plan, core);
    if (h) out.company_hierarchies = h;
  }
  if (facts.topics.length > 0 && rng.chance(0.7)) {
    out.bombora_intent = {
      business_id: core.id,
      company_name: core.name,
      company_website: facts.website,
      date_stamp: isoDay(plan.asOfMs - rng.between(1, 7) * DAY),
      intent_topics: facts.topics.join(';'),
      level_of_intent: String(rng.between(60, 100)),
      topic_count: String(facts.topics.length),
    };
  }
  if (rng.chance(0.35)) out.website_changes = websiteChanges(rng, plan, core, facts);
  if (rng.chance(0.5)) out.company_website_keywords = websiteKeywords(facts);
  if (core.isPublic && rng.chance(0.95)) out.financial_indicators = financialIndicators(rng, core);
  if (core.isPublic && core.ticker && core.country.code === 'us' && rng.chance(0.9))
    Object.assign(out, tenK(rng, plan, core, facts));
  return out;
}
