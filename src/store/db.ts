/** The database handle type (a leaf, so that the store's own modules can name it without a circle). */
import type Database from 'better-sqlite3';

export type Db = Database.Database;
