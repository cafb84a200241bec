/**
 * Credit usage aggregation (`POST /v{1,2}/credits/aggregation`, docs/spec/api-reference.md §11.3): charges of
 * the ledger bucketed by hour, day or month in an IANA time zone (`timely`), or grouped by endpoint
 * (`endpoints`). Buckets are dense: a period without usage is a bucket with `credits: 0`.
 */
import { z } from 'zod';
import { anyCase, FreeObject, LIMITS } from '../schemas/bounds.js';
import type { Context } from '../runtime/context.js';
import { ACCOUNT_SQL as SQL } from '../store/sql/accounts.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Longest range per resolution (docs: hour ≤ 7 days, day ≤ 60 days, month ≤ 2 years). */
export const RANGE_LIMITS = { hour: 7 * DAY, day: 60 * DAY, month: 731 * DAY } as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

interface Parsed {
  ms: number;
  dateOnly: boolean;
}

/** Cache (module-level on purpose: engine-independent): one date formatter per time zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

interface Wall {
  y: number;
  m: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

function wallOf(tz: string, ms: number): Wall {
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(ms)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { y: p.year!, m: p.month!, d: p.day!, h: p.hour! % 24, mi: p.minute!, s: p.second! };
}

/** Offset of `tz` from UTC at instant `ms`, in milliseconds. */
function offsetAt(tz: string, ms: number): number {
  const w = wallOf(tz, ms);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s) - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant of a wall-clock time in `tz` (the earlier one when a DST change repeats it). */
function wallToUtc(tz: string, y: number, m: number, d: number, h = 0, mi = 0, s = 0): number {
  const guess = Date.UTC(y, m - 1, d, h, mi, s);
  const first = guess - offsetAt(tz, guess);
  const second = guess - offsetAt(tz, first);
  return Math.min(first, second);
}

function parseDate(text: string, tz: string): Parsed | null {
  const m = DATE_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const nums = [y, mo, d, h ?? '0', mi ?? '0', s ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [Y, M, D, H, MI, S] = nums;
  if (M < 1 || M > 12 || D < 1 || D > 31 || H > 23 || MI > 59 || S > 59) return null;
  const probe = new Date(Date.UTC(Y, M - 1, D));
  if (probe.getUTCMonth() !== M - 1) return null;
  const fracMs = frac ? Math.round(Number(frac) * 1000) : 0;
  let ms: number;
  if (zone) {
    const offset =
      zone === 'Z'
        ? 0
        : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
    ms = Date.UTC(Y, M - 1, D, H, MI, S) + fracMs - offset * 60_000;
  } else {
    ms = wallToUtc(tz, Y, M, D, H, MI, S) + fracMs;
  }
  return { ms, dateOnly: h === undefined };
}

const RequestContext = FreeObject.nullish();

/**
 * `CreditAggregationRequest` (additionalProperties false), plus the range rules of the docs. The docs' own
 * examples omit `mode` (docs/spec/api-reference.md §11.3): with a `resolution` it is read as `timely`; with
 * neither, `mode` is missing (422). Enumerations are read in any case.
 */
export const CreditAggregationRequest = z
  .strictObject({
    request_context: RequestContext,
    from_date: z.string().max(LIMITS.code),
    to_date: z.string().max(LIMITS.code),
    mode: anyCase(['timely', 'endpoints']).nullish(),
    resolution: anyCase(['hour', 'day', 'month']).nullish(),
    timezone: z.string().max(LIMITS.code).default('UTC'),
    key_name: z.string().max(LIMITS.id).nullish(),
  })
  .transform((req) => ({ ...req, mode: req.mode ?? (req.resolution ? ('timely' as const) : undefined) }))
  .superRefine((req, ctx) => {
    if (req.mode === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['mode'],
        message: 'field required',
        params: { type: 'value_error.missing' },
      });
    }
    const tzOk = isTimeZone(req.timezone);
    if (!tzOk) {
      ctx.addIssue({
        code: 'custom',
        path: ['timezone'],
        message: `unknown time zone '${req.timezone}'`,
        params: { type: 'value_error.timezone' },
      });
    }
    const tz = tzOk ? req.timezone : 'UTC';
    const from = parseDate(req.from_date, tz);
    const to = parseDate(req.to_date, tz);
    for (const [field, v] of [
      ['from_date', from],
      ['to_date', to],
    ] as const) {
      if (!v)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'invalid datetime format',
          params: { type: 'value_error.datetime' },
        });
    }
    if (req.mode === 'timely' && !req.resolution) {
      ctx.addIssue({
        code: 'custom',
        path: ['resolution'],
        message: 'field required',
        params: { type: 'value_error.missing' },
      });
    }
    if (!from || !to || !tzOk) return;
    const end = to.dateOnly ? nextDay(tz, to.ms) : to.ms;
    if (from.ms >= end) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'from_date must be before to_date',
        params: { type: 'value_error.date_range' },
      });
      return;
    }
    if (req.resolution && end - from.ms > RANGE_LIMITS[req.resolution]) {
      const words = { hour: '7 days', day: '60 days', month: '2 years' } as const;
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `the range of a ${req.resolution} aggregation is at most ${words[req.resolution]}`,
        params: { type: 'value_error.date_range', ctx: { limit_value: words[req.resolution] } },
      });
    }
  })
  .transform((req) => ({ ...req, mode: req.mode! }));
