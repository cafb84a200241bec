/**
 * The person-name confidence table is generated: `scripts/calibrate-persons.ts` fits it on generated
 * people (never on the real evaluation sets). The committed table must be what the script writes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibratePersons, TABLE_FILE } from '../scripts/calibrate-persons.js';
import { PERSON_CONFIDENCE } from '../src/core/match/person-confidence.js';

describe('person confidence calibration', () => {
  it('the committed table is the calibration script output (regenerate: node --import tsx scripts/calibrate-persons.ts)', async () => {
    const { text, observed } = await calibratePersons();
    expect(observed).toBeGreaterThan(10_000);
    expect(readFileSync(TABLE_FILE, 'utf8')).toBe(text);
  }, 120_000);

  it('holds probabilities that never fall as the score or the lead grows', () => {
    for (const byWords of PERSON_CONFIDENCE) {
      for (const table of byWords) {
        table.forEach((row, s) => {
          row.forEach((p, l) => {
            expect(p).toBeGreaterThanOrEqual(0);
            expect(p).toBeLessThanOrEqual(1);
            if (l > 0) expect(p).toBeGreaterThanOrEqual(row[l - 1]!);
            if (s > 0) expect(p).toBeGreaterThanOrEqual(table[s - 1]![l]!);
          });
        });
      }
    }
  });
});
