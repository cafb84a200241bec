/**
 * A small MessagePack writer for the loader's own records (`wire`, `facets`): JSON-like values only
 * (strings, finite numbers, booleans, null, arrays, plain objects). Measured at 100k prospects it
 * encodes a fetch record ~4× faster than msgpackr's general `pack` (which checks for records, shared
 * structures, extensions and bundles on every value), and any MessagePack reader, msgpackr's
 * `unpack` included, decodes what it writes into the same value. Anything else (`undefined`, a
 * `Date`, a typed array, a non-finite number) is handed to msgpackr.
 */
import { Packr } from 'msgpackr/pack';

const fallback = new Packr({ useRecords: false, moreTypes: false });

let buf = Buffer.allocUnsafe(1 << 16);
let pos = 0;

function room(n: number): void {
  if (pos + n <= buf.length) return;
  const next = Buffer.allocUnsafe(Math.max(buf.length * 2, pos + n));
  buf.copy(next, 0, 0, pos);
  buf = next;
}

function writeString(s: string): void {
  const n = s.length;
  if (n < 32) {
    // Short strings: ASCII in one pass, the common case for keys and codes.
    room(n + 1);
    const at = pos;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[at + 1 + i] = c;
    }
    if (i === n) {
      buf[at] = 0xa0 | n;
      pos = at + 1 + n;
      return;
    }
  }
  // Up to 3 bytes per UTF-16 unit; write after the largest header that length needs, then move the
  // bytes back when the exact length takes a smaller one.
  const max = n * 3;
  const header = max < 32 ? 1 : max < 0x100 ? 2 : max < 0x10000 ? 3 : 5;
  room(max + header);
  const written = buf.write(s, pos + header);
  const need = written < 32 ? 1 : written < 0x100 ? 2 : written < 0x10000 ? 3 : 5;
  if (need < header) buf.copyWithin(pos + need, pos + header, pos + header + written);
  if (need === 1) buf[pos] = 0xa0 | written;
  else if (need === 2) {
    buf[pos] = 0xd9;
    buf[pos + 1] = written;
  } else if (need === 3) {
    buf[pos] = 0xda;
    buf.writeUInt16BE(written, pos + 1);
  } else {
    buf[pos] = 0xdb;
    buf.writeUInt32BE(written, pos + 1);
  }
  pos += need + written;
}

function writeNumber(v: number): boolean {
  // -0 is written as 0, as msgpackr does.
  if (Number.isInteger(v) && v >= -0x80000000 && v <= 0xffffffff) {
    room(5);
    if (v >= 0) {
      if (v < 0x80) buf[pos++] = v;
      else if (v < 0x100) {
        buf[pos++] = 0xcc;
        buf[pos++] = v;
      } else if (v < 0x10000) {
        buf[pos++] = 0xcd;
        buf.writeUInt16BE(v, pos);
        pos += 2;
      } else {
        buf[pos++] = 0xce;
        buf.writeUInt32BE(v, pos);
        pos += 4;
      }
    } else if (v >= -32) buf[pos++] = v & 0xff;
    else if (v >= -0x80) {
      buf[pos++] = 0xd0;
      buf.writeInt8(v, pos++);
    } else if (v >= -0x8000) {
      buf[pos++] = 0xd1;
      buf.writeInt16BE(v, pos);
      pos += 2;
    } else {
      buf[pos++] = 0xd2;
      buf.writeInt32BE(v, pos);
      pos += 4;
    }
    return true;
  }
  if (!Number.isFinite(v)) return false;
  room(9);
  buf[pos++] = 0xcb;
  buf.writeDoubleBE(v, pos);
  pos += 8;
  return true;
}

function writeLength(n: number, fix: number, b16: number): void {
  room(5);
  if (n < 16) buf[pos++] = fix | n;
  else if (n < 0x10000) {
    buf[pos++] = b16;
    buf.writeUInt16BE(n, pos);
    pos += 2;
  } else {
    buf[pos++] = b16 + 1;
    buf.writeUInt32BE(n, pos);
    pos += 4;
  }
}

/** False when `v` holds something this writer leaves to msgpackr. */
function write(v: unknown): boolean {
  if (typeof v === 'string') writeString(v);
  else if (v === null) {
    room(1);
    buf[pos++] = 0xc0;
  } else if (typeof v === 'number') return writeNumber(v);
  else if (typeof v === 'boolean') {
    room(1);
    buf[pos++] = v ? 0xc3 : 0xc2;
  } else if (Array.isArray(v)) {
    writeLength(v.length, 0x90, 0xdc);
    for (let i = 0; i < v.length; i++) if (!write(v[i])) return false;
  } else if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o = v as Record<string, unknown>;
    let n = 0;
    for (const _ in o) n++;
    writeLength(n, 0x80, 0xde);
    for (const k in o) {
      writeString(k);
      if (!write(o[k])) return false;
    }
  } else return false;
  return true;
}

/**
 * `value` as MessagePack, in a new buffer of its own.
 * @example wireCodec.unpack(packJson({ a: [1, 'x', null] })) // { a: [1, 'x', null] }
 */
export function packJson(value: unknown): Buffer {
  pos = 0;
  if (!write(value)) return Buffer.from(fallback.pack(value));
  // A copy with `copy` (memcpy): `Buffer.from(buffer)` copied byte by byte.
  const out = Buffer.allocUnsafe(pos);
  buf.copy(out, 0, 0, pos);
  return out;
}
