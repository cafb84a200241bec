/** Row input handling: echo every documented key, and read values as trimmed strings. */
import type { BUSINESS_KEYS, PROSPECT_KEYS } from './types.js';
import {
  type BusinessInput,
  type BusinessRowInput,
  type ProspectInput,
  type ProspectRowInput,
} from './types.js';

/** A value as echoed: strings as given, numbers as strings, anything else null. */
function echoValue(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return null;
}

/** The trimmed value, or null when absent or blank. */
export function clean(v: string | null): string | null {
  if (v === null) return null;
  const t = v.trim();
  return t.length === 0 ? null : t;
}

// Written out key by key (in the order of BUSINESS_KEYS / PROSPECT_KEYS, the response's order): one
// object shape for every row, no keyed loads and stores in the per-row path.

export function echoBusiness(row: BusinessRowInput): BusinessInput {
  return {
    name: echoValue(row?.name),
    domain: echoValue(row?.domain),
    url: echoValue(row?.url),
    linkedin_url: echoValue(row?.linkedin_url),
  } satisfies Record<(typeof BUSINESS_KEYS)[number], string | null>;
}

export function echoProspect(row: ProspectRowInput): ProspectInput {
  return {
    business_id: echoValue(row?.business_id),
    full_name: echoValue(row?.full_name),
    company_name: echoValue(row?.company_name),
    email: echoValue(row?.email),
    phone_number: echoValue(row?.phone_number),
    linkedin: echoValue(row?.linkedin),
  } satisfies Record<(typeof PROSPECT_KEYS)[number], string | null>;
}
