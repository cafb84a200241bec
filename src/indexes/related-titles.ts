/**
 * Related job titles for `include_related_job_titles`: groups of titles that name the same work. A title
 * phrase that belongs to a group expands to every phrase of the group; phrases still match inside a
 * title, so "Software Engineer" also finds "Senior Backend Engineer" through "backend engineer".
 */
import { foldText } from '../normalise/index.js';

const GROUPS: readonly (readonly string[])[] = [
  [
    'software engineer',
    'software developer',
    'backend engineer',
    'backend developer',
    'frontend engineer',
    'frontend developer',
    'front end developer',
    'full stack engineer',
    'full stack developer',
    'fullstack developer',
    'web developer',
    'programmer',
    'application developer',
    'software development engineer',
  ],
  ['data scientist', 'machine learning engineer', 'ml engineer', 'ai engineer', 'data science'],
  ['data engineer', 'analytics engineer', 'etl developer', 'big data engineer'],
  ['data analyst', 'business analyst', 'analytics analyst', 'bi analyst', 'business intelligence analyst'],
  [
    'devops engineer',
    'site reliability engineer',
    'sre',
    'platform engineer',
    'cloud engineer',
    'infrastructure engineer',
  ],
  ['qa engineer', 'test engineer', 'quality assurance engineer', 'sdet', 'software tester'],
  ['product manager', 'product owner', 'technical product manager'],
  ['project manager', 'program manager', 'delivery manager'],
  ['designer', 'ux designer', 'ui designer', 'product designer', 'graphic designer', 'visual designer'],
  [
    'sales representative',
    'account executive',
    'sales executive',
    'business development representative',
    'sales development representative',
    'account manager',
  ],
  ['marketing manager', 'growth manager', 'digital marketing manager', 'marketing lead'],
  ['recruiter', 'talent acquisition', 'talent acquisition specialist', 'sourcer'],
  ['hr manager', 'human resources manager', 'people manager', 'hr business partner', 'people partner'],
  ['accountant', 'bookkeeper', 'accounting specialist'],
  ['financial analyst', 'finance analyst', 'fp&a analyst'],
  ['chief executive officer', 'ceo'],
  ['chief technology officer', 'cto'],
  ['chief financial officer', 'cfo'],
  ['chief marketing officer', 'cmo'],
  ['chief operating officer', 'coo'],
  [
    'vp engineering',
    'vice president of engineering',
    'head of engineering',
    'engineering director',
    'director of engineering',
  ],
  ['customer success manager', 'customer success', 'account manager', 'client success manager'],
  ['support engineer', 'customer support', 'technical support', 'support specialist'],
  ['security engineer', 'security analyst', 'cybersecurity engineer', 'information security analyst'],
  ['nurse', 'registered nurse', 'rn'],
  ['teacher', 'educator', 'instructor', 'lecturer'],
  ['lawyer', 'attorney', 'counsel', 'legal counsel'],
];

const BY_TITLE: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const group of GROUPS) {
    const folded = group.map(foldText);
    for (const t of folded) map.set(t, [...new Set([...(map.get(t) ?? []), ...folded])]);
  }
  return map;
})();

/** The phrase and the titles related to it (folded), the phrase first. */
export function relatedTitles(title: string): string[] {
  const folded = foldText(title);
  const group = BY_TITLE.get(folded);
  if (!group) return [folded];
  return [folded, ...group.filter((t) => t !== folded)];
}
