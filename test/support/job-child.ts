/**
 * Job-test support: a small deterministic snapshot (businesses with every enrichment payload, prospects
 * with contacts from several sources) and account setup. The job worker as a process of its own is
 * `job-worker.mjs`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount } from '../../src/account/accounts.js';
import { openEngine, type Engine } from '../../src/engine.js';

export const NOW = Date.parse('2026-11-01T12:00:00Z');
export const businessId = (i: number) => createHash('md5').update(`b${i}`).digest('hex');
export const prospectId = (i: number) => createHash('sha1').update(`p${i}`).digest('hex');

/** Sample payloads with the §14.4 field names (v1). */
export function businessEnrichments(i: number): Record<string, unknown> {
  const id = businessId(i);
  return {
    bombora_intent: [
      {
        business_id: id,
        company_name: `Company ${i}`,
        company_website: `https://c${i}.example`,
        date_stamp: '2026-10-01',
        intent_topics: 'cloud security',
        level_of_intent: 'high_intent',
        topic_count: '1',
      },
      {
        business_id: id,
        company_name: `Company ${i}`,
        company_website: `https://c${i}.example`,
        date_stamp: '2026-10-01',
        intent_topics: 'data warehousing',
        level_of_intent: 'emerging_intent',
        topic_count: '1',
      },
    ],
    company_hierarchies: {
      business_id: id,
      parent_company_id: null,
      parent_company_name: null,
      ultimate_parent_id: null,
      ultimate_parent_name: null,
      subsidiaries: [],
      organization_tree: {},
    },
    company_ratings_by_employees: {
      company_name: `Company ${i}`,
      company_city: 'austin',
      company_country_code: 'us',
      company_region: 'texas',
      company_street: '1 Main St',
      company_zip_code: '78701',
      company_url: `https://c${i}.example`,
      ratings_overall: 4.1,
      total_reviews_count: 120,
      company_score: [['2026-01-01T00:00:00Z', 4]],
    },
    financial_indicators: {
      revenue_yearly: 1.5e9,
      ebitda: 2e8,
      cagr: 0.12,
      earnings_surprises: {},
      leadership: [],
      peer_companies: {},
    },
    funding_and_acquisition: {
      domain: `c${i}.example`,
      company_name: `Company ${i}`,
      investors: ['Acme Ventures'],
      number_of_funding_rounds: 3,
      latest_funding_increase_in_percents: '25',
      known_funding_total_value: 5e7,
      funding_rounds_info: [],
    },
    linkedin_posts: [
      {
        display_name: `Company ${i}`,
        post_text: 'We are hiring',
        days_since_posted: 3,
        post_url: 'https://social.example/p/1',
        number_of_comments: 2,
        number_of_likes: 10,
        created_at: '2026-10-29T00:00:00Z',
      },
    ],
    lookalikes: [1, 2, 3].map((k) => ({
      business_id: id,
      lookalike_business_id: businessId(i + k),
      lookalike_business_name: `Company ${i + k}`,
      similarity_score: '0.9',
    })),
    pc_business_challenges_10k: {
      technological_disruption: ['ai'],
      company_name: `Company ${i}`,
      form_type: '10-K',
      filed_at: '2026-03-01T00:00:00Z',
    },
    pc_competitive_landscape_10k: {
      competitive_differentiation: ['price'],
      key_competitors: ['Other Co'],
      form_type: '10-K',
    },
    pc_strategy_10k: { target_market: ['smb'], company_focus: ['cloud'], form_type: '10-K' },
    website_changes: [
      {
        url: `https://c${i}.example`,
        change_description: 'New pricing page',
        change_implication: 'pricing change',
        date: '2026-10-01T00:00:00Z',
      },
    ],
    website_traffic: [
      { business_id: id, month_period: '2026-09', visits: 1000, users: 800, bounce_rate: 0.4 },
      { business_id: id, month_period: '2026-10', visits: 1200, users: 900, bounce_rate: 0.38 },
    ],
    webstack: {
      business_id: id,
      ecommerce: false,
      money_spend_on_website_technologies: 1200,
      number_of_social_networks: 3,
      entity_id: id,
    },
    workforce_trends: {
      perc_sales_roles: 0.2,
      change_in_sales_roles: 0.01,
      quarters: '2026-09-30T00:00:00Z',
    },
  };
}

export interface SnapshotSize {
  businesses: number;
  prospects: number;
}

