/**
 * Events: fetch (the last three months, newest first) and ingest (validated per event type, matched
 * against enrollments with every matching delivery queued in the state's outbox, then stored in the
 * snapshot). Field and event names follow the caller's version on the way out, whichever spelling was
 * ingested.
 *
 * @example
 * const report = await ingestEvents(engine, [{ event_id: 'e1', event_name: 'new_office', business_id, event_time, data }]);
 * const events = fetchEvents(engine, { version: 1, entityType: 'business', ids: [business_id], eventTypes: ['new_office'] });
 */
import type { Context } from '../runtime/context.js';
import { PROSPECT_EVENT_TYPES, type EntityType } from '../schemas/enums.js';
import {
  eventDataFor,
  eventNameFor,
  payloadSchema,
  storedEventName,
  type ApiVersion,
} from '../schemas/events.js';
import { EventRecord } from '../schemas/records.js';
import { docCodec } from '../store/codec.js';
import { recordWrite } from '../store/open.js';
import { eventStatements } from '../store/sql/events.js';

const statementsOf = eventStatements;
const stmts = (engine: Context) => statementsOf(engine.db);

// ---------------------------------------------------------------------------------------------------
// Fetch

export interface FetchEventsInput {
  version: ApiVersion;
  entityType: EntityType;
  ids: string[];
  /** Stored (v1) names. */
  eventTypes: string[];
  /** ISO datetime (UTC when it has no offset) or `YYYY-MM-DD`; null for the start of the window. */
  from?: string | null;
  /** Same forms; a bare date includes the whole day. Null for now. */
  to?: string | null;
}

export interface OutputEvent {
  event_name: string;
  event_time: string;
  event_id: string;
  data: Record<string, unknown>;
  business_id?: string;
  prospect_id?: string;
}

/** Start of the served window: three calendar months before `now`. */
export function windowStart(now: number): number {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - 3);
  return d.getTime();
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/** Milliseconds of a request timestamp; a bare date is the start (or, for `to`, the end) of that UTC day. */
export function parseTimestamp(value: string, end: boolean): number {
  if (DATE_ONLY.test(value)) return Date.parse(`${value}T00:00:00Z`) + (end ? 86_400_000 - 1 : 0);
  return Date.parse(HAS_OFFSET.test(value) ? value : `${value}Z`);
}

/** `2026-10-20T08:00:00+00:00`, the live service's spelling (milliseconds only when there are some). */
export function formatEventTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return (iso.endsWith('.000Z') ? iso.slice(0, -5) : iso.slice(0, -1)) + '+00:00';
}

/**
 * Events of the given entities and types inside the window, newest first (ties by event id). Only the
 * last three months before `engine.now()` are served; an earlier `from` is clamped, never an error.
 */
export function fetchEvents(engine: Context, input: FetchEventsInput): OutputEvent[] {
  const now = engine.now();
  const from = Math.max(windowStart(now), input.from ? parseTimestamp(input.from, false) : -Infinity);
  const to = Math.min(now, input.to ? parseTimestamp(input.to, true) : Infinity);
  if (from > to) return [];
  const types = new Set(input.eventTypes.map(storedEventName));
  const idField = input.entityType === 'business' ? 'business_id' : 'prospect_id';
  const rows: { event_id: string; event_name: string; entity_id: string; event_time: number; doc: Buffer }[] =
    [];
  const s = stmts(engine);
  for (const id of new Set(input.ids)) {
    for (const row of s.byEntity.iterate(id, input.entityType, from, to) as Iterable<(typeof rows)[number]>) {
      if (types.has(row.event_name)) rows.push(row);
    }
  }
  rows.sort(
    (a, b) => b.event_time - a.event_time || (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0),
  );
  return rows.map((r) => ({
    event_name: eventNameFor(input.version, r.event_name),
    event_time: formatEventTime(r.event_time),
    event_id: r.event_id,
    data: eventDataFor(input.version, docCodec.unpack(r.doc) as Record<string, unknown>),
    [idField]: r.entity_id,
  }));
}

// ---------------------------------------------------------------------------------------------------
// Ingest

export interface IngestIssue {
  /** Position in the input (0-based), or the line number for the CLI. */
  index: number;
  event_id: string | null;
  reason: string;
}

export interface IngestReport {
  /** Events stored by this call. */
  ingested: number;
  /** Events whose `event_id` was already stored (skipped: ingest is idempotent). */
  duplicates: number;
  /** Invalid records (skipped; with `strict`, nothing is stored). */
  rejected: IngestIssue[];
  /** Deliveries written to the outbox. */
  deliveries: number;
}

export interface IngestOptions {
  /** Refuse the whole batch when one record is invalid. Default false: store the valid ones. */
  strict?: boolean;
}

type ValidEvent = {
  event_id: string;
  event_name: string;
  entity_type: EntityType;
  entity_id: string;
  event_time: number;
  data: Record<string, unknown>;
};

const PROSPECT_NAMES: ReadonlySet<string> = new Set(PROSPECT_EVENT_TYPES);

