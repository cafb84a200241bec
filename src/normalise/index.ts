/**
 * Attribute normalisers shared by the snapshot loader, the filters and the match engine. Pure functions,
 * no I/O; each one is safe to call on every row of a load.
 */
export { foldText, words } from './text.js';
export {
  companyFilterKeys,
  companyFullKey,
  companyKey,
  companyMatchKey,
  companyMatchName,
  formClassOutsideCountry,
  normaliseCompanyName,
  type CompanyMatchName,
} from './company.js';
export type { CompanyName } from './company.js';
export { normaliseDomain } from './domain.js';
export type { DomainKey } from './domain.js';
export { linkedinCompanySlug, linkedinPersonSlug } from './linkedin.js';
export { normaliseEmail } from './email.js';
export type { EmailKey } from './email.js';
export { normalisePhone } from './phone.js';
export { givenNameVariants, nameSkeleton, normalisePersonName, personTokens } from './person.js';
export type { PersonName } from './person.js';
