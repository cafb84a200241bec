/**
 * The statements of a delta (`store/delta*.ts`): rows found, replaced, added and deleted by id, and the
 * prospects whose inherited company columns a business change touches. Every one reads or writes
 * through an index (the ids' UNIQUE indexes, `prospects_business`), so a delta costs what it changes.
 */
import type { StreamName } from '../../snapshot/files.js';
import { LOAD_SQL } from './load.js';

const ID: Record<StreamName, string> = {
  businesses: 'business_id',
  prospects: 'prospect_id',
  events: 'event_id',
};

/** The rowid of a stored record by its id. */
export const rowidOfSql = (stream: StreamName) => `SELECT rowid FROM ${stream} WHERE ${ID[stream]} = ?`;

/** Deletes a record by its id; returns its rowid (none when it was not stored). */
export const deleteByIdSql = (stream: StreamName) =>
  `DELETE FROM ${stream} WHERE ${ID[stream]} = ? RETURNING rowid`;

/** Replaces every loaded column of the row `rowid` (bound last), keeping the rowid. */
export const updateRowSql = (stream: StreamName, columns: readonly string[]) =>
  `UPDATE ${stream} SET (${columns.join(', ')}) = (${columns.map(() => '?').join(', ')}) WHERE rowid = ?`;

/** Adds a row with its rowid given (numbered after the base's last, never reusing a deleted one). */
export const insertRowSql = (stream: StreamName, columns: readonly string[]) =>
  `INSERT INTO ${stream} (rowid, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`;

export const maxRowidSql = (stream: StreamName) => `SELECT coalesce(max(rowid), 0) FROM ${stream}`;

export const DELTA_SQL = {
  /** The company columns of one business, as `LOAD_SQL.companies` gives them for all. */
  companyOf: `${LOAD_SQL.companies} WHERE business_id = ?`,
  /** Prospects employed by a business (by its rowid: `prospects_business`). */
  prospectsOfBusiness: 'SELECT rowid FROM prospects WHERE business_rowid = ?',
  /**
   * Prospects without a stored employer (the unemployed and the orphans), read from `prospects_business`
   * once: those naming a business the delta adds gain its company columns.
   */
  withoutEmployer:
    'SELECT rowid, business_id FROM prospects WHERE business_rowid IS NULL AND business_id IS NOT NULL',
  prospectDoc: 'SELECT business_id, business_rowid, wire, rest FROM prospects WHERE rowid = ?',
  /** When the `as_of` year changes, every age bucket moves: `age_bucket` is `derive.ts`' `ageBucket`. */
  businessAges: 'UPDATE businesses SET age = age_bucket(founded_year, ?)',
} as const;
