/**
 * Event records (docs/spec/snapshot-format.md § events) with the `data` fields of docs/spec/api-reference.md
 * §8.3. Times are stratified over the 90 days before `as_of`, so the stream comes out oldest first without
 * sorting, and every event type appears when there are at least as many events as types.
 *
 * Over 400 lines on purpose: one payload builder per event type of docs/spec/api-reference.md §8.3 (a table
 * of small functions, one type each).
 */
import {
  BUSINESS_EVENT_TYPES,
  PROSPECT_EVENT_TYPES,
  type BusinessEventType,
  type ProspectEventType,
} from '../../src/schemas/enums.js';
import { AWARD_BODIES, AWARDS, FUNDING_STAGES, INVESTORS, NEWS_SITES } from './data/companies.js';
import { TITLES_BY_DEPARTMENT } from './data/jobs.js';
import { businessCore, type BusinessCore } from './business-core.js';
import { countryName } from './location.js';
import { person } from './person.js';
import { employedCount, type Plan } from './plan.js';
import { prospectAt } from './prospect.js';
import { Rng, STREAM, Weighted } from '../rng.js';
import { isoDay, isoTime, slug } from './text.js';

type EventType = BusinessEventType | ProspectEventType;
const ALL_TYPES: readonly EventType[] = [...BUSINESS_EVENT_TYPES, ...PROSPECT_EVENT_TYPES];
const WINDOW_MS = 90 * 86_400_000;

function typeWeight(t: EventType): number {
  if (t.startsWith('hiring_in_')) return t === 'hiring_in_unknown_department' ? 0.5 : 2;
  if (t.startsWith('increase_in_') || t.startsWith('decrease_in_')) return 1.2;
  const w: Partial<Record<EventType, number>> = {
    prospect_changed_company: 8,
    prospect_changed_role: 6,
    prospect_job_start_anniversary: 6,
    employee_joined_company: 8,
    new_product: 6,
    new_partnership: 6,
    new_funding_round: 5,
    company_award: 4,
    new_office: 3,
    new_investment: 2,
    closing_office: 1.5,
    cost_cutting: 1.5,
    lawsuits_and_legal_issues: 1.5,
    outages_and_security_breaches: 1,
    merger_and_acquisitions: 1.5,
    ipo_announcement: 0.3,
  };
  return w[t] ?? 1;
}
const TYPE_PICK = new Weighted(ALL_TYPES.map((t) => [t, typeWeight(t)] as const));
const BUSINESS_TYPE_PICK = new Weighted(BUSINESS_EVENT_TYPES.map((t) => [t, typeWeight(t)] as const));
const isProspectType = (t: EventType): t is ProspectEventType =>
  (PROSPECT_EVENT_TYPES as readonly string[]).includes(t);

// `hiring_in_<x>_department` → a department whose titles the postings use.
const HIRING_DEPARTMENTS: Readonly<Record<string, string>> = {
  creative: 'creative',
  education: 'education',
  engineering: 'engineering',
  finance: 'finance',
  health: 'healthcare',
  human_resources: 'human resources',
  legal: 'legal',
  marketing: 'marketing',
  operations: 'operations',
  professional_service: 'strategy',
  sales: 'sales',
  support: 'support',
  trade: 'trade',
  unknown: 'administration',
};

function link(rng: Rng, title: string): string {
  return `https://www.${rng.pick(NEWS_SITES)}/news/${slug(title).slice(0, 80)}-${rng.digits(6)}`;
}

function amount(rng: Rng, core: BusinessCore, scale: number): number {
  return Math.round(10 ** (5.5 + core.sizeIndex * 0.35 + rng.next() * 1.2) * scale) * 1000;
}

