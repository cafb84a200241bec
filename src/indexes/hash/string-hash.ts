/**
 * The 32-bit hash of a string's UTF-16 code units: FNV-1a per unit, then murmur3's finaliser so that
 * keys differing in their last characters ("acme1.com", "acme2.com") spread over the whole table
 * (linear probing clusters on weak low bits). Read through `charCodeAt`, so a lookup allocates nothing;
 * the same function over the stored units gives the same hash whether they are kept as bytes or units.
 */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return finish(h);
}

/** {@link hashString} of the code units `units[start .. end)`. */
export function hashUnits(units: Uint8Array | Uint16Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (units[i] as number), 0x01000193);
  return finish(h);
}

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
