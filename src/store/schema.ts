/**
 * The SQLite schema. Entity tables keep the validated record as a MessagePack `doc` plus the normalised
 * columns that filters, stats, match and autocomplete read; the dense `rowid` is the id inside every
 * in-memory index. Modules that own state (accounts, credits, webhooks, jobs) add their DDL to `SCHEMA`.
 */

export const SCHEMA_VERSION = 1;

const ENTITIES = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

CREATE TABLE IF NOT EXISTS businesses (
  rowid INTEGER PRIMARY KEY,
  business_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  domain TEXT,
  host TEXT,
  linkedin_slug TEXT,
  country_code TEXT,
  region_country_code TEXT,
  city_name TEXT,
  city_region TEXT,
  city_region_country TEXT,
  size TEXT,
  revenue TEXT,
  founded_year INTEGER,
  age TEXT,
  number_of_locations INTEGER,
  locations TEXT,
  naics TEXT,
  is_public INTEGER NOT NULL,
  has_website INTEGER NOT NULL,
  doc BLOB NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS prospects (
  rowid INTEGER PRIMARY KEY,
  prospect_id TEXT NOT NULL UNIQUE,
  business_id TEXT,
  business_rowid INTEGER,
  full_name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  linkedin_slug TEXT,
  country_code TEXT,
  region_country_code TEXT,
  job_title TEXT NOT NULL,
  job_level TEXT,
  job_department TEXT,
  total_experience_months INTEGER,
  current_role_months INTEGER,
  has_email INTEGER NOT NULL,
  has_phone INTEGER NOT NULL,
  company_name TEXT,
  company_website TEXT,
  company_linkedin TEXT,
  company_size TEXT,
  company_revenue TEXT,
  company_age TEXT,
  company_locations TEXT,
  company_country_code TEXT,
  company_region_country_code TEXT,
  company_city_region_country TEXT,
  company_naics TEXT,
  company_is_public INTEGER,
  company_has_website INTEGER,
  doc BLOB NOT NULL
) STRICT;

-- Exact match keys (e-mail, phone, profile slug, domain …) → entity rowid; kind names the key.
CREATE TABLE IF NOT EXISTS match_keys (
  entity TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  row INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS events (
  rowid INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  event_name TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  event_time INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL,
  doc BLOB NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS events_entity ON events (entity_id, event_time);
`;

/** Secondary indexes on the entity tables, built after a bulk load (cheaper than during inserts). */
export const ENTITY_INDEXES = `
CREATE INDEX IF NOT EXISTS businesses_name_key ON businesses (name_key);
CREATE INDEX IF NOT EXISTS businesses_domain ON businesses (domain);
CREATE INDEX IF NOT EXISTS businesses_country ON businesses (country_code, region_country_code);
CREATE INDEX IF NOT EXISTS prospects_business ON prospects (business_rowid);
CREATE INDEX IF NOT EXISTS prospects_name_key ON prospects (name_key);
CREATE INDEX IF NOT EXISTS prospects_country ON prospects (country_code, region_country_code);
CREATE INDEX IF NOT EXISTS match_keys_lookup ON match_keys (entity, kind, key);
`;

export const DROP_ENTITY_INDEXES = `
DROP INDEX IF EXISTS businesses_name_key;
DROP INDEX IF EXISTS businesses_domain;
DROP INDEX IF EXISTS businesses_country;
DROP INDEX IF EXISTS prospects_business;
DROP INDEX IF EXISTS prospects_name_key;
DROP INDEX IF EXISTS prospects_country;
DROP INDEX IF EXISTS match_keys_lookup;
`;

/** Every module's DDL, run in order on open (idempotent). */
export const SCHEMA: readonly string[] = [ENTITIES, ENTITY_INDEXES];