function businessData(
  rng: Rng,
  plan: Plan,
  type: BusinessEventType,
  core: BusinessCore,
  time: string,
  ms: number,
): Record<string, unknown> {
  const day = isoDay(ms);
  const where = `${core.city[0]}, ${countryName(core.country.code)}`;
  const news = (title: string, snippet: string): Record<string, unknown> => ({
    title,
    snippet,
    link: link(rng, title),
  });
  if (type.startsWith('hiring_in_')) {
    const key = type.slice('hiring_in_'.length, -'_department'.length);
    const titles = TITLES_BY_DEPARTMENT.get(HIRING_DEPARTMENTS[key] as never) ?? [];
    const count = rng.between(1, 3 + core.sizeIndex * 6);
    return {
      event_name: type,
      event_time: time,
      location: where,
      job_count: count,
      job_titles: rng.sample(
        titles.map((t) => t.title),
        Math.min(count, 4),
      ),
      department: key.replace(/_/g, ' '),
    };
  }
  if (type.startsWith('increase_in_') || type.startsWith('decrease_in_')) {
    const increase = type.startsWith('increase_in_');
    const department = type
      .replace(/^(increase|decrease)_in_/, '')
      .replace(/_department(s)?$/, '')
      .replace(/_/g, ' ');
    const quarter = new Date(ms);
    return {
      event_name: type,
      event_time: time,
      department_change: increase ? rng.between(105, 160) : rng.between(55, 95),
      change_type: increase ? 'Increase' : 'Decrease',
      department,
      quarter_partition: `${quarter.getUTCFullYear()}Q${Math.floor(quarter.getUTCMonth() / 3) + 1}`,
      insertion_time: time,
    };
  }
  switch (type) {
    case 'ipo_announcement': {
      const symbol =
        core.ticker ?? `${rng.pick(core.country.exchanges)}:${core.domain.slice(0, 4).toUpperCase()}`;
      const shares = rng.between(5, 60) * 1_000_000;
      const price = rng.between(12, 48);
      return {
        event_name: type,
        event_time: time,
        event_id: '',
        ipo_date: time,
        company_name: core.name,
        offer_amount: shares * price,
        number_of_shares: shares,
        stock_exchange: symbol.split(':')[0],
        price_per_share: price,
        ticker: symbol,
        status: rng.pick(['priced', 'expected', 'filed']),
        link: link(rng, `${core.name} announces pricing of initial public offering`),
      };
    }
    case 'new_funding_round': {
      const lead = rng.pick(INVESTORS);
      const others = rng.sample(INVESTORS, rng.between(1, 3)).filter((i) => i !== lead);
      const stage = rng.pick(FUNDING_STAGES.slice(0, 6));
      return {
        event_name: type,
        event_time: time,
        event_id: '',
        founding_date: day,
        founding_stage: stage,
        amount_raised: amount(rng, core, 3),
        lead_investor: lead,
        investors: [lead, ...others].join(', '),
        link: link(rng, `${core.name} raises ${stage} led by ${lead}`),
      };
    }
    case 'new_investment': {
      const target = rng.chance(0.8) ? businessCore(plan, rng.int(plan.businesses)).name : null;
      const title = `${core.name} invests in ${target ?? 'new venture'}`;
      return {
        event_name: type,
        event_time: time,
        investment_date: time,
        investment_type: rng.pick(['Strategic Investment', 'Minority Stake', 'Corporate Venture']),
        investment_target: target,
        investment_amount: rng.chance(0.7) ? amount(rng, core, 1) : null,
        investment_amount_currency: rng.chance(0.7) ? core.country.currency : null,
        ...news(title, `${core.name} announced an investment in ${target ?? 'a new venture'}.`),
      };
    }
    case 'new_product': {
      const product = `${core.name.split(' ')[0]} ${rng.pick(['Cloud', 'Pro', 'One', 'Insights', 'Connect', 'Flow', 'Edge'])}`;
      const title = `${core.name} launches ${product}`;
      return {
        event_name: type,
        event_time: time,
        product_name: product,
        product_description: `${product} brings ${core.industry.keywords[0]} to ${core.industry.linkedin} teams.`,
        product_category: core.industry.google[0],
        product_launch_date: day,
        ...news(title, `${core.name} today introduced ${product}.`),
      };
    }
    case 'new_office': {
      const city = rng.pick(core.country.cities)[0];
      const title = `${core.name} opens new office in ${city}`;
      return {
        event_name: type,
        event_time: time,
        office_location: city,
        opening_date: day,
        number_of_employees: rng.between(5, 50 + core.sizeIndex * 40),
        purpose_of_new_office: rng.pick([
          'Expansion into a new market',
          'Research and development hub',
          'Regional sales office',
          'Customer support center',
        ]),
        ...news(title, `The new ${city} office will support growth in the region.`),
      };
    }
    case 'closing_office': {
      const city = core.operating[0]?.city_name ?? core.city[0];
      const title = `${core.name} to close ${city} office`;
      return {
        event_name: type,
        event_time: time,
        office_location: city,
        closure_date: day,
        number_of_employees_affected: rng.between(5, 30 + core.sizeIndex * 40),
        reason_for_closure: rng.pick([
          'Consolidation of operations',
          'Cost reduction',
          'Shift to remote work',
          'Lease expiration',
        ]),
        ...news(title, `${core.name} will consolidate its ${city} team into other locations.`),
      };
    }
    case 'new_partnership': {
      const partner = businessCore(plan, rng.int(plan.businesses)).name;
      const title = `${core.name} partners with ${partner}`;
      return {
        event_name: type,
        event_time: time,
        partner_company: partner,
        partnership_date: day,
        purpose_of_partnership: rng.pick([
          'Joint go-to-market',
          'Technology integration',
          'Distribution agreement',
          'Co-development',
        ]),
        ...news(title, `${core.name} and ${partner} announced a strategic partnership.`),
      };
    }
    case 'company_award': {
      const award = rng.pick(AWARDS);
      const title = `${core.name} recognized in ${award}`;
      return {
        event_name: type,
        event_time: time,
        award_name: award,
        awarding_body: rng.pick(AWARD_BODIES),
        award_reason: rng.pick([
          'Revenue growth',
          'Workplace culture',
          'Product innovation',
          'Customer satisfaction',
        ]),
        ...news(title, `${core.name} was named in this year's ${award}.`),
      };
    }
    case 'merger_and_acquisitions': {
      const other = businessCore(plan, rng.int(plan.businesses)).name;
      const merger = rng.chance(0.2);
      const title = merger ? `${core.name} and ${other} agree to merge` : `${core.name} acquires ${other}`;
      const priced = rng.chance(0.6);
      return {
        event_name: type,
        event_time: time,
        merger_or_acquisition: merger ? 'merger' : 'acquisition',
        description: title,
        companies_involved: [core.name, other],
        acquisition_price_amount: priced ? amount(rng, core, 5) : null,
        acquisition_price_currency: priced ? core.country.currency : null,
        strategic_objective: rng.pick([
          'Expand product portfolio',
          'Enter new markets',
          'Acquire talent',
          'Consolidate market position',
        ]),
        ...news(title, `${title}, the companies said in a statement.`),
      };
    }
    case 'cost_cutting': {
      const saving = rng.chance(0.6);
      const title = `${core.name} announces restructuring`;
      return {
        event_name: type,
        event_time: time,
        action_taken: rng.pick([
          'Workforce reduction',
          'Office consolidation',
          'Hiring freeze',
          'Vendor consolidation',
        ]),
        expected_savings_amount: saving ? amount(rng, core, 0.5) : null,
        expected_savings_currency: saving ? core.country.currency : null,
        departments_affected: rng.sample(
          ['sales', 'marketing', 'operations', 'engineering', 'support'],
          rng.between(1, 3),
        ),
        ...news(title, `${core.name} is reducing costs to improve profitability.`),
      };
    }
    case 'lawsuits_and_legal_issues': {
      const caseType = rng.pick([
        'Patent infringement',
        'Breach of contract',
        'Employment dispute',
        'Class action',
        'Regulatory investigation',
      ]);
      const title = `${core.name} faces ${caseType.toLowerCase()} lawsuit`;
      const court =
        core.country.code === 'us'
          ? `U.S. District Court for the District of ${rng.pick(['Delaware', 'Columbia', 'Massachusetts'])}`
          : `${countryName(core.country.code).replace(/\b\w/g, (c) => c.toUpperCase())} High Court`;
      return {
        event_name: type,
        event_time: time,
        case_type: caseType,
        court,
        ...news(title, `A complaint filed against ${core.name} alleges ${caseType.toLowerCase()}.`),
      };
    }
    case 'outages_and_security_breaches': {
      const incident = rng.pick(['Service outage', 'Data breach', 'Ransomware attack', 'DDoS attack']);
      const title = `${core.name} reports ${incident.toLowerCase()}`;
      return {
        event_name: type,
        event_time: time,
        incident_type: incident,
        impacted_systems: rng.sample(
          ['website', 'customer portal', 'email', 'payments', 'mobile app', 'api'],
          rng.between(1, 3),
        ),
        number_of_affected_customers: rng.between(10, 5000 * (core.sizeIndex + 1)),
        ...news(title, `${core.name} said it is investigating the ${incident.toLowerCase()}.`),
      };
    }
    case 'employee_joined_company': {
      const p = person(rng, core.country);
      const exec = rng.pick(
        TITLES_BY_DEPARTMENT.get('c-suite')!.concat(TITLES_BY_DEPARTMENT.get('sales')!.slice(0, 3)),
      );
      const full = `${p.first} ${p.last}`;
      return {
        event_name: type,
        event_time: time,
        job_company_name: core.name,
        job_department: exec.department,
        full_name: full,
        change_type: 'new_hire',
        job_role_title: exec.title,
        linkedin_url: `https://www.linkedin.com/in/${slug(full)}-${rng.hex(6)}`,
      };
    }
  }
  throw new Error(`no payload for ${type}`);
}

