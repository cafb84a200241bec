/**
 * Generates `src/normalise/legal-forms.generated.ts` from the ISO 20275 Entity Legal Forms list (GLEIF ELF
 * code list, CC0):
 *
 *   node --import tsx scripts/legal-forms.ts [path/to/elf-code-list-v1.5.csv] [--check]
 *
 * Every local name, transliterated name and abbreviation of an active legal form is folded the way names
 * are (`words`), with its dotted / spaced spelling ("N.V." folds to `n v`, also written `nv`), the
 * countries that use it (evidence for the matcher) and an equivalence class: the compact abbreviation
 * of its ELF entry, so "Naamloze Vennootschap" and "N.V." are both `nv` and "Aktiengesellschaft" is `ag`.
 * `--check` exits 1 when the committed table differs from what the CSV gives (the test does the same).
 */
import { readFileSync } from 'node:fs';
import { writeOrCheck } from './generated-file.js';
import { elfCsvPath, legalFormTable, renderLegalForms } from './legal-forms-lib.js';

const csvPath = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? elfCsvPath();
if (csvPath === null) throw new Error('elf-code-list-v1.5.csv not found: pass its path');

writeOrCheck(
  new URL('../src/normalise/legal-forms.generated.ts', import.meta.url),
  renderLegalForms(legalFormTable(readFileSync(csvPath, 'utf8'))),
  'scripts/legal-forms.ts',
);
