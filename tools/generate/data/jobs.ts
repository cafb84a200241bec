/**
 * Job titles with the level and department they mean, so that `job_title`, `job_level_main` and
 * `job_department_main` always agree. Weights favour individual contributors over executives.
 */
import {
  JOB_DEPARTMENTS,
  JOB_LEVELS,
  type JobDepartment,
  type JobLevel,
} from '../../../src/schemas/enums.js';

export interface JobTitle {
  title: string;
  level: JobLevel;
  department: JobDepartment;
  /** Further levels and departments the title also counts for (`job_level_array` …). */
  levels: readonly JobLevel[];
  departments: readonly JobDepartment[];
  weight: number;
}

type Row = [string, JobLevel, number, (JobLevel | JobDepartment)[]?];

// [title, level, weight, extra levels or departments]
// prettier-ignore
const BY_DEPARTMENT: Partial<Record<JobDepartment, Row[]>> = {
  'c-suite': [
    ['Chief Executive Officer', 'c-suite', 3], ['CEO', 'c-suite', 2], ['Founder & CEO', 'founder', 2, ['c-suite', 'owner']],
    ['Co-Founder', 'founder', 2, ['owner']], ['President', 'president', 1.5, ['c-suite']], ['Owner', 'owner', 3],
    ['Managing Director', 'c-suite', 1.5], ['Chief Operating Officer', 'c-suite', 1, ['operations']],
    ['Board Member', 'board member', 0.4], ['Strategic Advisor', 'advisor', 0.4, ['strategy']],
  ],
  engineering: [
    ['Chief Technology Officer', 'c-suite', 0.6, ['c-suite']], ['VP of Engineering', 'vice president', 0.6], ['Vice President, Engineering', 'vice president', 0.3],
    ['Director of Engineering', 'director', 1], ['Head of Engineering', 'director', 0.5], ['Engineering Manager', 'manager', 2],
    ['Senior Engineering Manager', 'senior manager', 0.6, ['manager']], ['Principal Engineer', 'senior non-managerial', 1], ['Staff Software Engineer', 'senior non-managerial', 1.2],
    ['Senior Software Engineer', 'senior non-managerial', 6], ['Senior Backend Engineer', 'senior non-managerial', 1.5], ['Software Engineer', 'non-managerial', 8],
    ['Software Developer', 'non-managerial', 4], ['Backend Engineer', 'non-managerial', 2], ['Frontend Developer', 'non-managerial', 2],
    ['Full Stack Developer', 'non-managerial', 2.5], ['DevOps Engineer', 'non-managerial', 2], ['Site Reliability Engineer', 'non-managerial', 1],
    ['QA Engineer', 'non-managerial', 1.5], ['Mobile Developer', 'non-managerial', 1], ['Junior Software Developer', 'junior', 1.5],
    ['Software Engineering Intern', 'training', 0.5],
  ],
  sales: [
    ['Chief Revenue Officer', 'c-suite', 0.5, ['c-suite']], ['VP of Sales', 'vice president', 1], ['Vice President of Sales', 'vice president', 0.5],
    ['Director of Sales', 'director', 1.2], ['Regional Sales Director', 'director', 0.8], ['Sales Manager', 'manager', 3],
    ['Senior Account Executive', 'senior non-managerial', 2], ['Enterprise Account Executive', 'senior non-managerial', 1], ['Account Executive', 'non-managerial', 5],
    ['Account Manager', 'non-managerial', 3], ['Key Account Manager', 'non-managerial', 1], ['Business Development Manager', 'non-managerial', 2],
    ['Sales Development Representative', 'junior', 3], ['Business Development Representative', 'junior', 2], ['Inside Sales Representative', 'non-managerial', 1.5],
  ],
  marketing: [
    ['Chief Marketing Officer', 'c-suite', 0.5, ['c-suite']], ['VP of Marketing', 'vice president', 0.8], ['Director of Marketing', 'director', 1.2],
    ['Marketing Manager', 'manager', 3], ['Product Marketing Manager', 'manager', 1.5], ['Senior Marketing Manager', 'senior manager', 1, ['manager']],
    ['Growth Marketing Lead', 'senior non-managerial', 0.8], ['Content Marketing Specialist', 'non-managerial', 1.5], ['Digital Marketing Specialist', 'non-managerial', 2],
    ['SEO Specialist', 'non-managerial', 1], ['Marketing Coordinator', 'junior', 1.5], ['Social Media Manager', 'non-managerial', 1],
  ],
  finance: [
    ['Chief Financial Officer', 'c-suite', 0.7, ['c-suite']], ['VP of Finance', 'vice president', 0.5], ['Finance Director', 'director', 0.8],
    ['Controller', 'manager', 1], ['Finance Manager', 'manager', 1.5], ['Senior Financial Analyst', 'senior non-managerial', 1.2],
    ['Financial Analyst', 'non-managerial', 2], ['Senior Accountant', 'senior non-managerial', 1.2], ['Accountant', 'non-managerial', 2.5],
    ['Accounts Payable Specialist', 'non-managerial', 1], ['Staff Accountant', 'junior', 1], ['Tax Associate', 'junior', 0.7],
  ],
  'human resources': [
    ['Chief People Officer', 'c-suite', 0.4, ['c-suite']], ['VP of People', 'vice president', 0.4], ['HR Director', 'director', 0.8],
    ['HR Manager', 'manager', 2], ['HR Business Partner', 'senior non-managerial', 1.2], ['Talent Acquisition Specialist', 'non-managerial', 1.5],
    ['Recruiter', 'non-managerial', 2], ['Technical Recruiter', 'non-managerial', 1], ['HR Coordinator', 'junior', 1],
  ],
  operations: [
    ['VP of Operations', 'vice president', 0.6], ['Director of Operations', 'director', 1], ['Operations Manager', 'manager', 3],
    ['Operations Analyst', 'non-managerial', 1.5], ['Project Manager', 'manager', 2.5], ['Program Manager', 'manager', 1],
    ['Operations Coordinator', 'junior', 1],
  ],
  product: [
    ['Chief Product Officer', 'c-suite', 0.3, ['c-suite']], ['VP of Product', 'vice president', 0.5], ['Director of Product Management', 'director', 0.8],
    ['Senior Product Manager', 'senior manager', 1.5, ['manager']], ['Product Manager', 'manager', 3], ['Product Owner', 'non-managerial', 1.5],
  ],
  design: [
    ['Head of Design', 'director', 0.5], ['Design Manager', 'manager', 0.6], ['Senior Product Designer', 'senior non-managerial', 1],
    ['Product Designer', 'non-managerial', 1.5], ['UX Designer', 'non-managerial', 1.2], ['Graphic Designer', 'non-managerial', 1.5],
  ],
  data: [
    ['Chief Data Officer', 'c-suite', 0.2, ['c-suite']], ['Director of Data Science', 'director', 0.4], ['Data Science Manager', 'manager', 0.6],
    ['Senior Data Scientist', 'senior non-managerial', 1], ['Data Scientist', 'non-managerial', 1.5], ['Data Analyst', 'non-managerial', 2],
    ['Data Engineer', 'non-managerial', 1.5], ['Machine Learning Engineer', 'non-managerial', 1, ['engineering']],
  ],
  it: [
    ['Chief Information Officer', 'c-suite', 0.4, ['c-suite']], ['IT Director', 'director', 0.8], ['IT Manager', 'manager', 1.5],
    ['Systems Administrator', 'non-managerial', 1.5], ['Network Engineer', 'non-managerial', 1], ['IT Support Specialist', 'non-managerial', 1.5, ['support']],
    ['Help Desk Technician', 'junior', 1, ['support']],
  ],
  security: [
    ['Chief Information Security Officer', 'c-suite', 0.3, ['c-suite', 'it']], ['Security Engineer', 'non-managerial', 1, ['it']], ['Information Security Analyst', 'non-managerial', 1, ['it']],
  ],
  'customer success': [
    ['VP of Customer Success', 'vice president', 0.4], ['Director of Customer Success', 'director', 0.5], ['Customer Success Manager', 'non-managerial', 2.5],
    ['Implementation Specialist', 'non-managerial', 1],
  ],
  support: [
    ['Customer Support Manager', 'manager', 0.8], ['Support Team Lead', 'manager', 0.6], ['Technical Support Engineer', 'non-managerial', 1.2],
    ['Customer Support Representative', 'non-managerial', 2.5], ['Customer Service Representative', 'non-managerial', 2],
  ],
  legal: [
    ['General Counsel', 'c-suite', 0.5, ['c-suite']], ['Partner', 'partner', 1.5], ['Senior Associate', 'senior non-managerial', 1],
    ['Associate Attorney', 'non-managerial', 1.5], ['Corporate Counsel', 'senior non-managerial', 0.8], ['Paralegal', 'non-managerial', 1.5],
  ],
  administration: [
    ['Office Manager', 'manager', 1.5], ['Executive Assistant', 'non-managerial', 1.5], ['Administrative Assistant', 'non-managerial', 2],
    ['Receptionist', 'junior', 1], ['Volunteer', 'unpaid', 0.2],
  ],
  healthcare: [
    ['Chief Medical Officer', 'c-suite', 0.3, ['c-suite']], ['Director of Nursing', 'director', 0.5], ['Physician', 'senior non-managerial', 2],
    ['Nurse Practitioner', 'senior non-managerial', 1], ['Registered Nurse', 'non-managerial', 3], ['Medical Assistant', 'non-managerial', 2],
    ['Dental Hygienist', 'non-managerial', 1], ['Veterinarian', 'senior non-managerial', 0.6],
  ],
  education: [
    ['Dean', 'director', 0.3], ['Professor', 'senior non-managerial', 1], ['Lecturer', 'non-managerial', 1],
    ['Teacher', 'non-managerial', 2.5], ['Instructional Designer', 'non-managerial', 0.8], ['Teaching Assistant', 'junior', 0.6],
  ],
  manufacturing: [
    ['Plant Manager', 'manager', 0.8], ['Production Supervisor', 'manager', 1], ['Manufacturing Engineer', 'non-managerial', 1.5, ['engineering']],
    ['Quality Engineer', 'non-managerial', 1], ['Machine Operator', 'non-managerial', 2], ['CNC Machinist', 'non-managerial', 1, ['trade']],
  ],
  logistics: [
    ['Supply Chain Manager', 'manager', 1], ['Logistics Coordinator', 'non-managerial', 1.5], ['Warehouse Manager', 'manager', 1],
    ['Dispatcher', 'non-managerial', 1], ['Truck Driver', 'non-managerial', 1.5, ['trade']],
  ],
  procurement: [['Procurement Manager', 'manager', 0.8], ['Buyer', 'non-managerial', 1], ['Purchasing Agent', 'non-managerial', 0.8]],
  'real estate': [['Real Estate Agent', 'non-managerial', 2, ['sales']], ['Property Manager', 'manager', 1.5], ['Broker', 'owner', 0.6, ['sales']], ['Leasing Consultant', 'non-managerial', 1]],
  retail: [['Store Manager', 'manager', 1.5], ['Assistant Store Manager', 'manager', 0.8], ['Sales Associate', 'non-managerial', 3, ['sales']], ['Cashier', 'junior', 1.5]],
  'r&d': [['Director of Research', 'director', 0.4], ['Research Scientist', 'senior non-managerial', 1.5], ['R&D Engineer', 'non-managerial', 1, ['engineering']], ['Lab Technician', 'non-managerial', 1]],
  strategy: [['Chief Strategy Officer', 'c-suite', 0.2, ['c-suite']], ['Strategy Manager', 'manager', 0.6], ['Business Analyst', 'non-managerial', 1.5], ['Management Consultant', 'non-managerial', 1.5]],
  partnerships: [['Head of Partnerships', 'director', 0.4], ['Partnerships Manager', 'manager', 0.8], ['Channel Partner Manager', 'manager', 0.5, ['sales']]],
  creative: [['Creative Director', 'director', 0.6], ['Art Director', 'manager', 0.6], ['Copywriter', 'non-managerial', 1], ['Video Producer', 'non-managerial', 0.8], ['Freelance Photographer', 'freelancer', 0.3]],
  trade: [['Electrician', 'non-managerial', 1.5], ['Plumber', 'non-managerial', 1], ['HVAC Technician', 'non-managerial', 1.5], ['Carpenter', 'non-managerial', 0.8], ['Apprentice Electrician', 'training', 0.4]],
  'public service': [['Public Affairs Manager', 'manager', 0.5], ['Policy Analyst', 'non-managerial', 0.5]],
};

