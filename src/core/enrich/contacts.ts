/**
 * Contact information with a source waterfall. Every e-mail and phone of a prospect carries the source
 * the snapshot recorded for it (null counts as the primary source). `explorium_only` returns only the
 * primary source; `full` walks every source, primary first, then the others by name. Each returned
 * e-mail and phone is tagged with its source.
 */
import type { ProspectRecord } from '../../schemas/records.js';
import type { ContactType, WaterfallMode } from '../../schemas/enrich.js';

/** The source a contact without a recorded source is credited to. */
export const PRIMARY_SOURCE = 'explorium';

export interface ContactRequest {
  contact_types: readonly ContactType[];
  waterfall: WaterfallMode;
}

export interface ContactEmail {
  address: string;
  type: string;
  status: string | null;
  source: string;
}
export interface ContactPhone {
  phone_number: string;
  type: string | null;
  source: string;
}

export interface ContactResult {
  emails: ContactEmail[];
  phones: ContactPhone[];
  professional: ContactEmail | null;
  mobile: ContactPhone | null;
}

const sourceOf = (s: string | null | undefined) => s ?? PRIMARY_SOURCE;
const rank = (source: string) => (source === PRIMARY_SOURCE ? 0 : 1);
const bySource = <T extends { source: string }>(a: T, b: T) =>
  rank(a.source) - rank(b.source) || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0);
const EMAIL_TYPE_RANK: Record<string, number> = { current_professional: 0, professional: 1 };

/** The charging-menu operation of a contact request (email 2, phone 5, both 5 credits). */
export function contactOperation(types: readonly ContactType[]): string {
  const email = types.includes('email');
  const phone = types.includes('phone');
  if (email && phone) return 'contact_information_email_phone';
  return email ? 'contact_information_email' : 'contact_information_phone';
}

/**
 * Runs the waterfall over one prospect's contacts.
 * @example contactWaterfall(prospect, { contact_types: ['email'], waterfall: 'full' }).professional?.address
 */
export function contactWaterfall(record: ProspectRecord, request: ContactRequest): ContactResult {
  const keep = (source: string) => request.waterfall === 'full' || source === PRIMARY_SOURCE;
  const emails: ContactEmail[] = request.contact_types.includes('email')
    ? record.emails
        .map((e) => ({ address: e.address, type: e.type, status: e.status, source: sourceOf(e.source) }))
        .filter((e) => keep(e.source))
        .sort(bySource)
    : [];
  const phones: ContactPhone[] = request.contact_types.includes('phone')
    ? record.phone_numbers
        .map((p) => ({ phone_number: p.phone_number, type: p.type, source: sourceOf(p.source) }))
        .filter((p) => keep(p.source))
        .sort(bySource)
    : [];
  const professional =
    emails
      .filter((e) => e.type in EMAIL_TYPE_RANK)
      .sort((a, b) => bySource(a, b) || (EMAIL_TYPE_RANK[a.type] ?? 9) - (EMAIL_TYPE_RANK[b.type] ?? 9))[0] ??
    null;
  const mobile = phones.find((p) => p.type === 'mobile') ?? phones[0] ?? null;
  return { emails, phones, professional, mobile };
}

/** v1 `contacts_information` payload (field `professions_email`, sic). */
export function contactsV1(r: ContactResult): Record<string, unknown> {
  return {
    emails: r.emails.map((e) => ({ address: e.address, type: e.type, source: e.source })),
    professions_email: r.professional?.address ?? null,
    professional_email_status: r.professional?.status ?? null,
    phone_numbers: r.phones.map((p) => ({ phone_number: p.phone_number, type: p.type, source: p.source })),
    mobile_phone: r.mobile?.phone_number ?? null,
  };
}

/** v2 `contact_information` payload: `professional_email`, no nested `emails`, sources tagged. */
export function contactsV2(r: ContactResult): Record<string, unknown> {
  return {
    professional_email: r.professional?.address ?? null,
    professional_email_status: r.professional?.status ?? null,
    professional_email_source: r.professional?.source ?? null,
    phone_numbers: r.phones.map((p) => ({ phone_number: p.phone_number, type: p.type, source: p.source })),
    mobile_phone: r.mobile?.phone_number ?? null,
    mobile_phone_source: r.mobile?.source ?? null,
  };
}

export const isEmptyContact = (r: ContactResult) => r.emails.length === 0 && r.phones.length === 0;
