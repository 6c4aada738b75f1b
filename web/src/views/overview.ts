// The overview: the optimal partition of the aggregate endpoint drawn as
// temporal partition / stacked / mode views, or as the spatiotemporal view
// (hierarchy × time). Types or parts too small to draw are never dropped:
// they are merged into a marked block whose tooltip lists them (visual
// aggregation, spec/aggregation.md).

import type { Aggregate, HierarchyNode, Part } from '../api';
import { PART_PALETTE, withAlpha } from '../colors';
import type { Mode, OverviewView } from '../state/url';
import { fitCanvas, hatch, onDrag } from './canvas';
import type { TimeDisplay } from '../time';
import { fitAxis, formatNumber, niceTicks, stackColumn, toTime, toX, type Scale } from './layout';
import { hideTooltip, showTooltip, type TipLine } from './tooltip';

/** Under this many pixels a type's band, or a part's height, is merged. */
const MIN_PX = 2;
const MERGED_COLOR = '#1b1b1b';

export interface OverviewInput {
  agg: Aggregate;
  view: OverviewView;
  mode: Mode;
  /** The model's metric: state-time values are lengths of time. */
  metric: string;
  /** The colour and the display name of a model type. */
  colorOf(modelType: string): string;
}

interface Region {
  x: number; y: number; w: number; h: number;
  part: number;
  /** Types merged by the visual aggregation, by index in agg.types. */
  hiddenTypes?: number[];
  /** Parts merged because they were too thin, by index in agg.parts. */
  hiddenParts?: number[];
}

export interface OverviewEvents {
  /** A slice-snapped time range chosen by dragging (data zoom). */
  select(start: number, end: number): void;
}

export class Overview {
  private input: OverviewInput | null = null;
  private regions: Region[] = [];
  private scale: Scale = { start: 0, end: 1, x0: 0, width: 1 };
  private drag: [number, number] | null = null;
  /** What the test hook reports: rectangles drawn, marks of merged data, the time axis's labels. */
  drawn = { parts: 0, merged: 0, ticks: [] as string[] };

  /** Centres (canvas pixels) of the first merged marks and what they hide, for the test hook. */
  mergedMarks(limit = 5): { x: number; y: number; hidden: string[] }[] {
    const agg = this.input?.agg;
    if (!agg) return [];
    return this.regions.filter((r) => r.hiddenTypes || r.hiddenParts).slice(0, limit).map((r) => ({
      x: r.x + r.w / 2, y: r.y + r.h / 2,
      hidden: r.hiddenTypes ? r.hiddenTypes.map((k) => agg.types[k]) : r.hiddenParts!.map((j) => agg.parts[j].node),
    }));
  }

  constructor(private readonly canvas: HTMLCanvasElement, private readonly time: TimeDisplay, private readonly events: OverviewEvents) {
    canvas.addEventListener('pointermove', (e) => this.hover(e));
    canvas.addEventListener('pointerleave', () => hideTooltip());
    onDrag(canvas, {
      start: (x) => {
        if (x < this.scale.x0 || this.input === null) return false;
        this.anchor = this.snap(toTime(this.scale, x));
        return true;
      },
      move: (x) => { this.drag = [this.anchor, this.snap(toTime(this.scale, x))]; this.render(); },
      end: (x, y, moved) => {
        const d = this.drag;
        this.drag = null;
        this.render();
        if (moved && d) {
          const [a, b] = d[0] < d[1] ? d : [d[1], d[0]];
          if (b > a) this.events.select(a, b);
        } else if (!moved) {
          // A merged mark opens onto its interval, where there is room to draw what it hides.
          const hit = this.regionAt(x, y);
          if (hit && (hit.hiddenParts || hit.hiddenTypes)) {
            const parts = (hit.hiddenParts ?? [hit.part]).map((j) => this.input!.agg.parts[j]);
            this.events.select(this.sliceTime(Math.min(...parts.map((p) => p.start_slice))),
              this.sliceTime(Math.max(...parts.map((p) => p.end_slice)) + 1));
          }
        }
      },
    });
  }

