/**
 * How often a kind of company uses each technographics category (the technologies themselves are the
 * library's catalogue, schemas/technologies.ts), Bombora-style intent topics, and the words of a person's
 * profile (skills by department, interests, schools by country, degrees).
 */
import { TECH_CATEGORIES, type JobDepartment, type TechCategory } from '../../../src/schemas/enums.js';

import type { IndustryKind } from './industries.js';
import { words } from './names.js';

export { TECH_CATEGORIES, type TechCategory };

/** A company's technologies, grouped by technographics category. */
export type TechStack = ReadonlyMap<TechCategory, readonly string[]>;

const TECH_HEAVY: Partial<Record<TechCategory, number>> = {
  prog_langs_and_frameworks: 6,
  devops_and_development: 6,
  platform_and_storage: 5,
  testing_and_qa: 2,
  bi_and_analytics: 3,
  it_security: 3,
};

/** How often a company of a kind uses a category, relative to 1. */
export function categoryWeight(kind: IndustryKind, category: TechCategory): number {
  if (kind === 'tech') return TECH_HEAVY[category] ?? 2;
  if (category === 'health_tech') return kind === 'health' ? 6 : 0;
  if (category === 'ecommerce') return kind === 'retail' ? 5 : 0.5;
  if (category === 'operations_software') return kind === 'industrial' || kind === 'construction' ? 4 : 0.5;
  if (category === 'testing_and_qa') return 0.2;
  if (
    category === 'marketing' ||
    category === 'productivity_and_operations' ||
    category === 'platform_and_storage'
  )
    return 4;
  return 1;
}

// prettier-ignore
export const INTENT_TOPICS = words(
  'cloud: cloud data,cloud: cloud security,cloud: hybrid cloud,security: ransomware,security: zero trust,security: identity and access management,' +
  'marketing: account-based marketing,marketing: demand generation,marketing: marketing automation,sales: sales enablement,sales: sales intelligence,' +
  'hr: employee engagement,hr: talent acquisition,hr: payroll software,finance: accounts payable automation,finance: expense management,' +
  'data: data warehousing,data: master data management,ai: generative ai,ai: machine learning,devops: ci/cd,devops: observability,' +
  'it: it service management,it: endpoint management,customer experience: customer success,customer experience: help desk software,' +
  'collaboration: video conferencing,ecommerce: headless commerce,logistics: supply chain visibility,logistics: fleet management,' +
  'healthcare: telehealth,healthcare: electronic health records,construction: construction management software,' +
  'training & development: corporate universities,training & development: career management,legal: contract management,' +
  'payments: payment processing,energy: energy efficiency,real estate: property management software',
);

const GENERAL_SKILLS = words(
  'Leadership,Project Management,Communication,Microsoft Excel,Team Management,Strategic Planning,Negotiation,Public Speaking',
);

// prettier-ignore
const SKILLS: Partial<Record<JobDepartment, string>> = {
  engineering: 'JavaScript,TypeScript,Python,Java,Go,React,Node.js,AWS,Kubernetes,Docker,SQL,Microservices,System Design,CI/CD,Git,REST APIs',
  data: 'Python,SQL,Machine Learning,Data Analysis,Pandas,Tableau,Statistics,Spark,dbt,Data Modeling,Deep Learning',
  it: 'Active Directory,Networking,Windows Server,ITIL,Linux,Office 365 Administration,VMware,Troubleshooting',
  security: 'Network Security,Incident Response,SIEM,Penetration Testing,ISO 27001,Threat Modeling,Cloud Security',
  sales: 'Salesforce,B2B Sales,Lead Generation,Negotiation,Account Management,Cold Calling,SaaS,Sales Operations,Pipeline Management',
  marketing: 'Digital Marketing,SEO,Content Marketing,Google Ads,HubSpot,Social Media Marketing,Brand Management,Copywriting,Marketing Automation',
  finance: 'Financial Analysis,Financial Modeling,Budgeting,Forecasting,GAAP,Accounting,Excel,SAP,Audit,Tax',
  'human resources': 'Recruiting,Talent Acquisition,Employee Relations,HRIS,Onboarding,Compensation & Benefits,Performance Management',
  operations: 'Operations Management,Process Improvement,Lean Six Sigma,Vendor Management,Budgeting,Supply Chain',
  product: 'Product Management,Agile Methodologies,Roadmapping,User Research,Product Strategy,Scrum,A/B Testing',
  design: 'Figma,User Experience (UX),UI Design,Prototyping,Adobe Photoshop,Design Systems,Illustrator',
  'customer success': 'Customer Retention,Onboarding,Account Management,Customer Experience,Zendesk,Churn Reduction',
  support: 'Customer Service,Technical Support,Zendesk,Troubleshooting,Ticketing Systems',
  legal: 'Contract Negotiation,Corporate Law,Litigation,Legal Research,Compliance,Intellectual Property,M&A',
  healthcare: 'Patient Care,EMR,Clinical Research,BLS,Healthcare Management,HIPAA',
  education: 'Curriculum Development,Teaching,E-Learning,Classroom Management,Instructional Design',
  manufacturing: 'Lean Manufacturing,Quality Control,CNC,AutoCAD,SolidWorks,Six Sigma,Production Planning',
  logistics: 'Logistics Management,Supply Chain Management,Transportation Management,Inventory Control,SAP',
  'c-suite': 'Strategic Planning,Leadership,Business Development,P&L Management,Fundraising,Board Relations,Mergers & Acquisitions',
};

