/** Compressed sparse rows: the value ids each row holds (for multi-valued stats dimensions). */
export interface Csr {
  /** `ids[start[row] .. start[row + 1])` are the row's value ids. */
  readonly start: Uint32Array;
  readonly ids: Uint32Array;
}

export class CsrBuilder {
  private readonly starts: number[] = [0];
  private ids = new Uint32Array(1024);
  private n = 0;
  private row = 0;

  /** Appends value `id` to row `row` (rows ascending; gaps allowed). */
  add(row: number, id: number): void {
    this.advance(row);
    if (this.n === this.ids.length) {
      const next = new Uint32Array(this.ids.length * 2);
      next.set(this.ids);
      this.ids = next;
    }
    this.ids[this.n++] = id;
  }

  private advance(row: number): void {
    while (this.row < row) {
      this.starts.push(this.n);
      this.row++;
    }
  }

  finish(size: number): Csr {
    this.advance(size);
    const start = Uint32Array.from(this.starts.slice(0, size + 1));
    // Rows past the last one added end where the data ends.
    for (let i = 0; i <= size; i++) if (i >= this.starts.length) start[i] = this.n;
    return { start, ids: this.ids.slice(0, this.n) };
  }
}

/**
 * The rows of each group (`groupOf[row]`, -1: none; groups below `groups`), rows ascending in each: a
 * counting sort. The prospects of each business (`byBusiness` of the prospect search index).
 */
export function groupByBusiness(groupOf: Int32Array, groups: number): Csr {
  const start = new Uint32Array(groups + 1);
  for (let row = 0; row < groupOf.length; row++) {
    const g = groupOf[row]!;
    if (g >= 0) start[g + 1]!++;
  }
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, groups);
  const ids = new Uint32Array(start[groups]!);
  for (let row = 0; row < groupOf.length; row++) {
    const g = groupOf[row]!;
    if (g >= 0) ids[fill[g]!++] = row;
  }
  return { start, ids };
}
