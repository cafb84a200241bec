/**
 * The technographics catalogue: well-known technologies by category. The generator draws company stacks
 * from it, and the technographics enrichment sorts a record's `company_tech_stack_tech` into categories
 * with it when no stored technographics payload says otherwise.
 */
import { TECH_CATEGORIES, type TechCategory } from './enums.js';

const list = (csv: string): readonly string[] => csv.split(',');

/** Technologies per category, most common first. */
export const TECHNOLOGIES: Readonly<Record<TechCategory, readonly string[]>> = {
  testing_and_qa: list('Cypress,Selenium,BrowserStack,Playwright,LaunchDarkly'),
  sales: list('Salesforce,Outreach,Gong,ZoomInfo,Pipedrive,Salesloft,Apollo.io'),
  prog_langs_and_frameworks: list(
    'JavaScript,jQuery,React,TypeScript,Node.js,Python,PHP,Java,Bootstrap,Angular,Vue.js,Go,Ruby on Rails,.NET,Next.js',
  ),
  productivity_and_operations: list('Google Workspace,Microsoft 365,DocuSign,Dropbox,Calendly,Box'),
  product_and_design: list('Figma,Adobe Creative Cloud,Canva,Sketch,InVision'),
  platform_and_storage: list(
    'AWS,WordPress,Google Cloud,Microsoft Azure,PostgreSQL,MySQL,MongoDB,Snowflake,Redis,Cloudflare,Heroku',
  ),
  operations_software: list('SAP,Oracle NetSuite,Procore,Odoo,Fishbowl'),
  operations_management: list('Monday.com,Smartsheet,Airtable,Asana,Trello'),
  marketing: list(
    'Google Analytics,Google Tag Manager,HubSpot,Facebook Pixel,LinkedIn Insight Tag,Mailchimp,Hotjar,Marketo,Semrush,Klaviyo',
  ),
  it_security: list('Okta,CrowdStrike,1Password,Auth0,Palo Alto Networks,reCAPTCHA'),
  it_management: list('ServiceNow,Jamf,Microsoft Intune,Kaseya'),
  hr: list('Workday,BambooHR,Greenhouse,Lever,Gusto,ADP,Rippling'),
  health_tech: list('Epic Systems,athenahealth,Oracle Health,Dentrix,Zocdoc'),
  finance_and_accounting: list('QuickBooks,Stripe,Xero,Bill.com,Expensify,Sage Intacct'),
  ecommerce: list('Shopify,WooCommerce,PayPal,Magento,BigCommerce,Klarna'),
  devops_and_development: list(
    'GitHub,Jira,Docker,Kubernetes,GitLab,Datadog,Terraform,Jenkins,Sentry,New Relic',
  ),
  customer_management: list('Zendesk,Intercom,Freshdesk,Drift,Gorgias'),
  computer_networks: list('Cisco Meraki,Fortinet,Ubiquiti,Akamai'),
  communications: list('Zoom,Twilio,RingCentral,SendGrid,Aircall'),
  collaboration: list('Slack,Microsoft Teams,Confluence,Notion,Miro,Loom'),
  bi_and_analytics: list('Tableau,Looker,Power BI,Mixpanel,Amplitude,Segment'),
};

/** `devops_and_development` → "Devops And Development", the form of `company_tech_stack_categories`. */
export const categoryLabel = (c: TechCategory): string =>
  c
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

/** "Devops And Development" (or "DevOps & Development") → `devops_and_development`; undefined if unknown. */
export function categoryOfLabel(label: string): TechCategory | undefined {
  const key = label
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return (TECH_CATEGORIES as readonly string[]).includes(key) ? (key as TechCategory) : undefined;
}

const CATEGORY_OF = new Map<string, TechCategory>(
  TECH_CATEGORIES.flatMap((c) => TECHNOLOGIES[c].map((t) => [t.toLowerCase(), c] as const)),
);

/** The catalogue's category of a technology name (case-insensitive), or undefined for one it does not list. */
export const categoryOfTechnology = (name: string): TechCategory | undefined =>
  CATEGORY_OF.get(name.trim().toLowerCase());