const SKILLS_BY_DEPARTMENT = new Map(
  Object.entries(SKILLS).map(([d, list]) => [
    d as JobDepartment,
    [...new Set([...words(list), ...GENERAL_SKILLS.slice(0, 3)])],
  ]),
);

export function skillsFor(department: JobDepartment): readonly string[] {
  return SKILLS_BY_DEPARTMENT.get(department) ?? GENERAL_SKILLS;
}

export const INTERESTS = words(
  'technology,startups,artificial intelligence,travel,running,cycling,hiking,photography,cooking,reading,music,golf,yoga,' +
    'volunteering,investing,sustainability,education,entrepreneurship,tennis,skiing,coffee,wine,soccer,basketball,' +
    'mentoring,public speaking,gardening,chess,podcasts,diversity & inclusion',
);

export const DEGREES = words(
  'Bachelor of Science,Bachelor of Arts,Master of Business Administration,Master of Science,Bachelor of Engineering,Master of Arts,Doctor of Philosophy,Associate Degree,Juris Doctor',
);

// prettier-ignore
const FIELDS: Partial<Record<JobDepartment, string>> = {
  engineering: 'Computer Science,Software Engineering,Electrical Engineering,Information Technology',
  data: 'Statistics,Computer Science,Mathematics,Economics',
  it: 'Information Technology,Computer Science,Information Systems',
  security: 'Computer Science,Cybersecurity,Information Systems',
  sales: 'Business Administration,Marketing,Communications,Economics',
  marketing: 'Marketing,Communications,Journalism,Business Administration',
  finance: 'Accounting,Finance,Economics',
  'human resources': 'Psychology,Human Resources Management,Business Administration',
  product: 'Computer Science,Business Administration,Industrial Design',
  design: 'Graphic Design,Interaction Design,Fine Arts',
  legal: 'Law,Political Science',
  healthcare: 'Nursing,Medicine,Biology,Public Health',
  education: 'Education,English Literature,History',
  manufacturing: 'Mechanical Engineering,Industrial Engineering',
};
const GENERAL_FIELDS = words('Business Administration,Economics,Psychology,Communications,Management');

const FIELDS_BY_DEPARTMENT = new Map(
  Object.entries(FIELDS).map(([d, list]) => [d as JobDepartment, words(list)]),
);

export function fieldsFor(department: JobDepartment): readonly string[] {
  return FIELDS_BY_DEPARTMENT.get(department) ?? GENERAL_FIELDS;
}

// prettier-ignore
export const SCHOOLS: Readonly<Record<string, readonly string[]>> = {
  us: words('UC Berkeley,Stanford University,University of Michigan,The University of Texas at Austin,New York University,University of Washington,Georgia Institute of Technology,Arizona State University,Boston University,University of Illinois Urbana-Champaign,Penn State University,Ohio State University,University of Florida,Harvard University,Massachusetts Institute of Technology,Purdue University'),
  gb: words('University of Oxford,University of Cambridge,Imperial College London,University College London,University of Manchester,University of Edinburgh,King\'s College London,University of Leeds'),
  de: words('Technische Universität München,Ludwig-Maximilians-Universität München,Humboldt-Universität zu Berlin,RWTH Aachen University,Universität Hamburg,Karlsruher Institut für Technologie'),
  fr: words('HEC Paris,École Polytechnique,Sciences Po,ESSEC Business School,Université Paris-Saclay,Sorbonne Université'),
  ca: words('University of Toronto,McGill University,University of British Columbia,University of Waterloo,Université de Montréal'),
  in: words('Indian Institute of Technology Bombay,Indian Institute of Technology Delhi,Anna University,Vellore Institute of Technology,University of Delhi,BITS Pilani'),
  au: words('University of Sydney,University of Melbourne,UNSW Sydney,Monash University,University of Queensland'),
  nl: words('Universiteit van Amsterdam,TU Delft,Erasmus Universiteit Rotterdam,Universiteit Utrecht'),
  il: words('Tel Aviv University,Technion - Israel Institute of Technology,The Hebrew University of Jerusalem,Reichman University'),
  es: words('Universidad Complutense de Madrid,Universitat de Barcelona,IE Business School,ESADE'),
  it: words('Politecnico di Milano,Università Bocconi,Sapienza Università di Roma,Università di Bologna'),
  br: words('Universidade de São Paulo,Universidade Estadual de Campinas,Fundação Getulio Vargas,Universidade Federal do Rio de Janeiro'),
  jp: words('University of Tokyo,Kyoto University,Keio University,Waseda University'),
  se: words('KTH Royal Institute of Technology,Stockholm School of Economics,Lunds universitet,Chalmers tekniska högskola'),
  sg: words('National University of Singapore,Nanyang Technological University,Singapore Management University'),
  ch: words('ETH Zürich,EPFL,Universität St. Gallen,Universität Zürich'),
  ie: words('Trinity College Dublin,University College Dublin,University College Cork'),
};
