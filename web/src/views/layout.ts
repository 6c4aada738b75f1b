// Pure drawing helpers shared by the views (and unit-tested): axis ticks,
// the visual aggregation of a stacked column, and small geometry.

import type { Axis, TimeDisplay } from '../time';

export interface Scale { start: number; end: number; x0: number; width: number }

export function toX(s: Scale, t: number): number { return s.x0 + ((t - s.start) / (s.end - s.start)) * s.width; }
export function toTime(s: Scale, x: number): number { return s.start + ((x - s.x0) / s.width) * (s.end - s.start); }

/** Tick positions at 1, 2 or 5 × 10^k spaced at least minSpacing pixels apart (for numbers that are not times). */
export function niceTicks(start: number, end: number, pixels: number, minSpacing = 80): { step: number; ticks: number[] } {
  const span = end - start;
  if (!(span > 0) || pixels <= 0) return { step: 0, ticks: [] };
  const raw = (span * minSpacing) / pixels;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((v) => v >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  // k × step, not a running sum: no drift in long axes.
  for (let k = Math.ceil(start / step - 1e-9); k * step <= end + step * 1e-9; k++) ticks.push(k === 0 ? 0 : k * step);
  return { step, ticks };
}

/** A number on an axis with as many decimals as the tick step needs. */
export function formatTick(v: number, step: number): string {
  const decimals = step > 0 ? Math.max(0, Math.min(9, -Math.floor(Math.log10(step)))) : 6;
  return Number(v.toFixed(decimals)).toLocaleString('en-US', { maximumFractionDigits: decimals });
}

/**
 * The time axis of `display` over [t0, t1] on `pixels`, its labels never
 * overlapping: the spacing grows until the widest label (by `measure`) fits.
 */
export function fitAxis(display: TimeDisplay, t0: number, t1: number, pixels: number, measure: (text: string) => number, gap = 16): Axis {
  let spacing = 70;
  let axis = display.axis(t0, t1, pixels, spacing);
  for (let i = 0; i < 4 && axis.ticks.length > 1; i++) {
    const widest = Math.max(...axis.ticks.map((tick) => measure(tick.label)));
    const apart = ((axis.ticks[1].t - axis.ticks[0].t) / (t1 - t0)) * pixels;
    if (widest + gap <= apart) break;
    spacing = Math.max(spacing * 1.5, widest + gap);
    axis = display.axis(t0, t1, pixels, spacing);
  }
  return axis;
}

/** Up to 6 significant digits, without trailing zeros. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && (Math.abs(v) >= 1e7 || Math.abs(v) < 1e-4)) return v.toExponential(3);
  return String(Number(v.toPrecision(6)));
}

export interface StackSegment { index: number; y: number; height: number }
export interface StackedColumn {
  segments: StackSegment[];
  /** Types too thin to draw, merged into one block on top… */
  merged: { indices: number[]; y: number; height: number } | null;
  /** …or, when even the merge is under minPx, a dotted mark. */
  dotted: boolean;
}

/**
 * Visual aggregation of one stacked column: heights[i] in pixels, stacked
 * from `bottom` upwards. Types under minPx are not drawn on their own but
 * merged on top, so the picture never suggests they are absent.
 */
export function stackColumn(heights: number[], bottom: number, minPx: number): StackedColumn {
  const segments: StackSegment[] = [];
  const small: number[] = [];
  let y = bottom;
  let smallHeight = 0;
  heights.forEach((h, index) => {
    if (!(h > 0)) return;
    if (h < minPx) { small.push(index); smallHeight += h; return; }
    y -= h;
    segments.push({ index, y, height: h });
  });
  if (small.length === 0) return { segments, merged: null, dotted: false };
  if (smallHeight < minPx) return { segments, merged: { indices: small, y: y - minPx, height: minPx }, dotted: true };
  return { segments, merged: { indices: small, y: y - smallHeight, height: smallHeight }, dotted: false };
}

/** The p to ask for so that the plist entry k is selected: strictly inside
 * its range [p_k, p_{k+1}) (at the breakpoint the tie rule may pick the
 * neighbour), see docs/aggregate.md. */
export function pInside(ps: number[], k: number): number {
  const lo = ps[k];
  const hi = k + 1 < ps.length ? ps[k + 1] : 1;
  return hi > lo ? lo + (hi - lo) / 2 : lo;
}

/** Index of the plist entry whose range holds p. */
export function entryAt(ps: number[], p: number): number {
  let k = 0;
  while (k + 1 < ps.length && ps[k + 1] <= p) k++;
  return k;
}

/** Groups rectangles by fill colour so a frame issues one fill per colour,
 * which is what keeps 10^5 rectangles cheap on a canvas. */
export class RectBatch {
  private byColor = new Map<string, number[]>();
  add(color: string, x: number, y: number, w: number, h: number): void {
    let list = this.byColor.get(color);
    if (!list) { list = []; this.byColor.set(color, list); }
    list.push(x, y, w, h);
  }
  get size(): number { let n = 0; for (const l of this.byColor.values()) n += l.length / 4; return n; }
  fill(ctx: CanvasRenderingContext2D): void {
    for (const [color, r] of this.byColor) {
      ctx.fillStyle = color;
      ctx.beginPath();
      for (let i = 0; i < r.length; i += 4) ctx.rect(r[i], r[i + 1], r[i + 2], r[i + 3]);
      ctx.fill();
    }
  }
}

/** The knee of the quality curves, as `macroscope overview` picks its
 * default p: the entry whose normalised gain exceeds its normalised loss
 * the most (both run from 0 for the finest partition to 1 for the full
 * aggregate). */
export function kneeIndex(entries: { gain: number; loss: number }[]): number {
  const last = entries[entries.length - 1];
  if (!last) return 0;
  const g = last.gain || 1;
  const l = last.loss || 1;
  let best = 0;
  entries.forEach((e, k) => { if (e.gain / g - e.loss / l > entries[best].gain / g - entries[best].loss / l) best = k; });
  return best;
}
