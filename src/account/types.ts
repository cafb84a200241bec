/** Types the account layer owns (the facade and the adapters take them from here). */

/** The authenticated caller. */
export interface Account {
  account_id: string;
  partner_id: string;
  name: string;
  account_type: 'trial' | 'paid';
  /** Operations beyond the defaults, e.g. `contacts` for contact data. */
  entitlements: string[];
}