function prospectData(
  rng: Rng,
  plan: Plan,
  type: ProspectEventType,
  p: Record<string, unknown>,
  time: string,
  ms: number,
): Record<string, unknown> {
  const experience = p.experience as { company_name: string; title: string; start_date: string }[];
  const current = experience[0]!;
  const previous = experience[1] ?? current;
  const currentId = p.business_id as string | null;
  if (type === 'prospect_job_start_anniversary') {
    const years = Math.max(1, Math.round((p.current_role_months as number) / 12));
    return {
      event_name: type,
      event_time: time,
      full_name: p.full_name,
      company_name: current.company_name,
      years_at_company: years,
      job_title: p.job_title,
      job_anniversary_date: isoDay(ms),
      linkedin_url: p.linkedin,
    };
  }
  const changedCompany = type === 'prospect_changed_company';
  const previousId = changedCompany
    ? rng.chance(0.4)
      ? businessCore(plan, rng.int(plan.businesses)).id
      : null
    : currentId;
  return {
    event_name: type,
    event_time: time,
    previous_job_title: previous.title,
    current_job_title: current.title,
    current_company_name: current.company_name,
    current_company_id: currentId,
    previous_company_name: changedCompany ? previous.company_name : current.company_name,
    previous_company_id: previousId,
  };
}

