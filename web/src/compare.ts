// Pure helpers of the compare mode (docs/compare.md, "In the workbench"):
// two runs on one time axis aligned at their starts, as the differential
// overview aligns them, and the parts of differential_overview() as the
// strip draws them. Unit-tested; no DOM.

import { columnIndex, type QueryResult } from './query';

/** What the alignment needs of a run: its start (model time) and the seconds of one of its ticks. */
export interface RunClock { start: number; secondsPerTick: number }

/** A run's model time as seconds from its start (the aligned axis). */
export function alignedSeconds(run: RunClock, t: number): number { return (t - run.start) * run.secondsPerTick; }

/** Seconds of the aligned axis as a run's model time. */
export function runTime(run: RunClock, seconds: number): number { return run.start + seconds / run.secondsPerTick; }

/** A window of run `from` (model times) as the same aligned window of run `to`. */
export function alignedWindow(from: RunClock, to: RunClock, [a, b]: [number, number]): [number, number] {
  return [runTime(to, alignedSeconds(from, a)), runTime(to, alignedSeconds(from, b))];
}

/** A type whose share of a part changed from A to B. */
export interface ShareChange { type: string; a: number; b: number; change: number }

/** A part of the differential overview: its interval (seconds from the aligned start) and how the runs differ there. */
export interface DiffPart {
  part: number; rank: number; start: number; end: number;
  /** |B − A| per second of the part, and each run's total per second. */
  rate: number; aRate: number; bRate: number;
  types: ShareChange[];
}

/** The rows of differential_overview() (several per part: one per type) as parts, in time order. */
export function diffParts(result: QueryResult): DiffPart[] {
  const at = (name: string) => columnIndex(result.columns, name);
  const [part, rank, start, end, rate, aRate, bRate, type, aShare, bShare, change] =
    ['part', 'rank', 'start', 'end', 'difference_rate', 'a_rate', 'b_rate', 'type', 'a_share', 'b_share', 'share_change'].map(at);
  const parts = new Map<number, DiffPart>();
  for (const row of result.rows) {
    const id = Number(row[part]);
    let p = parts.get(id);
    if (!p) {
      p = {
        part: id, rank: Number(row[rank]), start: Number(row[start]), end: Number(row[end]),
        rate: Number(row[rate]), aRate: Number(row[aRate]), bRate: Number(row[bRate]), types: [],
      };
      parts.set(id, p);
    }
    if (row[type] !== null) p.types.push({ type: String(row[type]), a: Number(row[aShare]), b: Number(row[bShare]), change: Number(row[change]) });
  }
  return [...parts.values()].sort((x, y) => x.start - y.start || x.part - y.part);
}

/** What the differential overview's partition states: its p, its parts, its gain and loss as shares of one part's. */
export interface PartitionFacts { p: number; parts: number; gain: number; loss: number }

/** The facts every row of differential_overview() repeats; null without rows. */
export function partitionFacts(result: QueryResult): PartitionFacts | null {
  if (result.rows.length === 0) return null;
  const at = (name: string) => columnIndex(result.columns, name);
  const first = result.rows[0];
  return {
    p: Number(first[at('p')]), parts: new Set(result.rows.map((r) => r[at('part')])).size,
    gain: Number(first[at('gain')]), loss: Number(first[at('loss')]),
  };
}

/** "p = 0.0377 · 6 parts · gain 99.7 %, loss 8.25 %" (shares of one part's over the span). */
export function factsText(f: PartitionFacts): string {
  const percent = (x: number) => `${Number((100 * x).toPrecision(3))} %`;
  return `p = ${Number(f.p.toPrecision(4))} · ${f.parts} part${f.parts === 1 ? '' : 's'} · gain ${percent(f.gain)}, loss ${percent(f.loss)}`;
}

/** A part's intensity in [0, 1]: its difference rate against the largest. */
export function partIntensity(part: DiffPart, parts: DiffPart[]): number {
  const most = Math.max(0, ...parts.map((p) => p.rate));
  return most > 0 ? part.rate / most : 0;
}
