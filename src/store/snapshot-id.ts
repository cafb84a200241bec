/** The snapshot id: one hash of the per-stream hashes kept in `meta` (`hash_<stream>`). */
import { createHash } from 'node:crypto';
import { STREAMS } from '../snapshot/files.js';
import { getMeta, type Db } from './open.js';

/** The id of the data now in `db`, from its `hash_<stream>` entries (absent ones count as empty). */
export function snapshotIdOf(db: Db): string {
  return createHash('sha256')
    .update(STREAMS.map((s) => getMeta(db, `hash_${s}`) ?? '').join('\n'))
    .digest('hex')
    .slice(0, 32);
}