function describe(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * Validates one event record: the record shape (`EventRecord`: id, name, entity id, time) and the `data`
 * payload of its event type. Both v1 and v2 spellings are accepted and kept as ingested.
 */
export function validateEvent(
  record: unknown,
): { ok: true; event: ValidEvent } | { ok: false; reason: string } {
  const parsed = EventRecord.safeParse(record);
  if (!parsed.success) return { ok: false, reason: describe(parsed.error.issues) };
  const e = parsed.data;
  const name = storedEventName(e.event_name);
  const payload = payloadSchema(name)?.safeParse(e.data);
  if (payload && !payload.success)
    return {
      ok: false,
      reason: describe(payload.error.issues.map((i) => ({ ...i, path: ['data', ...i.path] }))),
    };
  const inner = e.data.event_name;
  if (typeof inner === 'string' && storedEventName(inner) !== name) {
    return { ok: false, reason: `data.event_name: ${inner} does not match event_name ${e.event_name}` };
  }
  // The name decides the entity: a prospect event may also carry its company's business_id.
  const [entity_type, entity_id]: [EntityType, string] = PROSPECT_NAMES.has(name)
    ? ['prospect', (e as { prospect_id: string }).prospect_id]
    : ['business', (e as { business_id: string }).business_id];
  return {
    ok: true,
    event: {
      event_id: e.event_id,
      event_name: name,
      entity_type,
      entity_id,
      event_time: Date.parse(e.event_time),
      data: e.data,
    },
  };
}

/**
 * Stores events in the snapshot and queues, in the state, one outbox delivery per matching enrollment
 * that has a webhook. Events already stored (same `event_id`) are skipped and never delivered twice.
 *
 * The two stores cannot share a transaction, so the order makes a crash between them harmless:
 * deliveries are queued first (one state transaction, at most once per event × webhook × enrollment:
 * `ON CONFLICT DO NOTHING`), then the events are stored. A crash after the first step leaves the
 * events unknown, so ingesting them again matches them again and finds their deliveries queued: none
 * is lost, none doubled. The other order would lose them (the re-ingest would skip the stored events).
 * The same holds when two nodes ingest one event. The price: a receiver may be told of an event a
 * moment before `fetch` serves it.
 */
export async function ingestEvents(
  engine: Context,
  records: Iterable<unknown>,
  options: IngestOptions = {},
): Promise<IngestReport> {
  const report: IngestReport = { ingested: 0, duplicates: 0, rejected: [], deliveries: 0 };
  const valid: ValidEvent[] = [];
  let index = 0;
  for (const record of records) {
    const checked = validateEvent(record);
    if (checked.ok) valid.push(checked.event);
    else {
      const id = (record as { event_id?: unknown } | null)?.event_id;
      report.rejected.push({ index, event_id: typeof id === 'string' ? id : null, reason: checked.reason });
    }
    index++;
  }
  if (options.strict && report.rejected.length > 0) return report;
  if (valid.length === 0) return report;

  const s = stmts(engine);
  const now = engine.now();
  // Events this call may store: not in the snapshot yet, first of their id in the batch.
  const seen = new Set<string>();
  const fresh = valid.filter((e) => {
    if (seen.has(e.event_id) || s.known.get(e.event_id) !== undefined) return false;
    seen.add(e.event_id);
    return true;
  });

  // The webhooks slice is imported by the first ingest that stores an event (fetching never loads it).
  const { enqueueDelivery, matchEnrollments, wakeDelivery } = await import('../webhooks/index.js');
  if (fresh.length > 0) {
    await engine.state.transaction(async () => {
      for (const e of fresh) {
        for (const m of await matchEnrollments(engine, e.entity_id, e.event_name)) {
          if (m.webhook_rowid === null) continue; // a v1 enrollment before its partner webhook exists
          const queued = await enqueueDelivery(
            engine,
            m.webhook_rowid,
            m.enrollment_id,
            {
              tenant_id: m.account_id,
              partner_id: m.partner_id,
              event_id: e.event_id,
              event_name: eventNameFor(m.api_version, e.event_name),
              entity_id: e.entity_id,
              entity_type: e.entity_type,
              data: eventDataFor(m.api_version, e.data),
              enrollment_key: m.enrollment_key,
            },
            now,
          );
          if (queued) report.deliveries++;
        }
      }
    });
  }

  engine.db
    .transaction(() => {
      for (const e of valid) {
        const { changes } = s.insert.run(
          e.event_id,
          e.event_name,
          e.entity_type,
          e.entity_id,
          e.event_time,
          now,
          docCodec.pack(e.data),
        );
        if (changes === 0) report.duplicates++;
        else report.ingested++;
      }
      if (report.ingested > 0) recordWrite(engine.db, { entities: false });
    })
    .immediate();
  // Only the indexes built from events are dropped: the entities' (search, match, completion) stay.
  if (report.ingested > 0) engine.invalidate('data');
  if (report.deliveries > 0) wakeDelivery(engine);
  return report;
}
