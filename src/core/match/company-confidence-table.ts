/** The shape of the business-name confidence table (its own module: the generated table imports it). */

/** How a business name answer was reached. */
export type ConfidencePath =
  /** The one business with the name's key. */
  | 'exact'
  /** Namesakes told apart by the tie-breaks (legal form, country, word order). */
  | 'namesakes'
  /** A fuzzy decision (raw: the name score). */
  | 'fuzzy'
  /** Abbreviated or cut-off words read in full. */
  | 'abbreviated'
  /** The same name with another legal form (raw: 1 / how many such namesakes). */
  | 'other_form'
  /** A word more or less, on term-frequency evidence (raw: the evidence in log units). */
  | 'words'
  /** The best fuzzy candidate of a row the default leaves open (raw: score discounted for rivals). */
  | 'guess_fuzzy'
  /** Namesakes the tie-breaks could not tell apart (raw: 1 / how many). */
  | 'guess_namesakes'
  /** The top hit of a word search with read words (raw: coverage of both names and lead, in [0, 1]). */
  | 'guess_retrieved';

/** Per path: ascending raw thresholds and the share right from each threshold on (a step function). */
export type ConfidenceTable = Record<ConfidencePath, { from: readonly number[]; p: readonly number[] }>;
