/** Turning names into e-mail local parts, slugs and domains, and dates into ISO strings. */

const SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss',
  ø: 'o',
  Ø: 'o',
  ł: 'l',
  Ł: 'l',
  æ: 'ae',
  œ: 'oe',
  đ: 'd',
  ı: 'i',
};
const folded = new Map<string, string>();

/** Lower-case ASCII letters and digits only: "Müller-Lüdenscheidt" → "mullerludenscheidt". Memoised: names repeat. */
export function ascii(text: string): string {
  let out = folded.get(text);
  if (out === undefined) {
    out = text
      .replace(/[ßøØłŁæœđı]/g, (c) => SPECIAL[c] ?? c)
      .normalize('NFD')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    folded.set(text, out);
  }
  return out;
}

/** Words joined by `sep` in lower-case ASCII: "The Copper Kettle" → "the-copper-kettle". */
export function slug(text: string, sep = '-'): string {
  return text
    .split(/[\s&,.]+/)
    .map(ascii)
    .filter((w) => w.length > 0)
    .join(sep);
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + String(n);

/** A month counted from year 0 (`year * 12 + month - 1`) as its first day, `YYYY-MM-01`. */
export function monthDate(month: number, day = 1): string {
  return `${Math.floor(month / 12)}-${pad2((month % 12) + 1)}-${pad2(day)}`;
}

/** Epoch milliseconds as ISO 8601 in UTC without fractions: `2026-10-14T08:31:02Z`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + 'Z';
}

/** Epoch milliseconds as `YYYY-MM-DD`. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
