/**
 * Match shapes: the live response rows (docs/spec/api-reference.md §3) plus the opt-in extras
 * (`match_confidence`, `matched_on`, `alternatives`) that only appear when asked for.
 */

/** A business row as echoed back: every input key, null when absent. */
export interface BusinessInput {
  name: string | null;
  domain: string | null;
  url: string | null;
  linkedin_url: string | null;
}

/** A prospect row as echoed back: every input key, null when absent. */
export interface ProspectInput {
  business_id: string | null;
  full_name: string | null;
  company_name: string | null;
  email: string | null;
  phone_number: string | null;
  linkedin: string | null;
}

/** What a caller may pass: any subset of the keys; extra keys are ignored, numbers become strings. */
export type BusinessRowInput = Partial<Record<keyof BusinessInput, unknown>>;
export type ProspectRowInput = Partial<Record<keyof ProspectInput, unknown>>;

export const BUSINESS_KEYS = ['name', 'domain', 'url', 'linkedin_url'] as const;
export const PROSPECT_KEYS = [
  'business_id',
  'full_name',
  'company_name',
  'email',
  'phone_number',
  'linkedin',
] as const;

/** Which evidence agreed on the answer. */
export type MatchedOn =
  | 'domain'
  | 'host'
  | 'linkedin'
  | 'name'
  | 'name_fuzzy'
  | 'email'
  | 'phone'
  | 'business_id'
  | 'company'
  /** The name matched but the legal form written differs ("Brightwell Inc." for "Brightwell N.V."). */
  | 'legal_form_differs'
  /** The name matched one of the business's other names (a former legal name, a trading name …). */
  | 'other_name'
  /**
   * On a row left unmatched: the value given (a name as written, a domain, a profile, an e-mail, a
   * phone, a person's name in the company) is held by several records; `alternatives` lists them.
   */
  | 'ambiguous';

export interface MatchOptions {
  /** Add `match_confidence` (0–1) and `matched_on` to every row. */
  explain?: boolean;
  /** Add up to this many other candidates with their scores (`alternatives`). */
  alternatives?: number;
  /**
   * 0–1. Absent: the precision-first decision. Present: a row is matched to its best candidate iff that
   * candidate's calibrated `match_confidence` reaches it (lower it to trade precision for recall).
   */
  minConfidence?: number;
}

/** Per-row errors: stable `error_type` codes and their messages. */
export const MATCH_ERRORS = {
  missing_identifier: 'At least one identifier is required',
  missing_company: 'full_name must be accompanied by company_name or business_id',
  missing_full_name: 'company_name and business_id must be accompanied by full_name',
} as const;
export type MatchErrorType = keyof typeof MATCH_ERRORS;

export interface Alternative {
  id: string;
  score: number;
}

interface RowExtras {
  error?: string;
  error_type?: MatchErrorType;
  match_confidence?: number;
  matched_on?: MatchedOn[];
  alternatives?: Alternative[];
}

export interface BusinessMatchRow extends RowExtras {
  input: BusinessInput;
  business_id: string | null;
}

export interface ProspectMatchRow extends RowExtras {
  input: ProspectInput;
  prospect_id: string | null;
}

export interface BusinessesMatchResult {
  total_results: number;
  total_matches: number;
  matched_businesses: BusinessMatchRow[];
}

export interface ProspectsMatchResult {
  total_results: number;
  total_matches: number;
  matched_prospects: ProspectMatchRow[];
}

/** The matcher's verdict on one row, with positions (dense ids) instead of external ids. */
export type Verdict =
  | { kind: 'error'; error: MatchErrorType }
  | { kind: 'none'; candidates: Scored[]; ambiguous?: true }
  | { kind: 'match'; pos: number; confidence: number; on: MatchedOn[]; candidates: Scored[] };

export interface Scored {
  pos: number;
  score: number;
}
