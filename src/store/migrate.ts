/**
 * Brings a database built by an older schema up to date on open: adds the columns reads expect and
 * derives them from the stored `doc` once (a reload does the same; this keeps built files usable).
 */
import { decodeDoc } from './codec.js';
import { companyWebsite } from './derive.js';
import type { Db } from './db.js';
import { businessFacets, businessWire, prospectFacets, prospectWire } from './wire.js';
import { MIGRATE_SQL } from './sql/load.js';

const ADDED: Readonly<Record<'businesses' | 'prospects', readonly string[]>> = {
  businesses: ['website_url TEXT', 'linkedin_profile TEXT', 'wire BLOB', 'facets BLOB'],
  prospects: ['wire BLOB', 'facets BLOB'],
};

/** Adds missing columns and fills `wire`/`facets` (and their sources) where they are NULL. */
export function migrate(db: Db): void {
  for (const [table, defs] of Object.entries(ADDED)) {
    const have = new Set((db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));
    for (const def of defs) {
      if (!have.has(def.slice(0, def.indexOf(' ')))) db.exec(`ALTER TABLE ${table} ADD COLUMN ${def}`);
    }
  }
  if (
    !db.prepare(MIGRATE_SQL.businessWithoutWire).get() &&
    !db.prepare(MIGRATE_SQL.prospectWithoutWire).get()
  ) {
    return;
  }
  db.transaction(() => {
    const b = db.prepare(MIGRATE_SQL.updateBusiness);
    for (const r of db.prepare(MIGRATE_SQL.businessesWithoutWire).all() as {
      rowid: number;
      doc: Buffer;
    }[]) {
      const doc = decodeDoc('businesses', r.doc);
      b.run(companyWebsite(doc), doc.linkedin_profile, businessWire(doc), businessFacets(doc), r.rowid);
    }
    const p = db.prepare(MIGRATE_SQL.updateProspect);
    const rows = db.prepare(MIGRATE_SQL.prospectsWithoutWire).all() as {
      rowid: number;
      doc: Buffer;
      company_name: string | null;
      company_website: string | null;
      company_linkedin: string | null;
    }[];
    for (const r of rows) {
      const doc = decodeDoc('prospects', r.doc);
      p.run(prospectWire(doc, r), prospectFacets(doc), r.rowid);
    }
  })();
}
