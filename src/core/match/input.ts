/** Row input handling: echo every documented key, and read values as trimmed strings. */
import {
  BUSINESS_KEYS,
  PROSPECT_KEYS,
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

export function echoBusiness(row: BusinessRowInput): BusinessInput {
  const out = {} as BusinessInput;
  for (const k of BUSINESS_KEYS) out[k] = echoValue(row?.[k]);
  return out;
}

export function echoProspect(row: ProspectRowInput): ProspectInput {
  const out = {} as ProspectInput;
  for (const k of PROSPECT_KEYS) out[k] = echoValue(row?.[k]);
  return out;
}