/** Writes the synthetic snapshot to `dir` and returns it. */
export function writeSnapshot(dir: string, size: SnapshotSize): string {
  mkdirSync(dir, { recursive: true });
  const businesses: string[] = [];
  for (let i = 0; i < size.businesses; i++) {
    businesses.push(
      JSON.stringify({
        business_id: businessId(i),
        name: `Company ${i}`,
        domain: `c${i}.example`,
        website: `https://c${i}.example`,
        linkedin_profile: `https://social.example/company/c${i}`,
        logo: null,
        business_description: `Company ${i} builds cloud security software for retailers.`,
        country_code: 'us',
        country_name: 'united states',
        region_country_code: 'us-tx',
        region: 'texas',
        city_name: 'austin',
        operating_locations: [{ country_code: 'ca', region_country_code: null, city_name: 'toronto' }],
        number_of_employees_range: '51-200',
        yearly_revenue_range: '10M-25M',
        founded_year: 2001 + (i % 20),
        number_of_locations: 2,
        naics: 541511,
        naics_description: 'Custom Computer Programming Services',
        linkedin_category: ['software development'],
        company_tech_stack_tech: ['react', 'postgresql'],
        company_tech_stack_categories: ['DevOps & Development'],
        website_keywords: ['cloud security for retail', 'pricing plans'],
        is_public_company: i % 2 === 0,
        ticker: i % 2 === 0 ? `NASDAQ:C${i}` : null,
        // Every third business has no enrichment payloads at all (empty results).
        enrichments: i % 3 === 2 ? {} : businessEnrichments(i),
      }),
    );
  }
  const prospects: string[] = [];
  for (let i = 0; i < size.prospects; i++) {
    const kind = i % 5;
    const emails =
      kind === 0
        ? []
        : kind === 1
          ? [{ address: `p${i}@mail.example`, type: 'personal', status: 'valid', source: 'zoominfo' }]
          : [
              {
                address: `p${i}@c${i % size.businesses}.example`,
                type: 'professional',
                status: 'valid',
                source: 'explorium',
              },
              {
                address: `p${i}.alt@c${i % size.businesses}.example`,
                type: 'current_professional',
                status: 'catch_all',
                source: 'pdl',
              },
            ];
    const phones =
      kind >= 3
        ? [
            {
              phone_number: `+1512555${String(i).padStart(4, '0').slice(-4)}`,
              type: 'mobile',
              source: kind === 3 ? 'pdl' : null,
            },
          ]
        : [];
    prospects.push(
      JSON.stringify({
        prospect_id: prospectId(i),
        business_id: businessId(i % size.businesses),
        first_name: `First${i}`,
        last_name: `Last${i}`,
        full_name: `First${i} Last${i}`,
        linkedin: `https://social.example/in/p${i}`,
        linkedin_url_array: [`https://social.example/in/p${i}`],
        country_code: 'us',
        country_name: 'united states',
        region_name: 'texas',
        city: 'austin',
        job_title: 'VP Engineering',
        job_level_main: 'vice president',
        job_level_array: ['vice president'],
        job_department_main: 'engineering',
        job_department_array: ['engineering'],
        skills: ['kubernetes'],
        emails,
        phone_numbers: phones,
        enrichments: {
          linkedin_posts:
            i % 2 === 0
              ? [
                  {
                    display_name: `First${i} Last${i}`,
                    post_text: 'Hello',
                    days_since_posted: 1,
                    post_url: 'https://social.example/p/9',
                    number_of_comments: 0,
                    number_of_likes: 1,
                    created_at: '2026-10-31T00:00:00Z',
                  },
                ]
              : [],
        },
      }),
    );
  }
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ format_version: 1, as_of: '2026-11-01T00:00:00Z' }),
  );
  writeFileSync(join(dir, 'businesses.jsonl'), businesses.join('\n') + '\n');
  writeFileSync(join(dir, 'prospects.jsonl'), prospects.join('\n') + '\n');
  return dir;
}

/**
 * An engine (file or memory) over a fresh synthetic snapshot; tests start the job worker themselves.
 * Loaded on this thread, as the demo engines are (`demo.ts`): a load worker first loads tsx and the
 * loader's modules, more CPU than it saves on these sizes.
 */
export async function syntheticEngine(dir: string, size: SnapshotSize, path?: string): Promise<Engine> {
  const engine = openEngine({ path, clock: () => NOW, jobs: { worker: false } });
  await engine.load(writeSnapshot(join(dir, 'snapshot'), size), { strict: true, threads: 0 });
  return engine;
}

/** An account with `credits` and the contacts entitlement. */
export function account(engine: Engine, credits = 1_000_000, entitlements = ['contacts']) {
  return createAccount(engine, { name: 'Tester', credits, entitlements });
}
