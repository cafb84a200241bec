/**
 * Every enumeration of the interface. Small enums are literal tuples (so zod and TypeScript see the exact
 * values); the large code lists (countries, regions) come from `enums.json`, the spec's enumerations (its
 * one copy in the repository; docs/spec/README.md).
 */
import data from './enums.json' with { type: 'json' };

export const JOB_LEVELS = [
  'owner',
  'c-suite',
  'vice president',
  'director',
  'senior non-managerial',
  'manager',
  'partner',
  'non-managerial',
  'junior',
  'president',
  'senior manager',
  'advisor',
  'freelancer',
  'board member',
  'founder',
  'training',
  'unpaid',
] as const;
export type JobLevel = (typeof JOB_LEVELS)[number];

/** Legacy job-level values that real clients still send, mapped to the current taxonomy. */
export const LEGACY_JOB_LEVELS: Readonly<Record<string, JobLevel>> = {
  cxo: 'c-suite',
  vp: 'vice president',
  senior: 'senior non-managerial',
  entry: 'junior',
};

export const JOB_DEPARTMENTS = [
  'administration',
  'real estate',
  'healthcare',
  'partnerships',
  'c-suite',
  'design',
  'human resources',
  'engineering',
  'education',
  'strategy',
  'product',
  'sales',
  'r&d',
  'retail',
  'customer success',
  'security',
  'public service',
  'creative',
  'it',
  'support',
  'marketing',
  'trade',
  'legal',
  'operations',
  'procurement',
  'data',
  'manufacturing',
  'logistics',
  'finance',
] as const;
export type JobDepartment = (typeof JOB_DEPARTMENTS)[number];

/** Legacy capitalised departments (the older enrichment taxonomy) mapped to the current values. */
export const LEGACY_JOB_DEPARTMENTS: Readonly<Record<string, JobDepartment>> = {
  'real estate': 'real estate',
  'customer service': 'customer success',
  trades: 'trade',
  'public relations': 'marketing',
  media: 'creative',
  health: 'healthcare',
  general: 'administration',
};

export const COMPANY_SIZES = [
  '1-10',
  '11-50',
  '51-200',
  '201-500',
  '501-1000',
  '1001-5000',
  '5001-10000',
  '10001+',
] as const;
export type CompanySize = (typeof COMPANY_SIZES)[number];

export const COMPANY_REVENUES = [
  '0-500K',
  '500K-1M',
  '1M-5M',
  '5M-10M',
  '10M-25M',
  '25M-75M',
  '75M-200M',
  '200M-500M',
  '500M-1B',
  '1B-10B',
  '10B-100B',
  '100B-1T',
  '1T-10T',
  '10T+',
] as const;
export type CompanyRevenue = (typeof COMPANY_REVENUES)[number];

export const COMPANY_AGES = ['0-3', '3-6', '6-10', '10-20', '20+'] as const;
export type CompanyAge = (typeof COMPANY_AGES)[number];

export const NUMBER_OF_LOCATIONS = ['0-1', '2-5', '6-20', '21-50', '51-100', '101-1000', '1001+'] as const;
export type NumberOfLocations = (typeof NUMBER_OF_LOCATIONS)[number];

export const INTENT_LEVELS = ['emerging_intent', 'high_intent', 'very_high_intent'] as const;
export type IntentLevel = (typeof INTENT_LEVELS)[number];

export const BUSINESS_EVENT_TYPES = [
  'ipo_announcement',
  'new_funding_round',
  'new_investment',
  'new_product',
  'new_office',
  'closing_office',
  'new_partnership',
  'increase_in_engineering_department',
  'increase_in_sales_department',
  'increase_in_marketing_department',
  'increase_in_operations_department',
  'increase_in_customer_service_department',
  'increase_in_all_departments',
  'decrease_in_engineering_department',
  'decrease_in_sales_department',
  'decrease_in_marketing_department',
  'decrease_in_operations_department',
  'decrease_in_customer_service_department',
  'decrease_in_all_departments',
  'employee_joined_company',
  'hiring_in_creative_department',
  'hiring_in_education_department',
  'hiring_in_engineering_department',
  'hiring_in_finance_department',
  'hiring_in_health_department',
  'hiring_in_human_resources_department',
  'hiring_in_legal_department',
  'hiring_in_marketing_department',
  'hiring_in_operations_department',
  'hiring_in_professional_service_department',
  'hiring_in_sales_department',
  'hiring_in_support_department',
  'hiring_in_trade_department',
  'hiring_in_unknown_department',
  'company_award',
  'outages_and_security_breaches',
  'cost_cutting',
  'merger_and_acquisitions',
  'lawsuits_and_legal_issues',
] as const;
export type BusinessEventType = (typeof BUSINESS_EVENT_TYPES)[number];

