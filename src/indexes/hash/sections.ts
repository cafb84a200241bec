/**
 * Saved forms of the hash tables: flat records of typed arrays and numbers that the index file stores
 * as they are and hands back mapped over its bytes. Reading one back checks the shapes up front, so a
 * damaged or foreign record fails with a message instead of answering wrong keys.
 */
export type TypedArray =
  Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array | Int8Array | Int16Array | Float32Array;

export type Sections = Record<string, TypedArray | number>;

/** `s[name]` when it is an array of `type`; throws naming the section otherwise. */
export function sectionArray<T extends TypedArray>(
  s: Sections,
  name: string,
  type: abstract new (...args: never[]) => T,
  what: string,
): T {
  const v = s[name];
  if (!(v instanceof type)) throw new Error(`${what}: section "${name}" must be a ${type.name}`);
  return v;
}

/** `s[name]` when it is a non-negative integer; throws naming the section otherwise. */
export function sectionCount(s: Sections, name: string, what: string): number {
  const v = s[name];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new Error(`${what}: section "${name}" must be a non-negative integer`);
  return v;
}

/** Throws `${what}: ${message}` unless `ok`. */
export function check(ok: boolean, what: string, message: string): void {
  if (!ok) throw new Error(`${what}: ${message}`);
}