  private anchor = 0;

  /** Selections snap to slice boundaries: the aggregate is exact there. */
  private snap(t: number): number {
    const agg = this.input?.agg;
    if (!agg?.range) return t;
    const [b, e] = agg.range;
    const d = (e - b) / agg.slices;
    return Math.min(e, Math.max(b, b + Math.round((t - b) / d) * d));
  }

  set(input: OverviewInput): void { this.input = input; this.render(); }

  private sliceTime(i: number): number {
    const [b, e] = this.input!.agg.range ?? [0, this.input!.agg.slices];
    return b + ((e - b) * i) / this.input!.agg.slices;
  }

  render(): void {
    const ctx = fitCanvas(this.canvas);
    this.regions = [];
    this.drawn = { parts: 0, merged: 0, ticks: [] };
    const input = this.input;
    if (!input) return;
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    const spatial = input.mode === 'spatiotemporal';
    const x0 = spatial ? 150 : 56;
    const top = 8;
    const bottom = height - 22;
    const [b, e] = input.agg.range ?? [0, input.agg.slices];
    this.scale = { start: b, end: e, x0, width: width - x0 - 10 };
    if (spatial) this.drawSpatial(ctx, input, top, bottom);
    else this.drawTemporal(ctx, input, top, bottom);
    this.drawAxis(ctx, bottom);
    if (this.drag) {
      const xa = toX(this.scale, this.drag[0]);
      const xb = toX(this.scale, this.drag[1]);
      ctx.fillStyle = 'rgba(40, 90, 200, 0.18)';
      ctx.fillRect(Math.min(xa, xb), top, Math.abs(xb - xa), bottom - top);
      ctx.strokeStyle = '#2856c8';
      ctx.strokeRect(Math.min(xa, xb) + 0.5, top + 0.5, Math.abs(xb - xa), bottom - top - 1);
    }
  }

  private partX(part: Part): [number, number] {
    const xa = toX(this.scale, this.sliceTime(part.start_slice));
    const xb = toX(this.scale, this.sliceTime(part.end_slice + 1));
    return [xa, xb - xa];
  }