const LEVEL_SET: ReadonlySet<string> = new Set(JOB_LEVELS);
const DEPARTMENT_SET: ReadonlySet<string> = new Set(JOB_DEPARTMENTS);

export const JOB_TITLES: readonly JobTitle[] = Object.entries(BY_DEPARTMENT).flatMap(([department, rows]) =>
  rows.map(([title, level, weight, extra = []]): JobTitle => {
    // An extra value counts for whichever list knows it ("c-suite" is both a level and a department).
    const levels = [level, ...extra.filter((e): e is JobLevel => LEVEL_SET.has(e))];
    const departments = [
      department as JobDepartment,
      ...extra.filter((e): e is JobDepartment => DEPARTMENT_SET.has(e)),
    ];
    return {
      title,
      level,
      department: department as JobDepartment,
      levels: [...new Set(levels)],
      departments: [...new Set(departments)],
      weight,
    };
  }),
);

/** Titles by department, for picking a role within a department. */
export const TITLES_BY_DEPARTMENT: ReadonlyMap<JobDepartment, readonly JobTitle[]> = JOB_TITLES.reduce(
  (map, t) => {
    map.set(t.department, [...(map.get(t.department) ?? []), t]);
    return map;
  },
  new Map<JobDepartment, JobTitle[]>(),
);