export type CreditAggregationRequest = z.output<typeof CreditAggregationRequest>;

function nextDay(tz: string, ms: number): number {
  const w = wallOf(tz, ms);
  const n = new Date(Date.UTC(w.y, w.m - 1, w.d + 1));
  return wallToUtc(tz, n.getUTCFullYear(), n.getUTCMonth() + 1, n.getUTCDate());
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function isoLocal(tz: string, ms: number): string {
  const w = wallOf(tz, ms);
  const off = Math.round(offsetAt(tz, ms) / 60_000);
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  return `${w.y}-${pad(w.m)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}:${pad(w.s)}${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

interface Bucket {
  start: number;
  item: Record<string, unknown>;
}

function buckets(tz: string, resolution: 'hour' | 'day' | 'month', from: number, to: number): Bucket[] {
  const out: Bucket[] = [];
  const w = wallOf(tz, from);
  if (resolution === 'hour') {
    for (let t = wallToUtc(tz, w.y, w.m, w.d, w.h); t < to; t += HOUR) {
      const l = wallOf(tz, t);
      out.push({
        start: t,
        item: { timestamp: isoLocal(tz, t), date: `${l.y}-${pad(l.m)}-${pad(l.d)}`, hour: `${pad(l.h)}:00` },
      });
    }
  } else if (resolution === 'day') {
    for (let i = 0; ; i++) {
      const day = new Date(Date.UTC(w.y, w.m - 1, w.d + i));
      const t = wallToUtc(tz, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate());
      if (t >= to) break;
      const dow = day.getUTCDay();
      out.push({
        start: t,
        item: {
          timestamp: isoLocal(tz, t),
          date: day.toISOString().slice(0, 10),
          day_name: DAY_NAMES[dow],
          day_of_week: dow,
        },
      });
    }
  } else {
    for (let i = 0; ; i++) {
      const month = new Date(Date.UTC(w.y, w.m - 1 + i, 1));
      const y = month.getUTCFullYear();
      const m = month.getUTCMonth() + 1;
      const t = wallToUtc(tz, y, m, 1);
      if (t >= to) break;
      const name = MONTH_NAMES[m - 1]!;
      out.push({
        start: t,
        item: {
          timestamp: isoLocal(tz, t),
          year: y,
          month: m,
          month_name: name,
          month_abbr: name.slice(0, 3).toUpperCase(),
        },
      });
    }
  }
  return out;
}

interface ChargeRow {
  at: number;
  credits: number;
  endpoint: string | null;
  operation: string | null;
  units: number | null;
  key_name: string | null;
}

/** The aggregation response body (without `response_context`). */
export async function aggregateCredits(engine: Context, accountId: string, req: CreditAggregationRequest) {
  const tz = req.timezone;
  const from = parseDate(req.from_date, tz)!;
  const toParsed = parseDate(req.to_date, tz)!;
  const to = toParsed.dateOnly ? nextDay(tz, toParsed.ms) : toParsed.ms;
  let rows = await engine.state.all<ChargeRow>(SQL.chargesBetween, [accountId, from.ms, to]);
  if (req.key_name) rows = rows.filter((r) => r.key_name === req.key_name);
  const total = rows.reduce((n, r) => n + r.credits, 0);
  const head = {
    from_date: req.from_date,
    to_date: req.to_date,
    mode: req.mode,
    ...(req.resolution ? { resolution: req.resolution } : {}),
    timezone: tz,
    total_credits: total,
  };
  if (req.mode === 'endpoints') {
    const byEndpoint = new Map<string, { endpoint: string; credits: number; results: number }>();
    for (const r of rows) {
      const key = r.endpoint ?? '(library)';
      const e = byEndpoint.get(key) ?? { endpoint: key, credits: 0, results: 0 };
      e.credits += r.credits;
      e.results += r.units ?? 0;
      byEndpoint.set(key, e);
    }
    const aggregations = [...byEndpoint.values()].sort(
      (a, b) => b.credits - a.credits || a.endpoint.localeCompare(b.endpoint),
    );
    return { ...head, aggregations };
  }
  const list = buckets(tz, req.resolution!, from.ms, to);
  const credits = new Array<number>(list.length).fill(0);
  let i = 0;
  for (const r of rows) {
    while (i + 1 < list.length && list[i + 1]!.start <= r.at) i++;
    // rows are in ledger order, which is time order for one engine clock; fall back to a search otherwise
    let j = i;
    if (list[j] && list[j]!.start > r.at) j = list.findLastIndex((b) => b.start <= r.at);
    if (j >= 0 && list[j]) credits[j]! += r.credits;
  }
  const aggregations = list.map((b, k) => ({ ...b.item, credits: credits[k]! }));
  return { ...head, aggregations };
}