/** v2 name of `employee_joined_company`; accepted everywhere and stored under the v1 name. */
export const V2_EVENT_RENAMES: Readonly<Record<string, BusinessEventType>> = {
  executive_joined_company: 'employee_joined_company',
};

export const PROSPECT_EVENT_TYPES = [
  'prospect_changed_role',
  'prospect_changed_company',
  'prospect_job_start_anniversary',
] as const;
export type ProspectEventType = (typeof PROSPECT_EVENT_TYPES)[number];

export const EVENT_TYPES = [...PROSPECT_EVENT_TYPES, ...BUSINESS_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Webhook simulation accepts the event types plus two legacy aliases. */
export const WEBHOOK_SIMULATION_EVENT_TYPES = [...EVENT_TYPES, 'award', 'funding_round'] as const;

export const AUTOCOMPLETE_FIELDS = [
  'country',
  'country_code',
  'region_country_code',
  'google_category',
  'naics_category',
  'linkedin_category',
  'company_tech_stack_tech',
  'company_tech_stack_categories',
  'job_title',
  'company_size',
  'company_revenue',
  'number_of_locations',
  'company_age',
  'job_department',
  'job_level',
  'city_region_country',
  'company_name',
  'business_intent_topics',
  'city_region',
  'skills',
  'interests',
] as const;
export type AutocompleteField = (typeof AUTOCOMPLETE_FIELDS)[number];

/** The technographics category keys of docs/spec/api-reference.md §14.4, in that order. */
export const TECH_CATEGORIES = [
  'testing_and_qa',
  'sales',
  'prog_langs_and_frameworks',
  'productivity_and_operations',
  'product_and_design',
  'platform_and_storage',
  'operations_software',
  'operations_management',
  'marketing',
  'it_security',
  'it_management',
  'hr',
  'health_tech',
  'finance_and_accounting',
  'ecommerce',
  'devops_and_development',
  'customer_management',
  'computer_networks',
  'communications',
  'collaboration',
  'bi_and_analytics',
] as const;
export type TechCategory = (typeof TECH_CATEGORIES)[number];

export const EMAIL_TYPES = ['professional', 'current_professional', 'personal'] as const;
export const EMAIL_STATUSES = ['valid', 'catch_all', 'invalid'] as const;
export const CONTACT_DETAILS = ['email', 'phone', 'email_or_phone', 'email_and_phone'] as const;
export const FETCH_MODES = ['full', 'preview'] as const;
export const ENTITY_TYPES = ['business', 'prospect'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export const ACCOUNT_TYPES = ['trial', 'paid'] as const;
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired'] as const;
export const GENDERS = ['male', 'female'] as const;

/** ISO 3166-1 alpha-2 codes, lower case, in the spec's order (aligned with `COUNTRY_NAMES`). */
export const COUNTRY_CODES: readonly string[] = data.CountryCodeAlpha2;
/** Lower-case English country names, aligned index by index with `COUNTRY_CODES`. */
export const COUNTRY_NAMES: readonly string[] = data.CountryName;
/** ISO 3166-2 style region codes (`us-ca`), aligned with `REGION_NAMES`. */
export const REGION_CODES: readonly string[] = data.RegionCode;
export const REGION_NAMES: readonly string[] = data.RegionName;
/** Exchange prefixes allowed in tickers such as `NASDAQ:MSFT`. */
export const TICKER_EXCHANGES: readonly string[] = data.TickerExchangePrefixes;

export const COUNTRY_CODE_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);
export const REGION_CODE_SET: ReadonlySet<string> = new Set(REGION_CODES);
export const COUNTRY_NAME_BY_CODE: ReadonlyMap<string, string> = new Map(
  COUNTRY_CODES.map((c, i) => [c, COUNTRY_NAMES[i] ?? c]),
);
export const REGION_NAME_BY_CODE: ReadonlyMap<string, string> = new Map(
  REGION_CODES.map((c, i) => [c, REGION_NAMES[i] ?? c]),
);
