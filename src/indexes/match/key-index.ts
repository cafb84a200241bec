/**
 * Exact key → dense positions. Most keys name one entity, so a key holds a bare number and only keys
 * shared by several entities pay for an array: a 1M-key index stays a plain `Map` of small integers.
 */
export class KeyIndex {
  private readonly map = new Map<string, number | number[]>();

  get size(): number {
    return this.map.size;
  }

  add(key: string, position: number): void {
    const cur = this.map.get(key);
    if (cur === undefined) this.map.set(key, position);
    else if (typeof cur === 'number') {
      if (cur !== position) this.map.set(key, [cur, position]);
    } else if (!cur.includes(position)) cur.push(position);
  }

  /** Positions holding `key` (a fresh array: callers may keep or change it). */
  get(key: string): number[] {
    const cur = this.map.get(key);
    if (cur === undefined) return [];
    return typeof cur === 'number' ? [cur] : cur.slice();
  }

  /** The one position holding `key`, -1 when none, -2 when several. */
  only(key: string): number {
    const cur = this.map.get(key);
    if (cur === undefined) return -1;
    return typeof cur === 'number' ? cur : -2;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }
}
