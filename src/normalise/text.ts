/**
 * Text folding shared by every normaliser: one pass over the characters, no regex per character on
 * the ASCII path (which is almost all of the data), NFKD only when the string holds non-ASCII.
 */

/**
 * Characters of input read and of folded output written by {@link words}. No name, title or phrase
 * comes near it; the caps keep hostile input (50 KB strings, characters such as "ﬃ" or "İ" that
 * expand when folded) from costing more than a fixed amount of work in every caller.
 */
export const MAX_FOLD_CHARS = 4_096;

/** Letters and digits outside ASCII; marks are tested separately because they are dropped, not split on. */
const NON_ASCII_WORD_CHAR = /[\p{L}\p{N}]/u;
const COMBINING_MARK = /\p{M}/u;

/** Letters that NFKD leaves alone but that readers treat as accented Latin letters. */
const SPECIAL_FOLDS: ReadonlyMap<number, string> = new Map([
  [0x00df, 'ss'], // ß
  [0x1e9e, 'ss'], // ẞ
  [0x00e6, 'ae'], // æ
  [0x00c6, 'ae'], // Æ
  [0x0153, 'oe'], // œ
  [0x0152, 'oe'], // Œ
  [0x00f8, 'o'], // ø
  [0x00d8, 'o'], // Ø
  [0x0111, 'd'], // đ
  [0x0110, 'd'], // Đ
  [0x00f0, 'd'], // ð
  [0x00d0, 'd'], // Ð
  [0x0142, 'l'], // ł
  [0x0141, 'l'], // Ł
  [0x00fe, 'th'], // þ
  [0x00de, 'th'], // Þ
  [0x0131, 'i'], // dotless ı
]);

/** Apostrophes join the letters around them ("Macy's" → "macys", "O'Brien" → "obrien", "Int'l" → "intl"). */
function isApostrophe(c: number): boolean {
  return c === 0x27 || c === 0x60 || c === 0x2018 || c === 0x2019 || c === 0x02bc;
}

function hasNonAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return true;
  return false;
}

/**
 * Folds text for comparison: NFKD accent folding, lower case, "&" → " and ", apostrophes removed,
 * other punctuation → space, whitespace collapsed, trimmed.
 * @example foldText('  Müller & Söhne, GmbH ') // 'muller and sohne gmbh'
 */
export function foldText(s: string): string {
  return words(s).join(' ');
}

/**
 * The words of a text after {@link foldText} ([] when there are none). Tokenises in one pass, copying
 * whole ASCII runs, so no intermediate folded string is built and split again.
 * @example words('Acme-Robotics, Inc.') // ['acme', 'robotics', 'inc']
 */
export function words(s: string): string[] {
  const input = s.length > MAX_FOLD_CHARS ? cut(s, MAX_FOLD_CHARS) : s;
  // Final sigma folds to σ, as Unicode case folding does: toLowerCase picks ς by position, so "Ϲ"
  // (NFKD "Σ", a word's last letter) became "ς" while its lower case "ϲ" became "σ".
  const src = hasNonAscii(input)
    ? input.normalize('NFKD').toLowerCase().replace(/ς/g, 'σ')
    : input.toLowerCase();
  const n = src.length;
  const out: string[] = [];
  let word = '';
  let written = 0;
  let i = 0;
  while (i < n) {
    // Folding can expand the text (up to 18 characters for one): stop once the output is full.
    if (written + word.length >= MAX_FOLD_CHARS) {
      word = word.slice(0, Math.max(0, MAX_FOLD_CHARS - written));
      break;
    }
    const c = src.charCodeAt(i);
    if (isAsciiWordChar(c)) {
      let j = i + 1;
      const stop = Math.min(n, i + MAX_FOLD_CHARS - written - word.length);
      while (j < stop && isAsciiWordChar(src.charCodeAt(j))) j++;
      word += src.slice(i, j);
      i = j;
      continue;
    }
    if (c < 0x80) {
      if (!isApostrophe(c)) {
        if (word.length > 0) out.push(word);
        written += word.length;
        word = '';
        if (c === 0x26) {
          out.push('and');
          written += 3;
        }
      }
      i++;
      continue;
    }
    if (isApostrophe(c)) {
      i++;
      continue;
    }
    const cp = src.codePointAt(i) ?? c;
    const ch = String.fromCodePoint(cp);
    i += cp > 0xffff ? 2 : 1;
    const special = SPECIAL_FOLDS.get(cp);
    if (special !== undefined || NON_ASCII_WORD_CHAR.test(ch)) {
      word += special ?? ch;
    } else if (!COMBINING_MARK.test(ch)) {
      if (word.length > 0) out.push(word);
      written += word.length;
      word = '';
    }
    // Combining marks (the accents NFKD split off) are dropped without breaking the word.
  }
  if (word.length > 0) out.push(word);
  return out;
}

/** The first `n` UTF-16 units of `s`, without splitting a surrogate pair. */
function cut(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

function isAsciiWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

/** Splits a comma-separated word list written as a template literal (module-load time only). */
export function commaList(s: string): string[] {
  return s
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w.length > 0);
}