/** Event `e` of the plan. */
export function eventRecord(plan: Plan, e: number): Record<string, unknown> {
  const rng = new Rng(plan.seed, STREAM.event, e);
  const id = rng.hex(32);
  const ms = Math.floor(plan.asOfMs - WINDOW_MS + ((e + rng.next()) / plan.events) * WINDOW_MS);
  const time = isoTime(ms);
  // Every type once, spread through the window; the rest by weight.
  const stride = Math.floor(plan.events / ALL_TYPES.length);
  let type: EventType =
    stride > 0 && e % stride === 0 && e / stride < ALL_TYPES.length
      ? ALL_TYPES[e / stride]!
      : TYPE_PICK.pick(rng);
  const employed = employedCount(plan);
  if (isProspectType(type) && employed === 0) type = BUSINESS_TYPE_PICK.pick(rng);
  if (isProspectType(type)) {
    const p = prospectAt(plan, rng.int(employed));
    return {
      event_id: id,
      event_name: type,
      event_time: time,
      prospect_id: p.prospect_id,
      data: prospectData(rng, plan, type, p, time, ms),
    };
  }
  // Listings, deals and lawsuits concern large companies more often.
  const bigNews =
    type === 'ipo_announcement' || type === 'merger_and_acquisitions' || type === 'lawsuits_and_legal_issues';
  const b = bigNews && rng.chance(0.7) ? plan.large[rng.int(plan.large.length)]! : rng.int(plan.businesses);
  const core = businessCore(plan, b);
  const data = businessData(rng, plan, type, core, time, ms);
  if ('event_id' in data) data.event_id = id;
  return { event_id: id, event_name: type, event_time: time, business_id: core.id, data };
}

/** Every event of the plan, oldest first. */
export function* events(plan: Plan): Generator<Record<string, unknown>> {
  for (let e = 0; e < plan.events; e++) yield eventRecord(plan, e);
}
