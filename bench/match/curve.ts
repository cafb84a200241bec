/**
 * Our precision/recall curve over `min_confidence` beside the points of simple peers measured in the same
 * run (a top-1 retriever is one point; a similarity threshold is a curve of points), as markdown tables,
 * a dominance verdict per real set, and a chart (precision against recall) for `docs/bench/`.
 */
import { lineChart, type Series } from '../../tools/bench/svg.js';

export interface PR {
  precision: number;
  recall: number;
}

export interface PeerPoint extends PR {
  /** The peer ("FlexSearch top-1"); points of one peer make one line of the chart. */
  peer: string;
  /** Its setting ("top-1", "≥ 0.9"). */
  label: string;
}

export interface CurveSet {
  label: string;
  rows: number;
  /** Our decisions without `min_confidence`. */
  default: PR;
  ours: (PR & { threshold: number })[];
  peers: PeerPoint[];
  reliability?: { from: number; guesses: number; right: number }[];
}

/** Our point (a threshold, or the default) with at least the peer's precision and recall, or null. */
export function dominating(set: CurveSet, p: PR): string | null {
  const eps = 1e-9;
  if (set.default.precision + eps >= p.precision && set.default.recall + eps >= p.recall) return 'default';
  for (const o of set.ours)
    if (o.precision + eps >= p.precision && o.recall + eps >= p.recall) return String(o.threshold);
  return null;
}

const f3 = (x: number) => x.toFixed(3);

/** Prints each set's curve, peers and verdict; returns the chart of the last set (all rows). */
export function curveSection(log: (s: string) => void, entity: string, sets: readonly CurveSet[]): string {
  for (const set of sets) {
    log(`\n## Curve beside peers: ${set.label} (${set.rows} rows)\n`);
    log('| min_confidence | P | R |\n|---|---|---|');
    log(`| absent (default) | ${f3(set.default.precision)} | ${f3(set.default.recall)} |`);
    for (const o of set.ours) log(`| ${o.threshold} | ${f3(o.precision)} | ${f3(o.recall)} |`);
    log('\n| peer | setting | P | R | our point with ≥ P and ≥ R |\n|---|---|---|---|---|');
    let beaten = 0;
    for (const p of set.peers) {
      const by = dominating(set, p);
      if (by === null) beaten++;
      log(`| ${p.peer} | ${p.label} | ${f3(p.precision)} | ${f3(p.recall)} | ${by ?? '**none**'} |`);
    }
    log(
      `\nour curve dominates every peer point: ${beaten === 0 ? 'yes' : `no (${beaten} of ${set.peers.length} points not dominated)`}`,
    );
    if (set.reliability !== undefined && set.reliability.length > 0) {
      log('\n| confidence | guesses | right |\n|---|---|---|');
      for (const r of set.reliability)
        log(`| ${r.from.toFixed(1)}–${(r.from + 0.1).toFixed(1)} | ${r.guesses} | ${f3(r.right)} |`);
    }
  }
  const last = sets[sets.length - 1] as CurveSet;
  const byPeer = new Map<string, PeerPoint[]>();
  for (const p of last.peers) byPeer.set(p.peer, [...(byPeer.get(p.peer) ?? []), p]);
  const series: Series[] = [
    {
      name: 'prospectdb (min_confidence)',
      points: [...last.ours].sort((a, b) => a.recall - b.recall).map((o) => [o.recall, o.precision] as const),
    },
    ...[...byPeer].map(([peer, points]) => ({
      name: peer,
      dashed: true,
      points: [...points].sort((a, b) => a.recall - b.recall).map((p) => [p.recall, p.precision] as const),
    })),
  ];
  return lineChart({
    title: `${entity}: precision vs recall, ${last.label} (${last.rows} rows)`,
    xLabel: 'recall',
    yLabel: 'precision',
    yRange: [Math.min(0.5, ...last.peers.map((p) => p.precision)), 1],
    series: series.slice(0, 6),
    width: 640,
    height: 380,
  });
}