  private drawTemporal(ctx: CanvasRenderingContext2D, input: OverviewInput, top: number, bottom: number): void {
    const { agg, view } = input;
    const stripH = view === 'partition' ? 0 : 10;
    const plotTop = top + stripH + (stripH ? 4 : 0);
    // Stacked heights are values per slice, so parts of different lengths compare.
    const perSlice = agg.parts.map((p) => p.values.map((v) => v / (p.end_slice - p.start_slice + 1)));
    const totals = perSlice.map((vs) => vs.reduce((a, v) => a + v, 0));
    const max = Math.max(1e-300, ...totals);
    const plotH = bottom - plotTop;
    agg.parts.forEach((part, i) => {
      const [x, w] = this.partX(part);
      this.drawn.parts++;
      if (stripH) {
        ctx.fillStyle = PART_PALETTE[i % PART_PALETTE.length];
        ctx.fillRect(x, top, Math.max(1, w - 1), stripH);
      }
      if (view === 'partition') {
        ctx.fillStyle = PART_PALETTE[i % PART_PALETTE.length];
        ctx.fillRect(x, plotTop, Math.max(1, w - 1), plotH);
        this.regions.push({ x, y: plotTop, w, h: plotH, part: i });
        return;
      }
      if (view === 'mode') {
        const k = dominant(part.values);
        const amplitude = totals[i] / max;
        if (k >= 0) {
          ctx.fillStyle = withAlpha(input.colorOf(agg.types[k]), 0.15 + 0.85 * amplitude);
          ctx.fillRect(x, plotTop, Math.max(1, w - 1), plotH);
        }
        this.regions.push({ x, y: plotTop, w, h: plotH, part: i });
        return;
      }
      const column = stackColumn(perSlice[i].map((v) => (v / max) * plotH), bottom, MIN_PX);
      for (const s of column.segments) {
        ctx.fillStyle = input.colorOf(agg.types[s.index]);
        ctx.fillRect(x, s.y, Math.max(1, w - 1), s.height);
      }
      this.regions.push({ x, y: plotTop, w, h: plotH, part: i });
      if (column.merged) {
        this.drawn.merged++;
        const m = column.merged;
        if (column.dotted) {
          ctx.strokeStyle = MERGED_COLOR;
          ctx.setLineDash([2, 2]);
          ctx.beginPath();
          ctx.moveTo(x, m.y + m.height / 2);
          ctx.lineTo(x + w - 1, m.y + m.height / 2);
          ctx.stroke();
          ctx.setLineDash([]);
        } else {
          ctx.fillStyle = MERGED_COLOR;
          ctx.fillRect(x, m.y, Math.max(1, w - 1), m.height);
        }
        // A generous target: a 2-pixel band is hard to hover.
        this.regions.push({ x, y: m.y - 3, w, h: m.height + 6, part: i, hiddenTypes: m.indices });
      }
    });
    // Values per unit of time on the left axis: state time per time is a
    // plain ratio (states at once); counts are per second of the trace.
    const [b, e] = agg.range ?? [0, agg.slices];
    const perSecond = agg.range !== null && input.metric !== 'state-time';
    const unit = perSecond ? this.time.clock.seconds((e - b) / agg.slices) : (e - b) / agg.slices;
    ctx.fillStyle = '#555';
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'right';
    if (view === 'stacked') {
      const top = max / unit;
      for (const v of niceTicks(0, top, plotH, 28).ticks) {
        const y = Math.round(bottom - (v / top) * plotH);
        ctx.fillText(formatNumber(v), this.scale.x0 - 6, y + 3);
        ctx.fillRect(this.scale.x0 - 4, y, 3, 1);
      }
      ctx.save();
      ctx.translate(11, plotTop + plotH / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'center';
      ctx.fillText(perSecond ? 'per second' : 'per unit of time', 0, 0);
      ctx.restore();
    }
  }

  private drawSpatial(ctx: CanvasRenderingContext2D, input: OverviewInput, top: number, bottom: number): void {
    const { agg, view } = input;
    const nodes = agg.nodes;
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const root = nodes.find((n) => n.parent < 0) ?? nodes[0];
    const leaves = Math.max(1, root?.leaves[1] ?? 1);
    const leafH = (bottom - top) / leaves;
    const nodeY = (n: HierarchyNode): [number, number] => [top + n.leaves[0] * leafH, n.leaves[1] * leafH];
    this.drawHierarchy(ctx, nodes, byId, nodeY);
    // Amplitude: value per leaf and per slice, relative to the largest part.
    const density = agg.parts.map((p) => {
      const n = byId.get(p.node_id);
      const cells = (n?.leaves[1] ?? 1) * (p.end_slice - p.start_slice + 1);
      return p.values.reduce((a, v) => a + v, 0) / cells;
    });
    const max = Math.max(1e-300, ...density);
    // Thin parts are drawn merged, per time interval, over the leaves of the
    // first ancestor tall enough to be seen, hatched.
    const thin = new Map<string, { node: HierarchyNode; parts: number[]; s0: number; s1: number }>();
    agg.parts.forEach((part, i) => {
      const node = byId.get(part.node_id);
      if (!node) return;
      const [x, w] = this.partX(part);
      const [y, h] = nodeY(node);
      this.drawn.parts++;
      if (h < MIN_PX) {
        let anchor = node;
        while (anchor.leaves[1] * leafH < MIN_PX * 2 && byId.has(anchor.parent)) anchor = byId.get(anchor.parent)!;
        const key = `${anchor.id}:${part.start_slice}:${part.end_slice}`;
        const group = thin.get(key) ?? { node: anchor, parts: [], s0: part.start_slice, s1: part.end_slice };
        group.parts.push(i);
        thin.set(key, group);
        return;
      }
      const k = dominant(part.values);
      if (view === 'partition') ctx.fillStyle = PART_PALETTE[i % PART_PALETTE.length];
      else if (view === 'mode') ctx.fillStyle = k >= 0 ? withAlpha(input.colorOf(agg.types[k]), 0.15 + 0.85 * density[i] / max) : '#fff';
      else ctx.fillStyle = withAlpha('#203a74', 0.08 + 0.92 * density[i] / max);
      ctx.fillRect(x, y, Math.max(1, w - 1), Math.max(1, h - 1));
      this.regions.push({ x, y, w, h, part: i });
    });
    for (const group of thin.values()) {
      this.drawn.merged++;
      const [y, h] = nodeY(group.node);
      const xa = toX(this.scale, this.sliceTime(group.s0));
      const xb = toX(this.scale, this.sliceTime(group.s1 + 1));
      ctx.fillStyle = hatch(ctx, MERGED_COLOR);
      ctx.fillRect(xa, y, xb - xa - 1, h - 1);
      this.regions.push({ x: xa, y, w: xb - xa, h, part: group.parts[0], hiddenParts: group.parts });
    }
  }

  /** The hierarchy axis: one bar per inner node along its leaves (its name
   * written along the bar when it fits), leaf names beside the plot. */
  private drawHierarchy(ctx: CanvasRenderingContext2D, nodes: HierarchyNode[], byId: Map<number, HierarchyNode>,
                        nodeY: (n: HierarchyNode) => [number, number]): void {
    const depth = (n: HierarchyNode): number => { let d = 0; let c = n; while (byId.has(c.parent)) { c = byId.get(c.parent)!; d++; } return d; };
    const depths = nodes.map(depth);
    const inner = new Set(nodes.map((n) => n.parent));
    const maxInner = Math.max(0, ...nodes.map((n, i) => (inner.has(n.id) ? depths[i] : 0)));
    const leafX = 6 + maxInner * 14;
    ctx.font = '10px system-ui, sans-serif';
    nodes.forEach((n, i) => {
      const d = depths[i];
      if (d === 0) return;
      const [y, h] = nodeY(n);
      if (inner.has(n.id)) {
        const x = 4 + (d - 1) * 14;
        ctx.fillStyle = '#c9ced8';
        ctx.fillRect(x, y + 1, 2, Math.max(1, h - 2));
        const label = n.name;
        if (h - 4 >= ctx.measureText(label).width) {
          ctx.save();
          ctx.translate(x + 11, y + h / 2);
          ctx.rotate(-Math.PI / 2);
          ctx.textAlign = 'center';
          ctx.fillStyle = '#5b6270';
          ctx.fillText(label, 0, 0);
          ctx.restore();
        }
      } else if (h >= 9) {
        ctx.textAlign = 'left';
        ctx.fillStyle = '#333';
        ctx.fillText(n.name, leafX, y + h / 2 + 3.5, this.scale.x0 - leafX - 6);
      }
    });
  }

  private drawAxis(ctx: CanvasRenderingContext2D, bottom: number): void {
    ctx.fillStyle = '#888';
    ctx.fillRect(this.scale.x0, bottom, this.scale.width, 1);
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'center';
    // A model from CSV has no time range: its axis counts slices.
    const agg = this.input?.agg;
    const ticks = agg && agg.range === null
      ? niceTicks(0, agg.slices, this.scale.width, 60).ticks.filter(Number.isInteger).map((t) => ({ t, label: String(t) }))
      : fitAxis(this.time, this.scale.start, this.scale.end, this.scale.width, (text) => ctx.measureText(text).width).ticks;
    const width = this.canvas.clientWidth;
    for (const { t, label } of ticks) {
      const x = Math.round(toX(this.scale, t)) + 0.5;
      ctx.fillStyle = '#888';
      ctx.fillRect(x, bottom, 1, 4);
      ctx.fillStyle = '#444';
      // Labels at the ends stay inside the canvas.
      const half = ctx.measureText(label).width / 2;
      ctx.fillText(label, Math.min(Math.max(x, half + 2), width - half - 2), bottom + 14);
      this.drawn.ticks.push(label);
    }
  }

  /** Seconds of one pixel of the overview. */
  private resolution(): number { return this.time.pixel(this.scale.end - this.scale.start, this.scale.width); }

  private hover(e: PointerEvent): void {
    if (!this.input || this.drag) return;
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    const hit = this.regionAt(x, y);
    if (!hit) { hideTooltip(); return; }
    const { agg } = this.input;
    const part = agg.parts[hit.part];
    const t0 = this.sliceTime(part.start_slice);
    const t1 = this.sliceTime(part.end_slice + 1);
    const lines: TipLine[] = [];
    if (hit.hiddenParts) {
      const sum = new Array<number>(agg.types.length).fill(0);
      for (const j of hit.hiddenParts) agg.parts[j].values.forEach((v, k) => { sum[k] += v; });
      lines.push({ label: 'parts merged', value: String(hit.hiddenParts.length) });
      lines.push(...this.typeLines(sum, range(sum.length)));
      showTooltip(e.clientX, e.clientY, `${hit.hiddenParts.length} parts too thin to draw`, lines,
        `${this.time.range(t0, t1, this.resolution())} · click to zoom in`);
      return;
    }
    if (hit.hiddenTypes) {
      lines.push(...this.typeLines(part.values, hit.hiddenTypes));
      showTooltip(e.clientX, e.clientY, `${hit.hiddenTypes.length} types too small to draw`, lines,
        `part ${hit.part + 1}: ${this.time.range(t0, t1, this.resolution())} · click to zoom in`);
      return;
    }
    lines.push({ label: 'time', value: this.time.range(t0, t1, this.resolution()) },
      { label: 'length', value: this.time.length(t1 - t0, this.resolution()) });
    lines.push({ label: 'slices', value: `${part.start_slice}–${part.end_slice}` });
    if (part.node) lines.push({ label: 'node', value: part.node });
    lines.push({ label: 'gain', value: formatNumber(part.gain) }, { label: 'loss', value: formatNumber(part.loss) });
    lines.push(...this.typeLines(part.values, range(part.values.length)).slice(0, 8));
    showTooltip(e.clientX, e.clientY, `Part ${hit.part + 1} of ${agg.parts.length}`, lines);
  }

  private regionAt(x: number, y: number): Region | undefined {
    // Later regions (merged marks) lie on top of the part they belong to.
    for (let i = this.regions.length - 1; i >= 0; i--) {
      const g = this.regions[i];
      if (x >= g.x && x < g.x + g.w && y >= g.y && y < g.y + g.h) return g;
    }
    return undefined;
  }

  /** The given types by decreasing value, with their share of the part. */
  private typeLines(values: number[], indices: number[]): TipLine[] {
    const { agg, colorOf, metric } = this.input!;
    const total = values.reduce((a, v) => a + v, 0) || 1;
    // State time is a length of time: in seconds, to four digits or so.
    const value = (v: number) => (metric === 'state-time' && agg.range ? this.time.length(v, this.time.clock.seconds(v) * 1e-3) : formatNumber(v));
    return indices.filter((k) => values[k] > 0).sort((a, b) => values[b] - values[a]).map((k) => ({
      label: agg.types[k], value: `${value(values[k])} (${((100 * values[k]) / total).toFixed(1)} %)`, color: colorOf(agg.types[k]),
    }));
  }
}

function dominant(values: number[]): number {
  let best = -1;
  values.forEach((v, k) => { if (v > 0 && (best < 0 || v > values[best])) best = k; });
  return best;
}

function range(n: number): number[] { return Array.from({ length: n }, (_, i) => i); }
