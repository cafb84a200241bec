/** Objects as `[key, value]` lists (deeply), so that a difference in key order shows in a diff. */
export const entries = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(entries)
    : v && typeof v === 'object'
      ? Object.entries(v).map(([k, x]) => [k, entries(x)])
      : v;
