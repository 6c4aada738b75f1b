// Quality curves: gain and loss of the optimal partition against p, as
// step curves (the partition is constant between significant p values).
// Clicking near a point selects its partition, at a p strictly inside its
// range.

import type { PlistEntry } from '../api';
import { fitCanvas } from './canvas';
import { entryAt, formatNumber, formatTick, niceTicks, pInside, toX, type Scale } from './layout';
import { hideTooltip, showTooltip } from './tooltip';

const GAIN = '#2f6fd0';
const LOSS = '#d2472f';

export interface CurvePoint { index: number; p: number; parts: number; x: number; yGain: number; yLoss: number }

export class Curves {
  private entries: PlistEntry[] = [];
  private p = 0;
  private scale: Scale = { start: 0, end: 1, x0: 0, width: 1 };
  /** Where each entry is drawn (canvas pixels): the test hook reads it. */
  points: CurvePoint[] = [];

  constructor(private readonly canvas: HTMLCanvasElement, private readonly selectP: (p: number) => void) {
    canvas.addEventListener('pointermove', (e) => this.hover(e));
    canvas.addEventListener('pointerleave', () => hideTooltip());
    canvas.addEventListener('click', (e) => {
      const hit = this.nearest(e);
      if (hit) this.selectP(pInside(this.entries.map((x) => x.p), hit.index));
    });
  }

  set(entries: PlistEntry[], p: number): void { this.entries = entries; this.p = p; this.render(); }

  render(): void {
    const ctx = fitCanvas(this.canvas);
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    const top = 14;
    const bottom = height - 22;
    // p beyond the last significant value changes nothing: the axis stops a
    // little after it, so the breakpoints are not squeezed into a corner.
    const lastP = this.entries[this.entries.length - 1]?.p ?? 1;
    const pMax = Math.min(1, Math.max(0.05, Math.ceil(lastP * 1.12 * 20) / 20));
    this.scale = { start: 0, end: pMax, x0: 34, width: width - 34 - 12 };
    const y = (f: number) => bottom - f * (bottom - top);
    ctx.font = '10px system-ui, sans-serif';
    // Grid and axes.
    ctx.fillStyle = '#eef0f4';
    for (const f of [0.25, 0.5, 0.75, 1]) ctx.fillRect(this.scale.x0, Math.round(y(f)), this.scale.width, 1);
    ctx.fillStyle = '#888';
    ctx.fillRect(this.scale.x0, bottom, this.scale.width, 1);
    ctx.fillRect(this.scale.x0, top, 1, bottom - top);
    ctx.fillStyle = '#444';
    ctx.textAlign = 'center';
    const { ticks, step } = niceTicks(0, pMax, this.scale.width, 50);
    for (const p of ticks) ctx.fillText(formatTick(p, step), toX(this.scale, p), bottom + 13);
    ctx.textAlign = 'right';
    for (const f of [0, 0.5, 1]) ctx.fillText(String(f), this.scale.x0 - 4, y(f) + 3);
    ctx.textAlign = 'left';
    ctx.fillText('p', this.scale.x0 + this.scale.width - 6, bottom - 4);
    this.points = [];
    const last = this.entries[this.entries.length - 1];
    if (!last) return;
    const gMax = last.gain || 1;
    const lMax = last.loss || 1;
    this.points = this.entries.map((e, index) => ({
      index, p: e.p, parts: e.parts, x: toX(this.scale, e.p), yGain: y(e.gain / gMax), yLoss: y(e.loss / lMax),
    }));
    const current = entryAt(this.entries.map((e) => e.p), this.p);
    // The selected partition's range of p.
    const x1 = current + 1 < this.points.length ? this.points[current + 1].x : toX(this.scale, pMax);
    ctx.fillStyle = 'rgba(255, 196, 0, 0.22)';
    ctx.fillRect(this.points[current].x, top, Math.max(2, x1 - this.points[current].x), bottom - top);
    for (const [color, key] of [[GAIN, 'yGain'], [LOSS, 'yLoss']] as const) {
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.6;
      ctx.beginPath();
      this.points.forEach((pt, k) => {
        const next = k + 1 < this.points.length ? this.points[k + 1].x : toX(this.scale, pMax);
        if (k === 0) ctx.moveTo(pt.x, pt[key]); else ctx.lineTo(pt.x, pt[key]);
        ctx.lineTo(next, pt[key]);
      });
      ctx.stroke();
      ctx.fillStyle = color;
      for (const pt of this.points) {
        ctx.beginPath();
        ctx.arc(pt.x, pt[key], pt.index === current ? 4 : 2.2, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    const xp = toX(this.scale, this.p);
    ctx.strokeStyle = '#111';
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(Math.round(xp) + 0.5, top);
    ctx.lineTo(Math.round(xp) + 0.5, bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    // Legend.
    ctx.textAlign = 'left';
    ctx.font = '11px system-ui, sans-serif';
    let lx = this.scale.x0 + 8;
    for (const [color, label] of [[GAIN, 'gain'], [LOSS, 'loss']]) {
      ctx.fillStyle = color;
      ctx.fillRect(lx, 4, 12, 3);
      ctx.fillStyle = '#333';
      ctx.fillText(label, lx + 16, 9);
      lx += 56;
    }
    ctx.fillStyle = '#333';
    ctx.fillText(`p = ${formatNumber(this.p)} · ${this.entries[current].parts} parts`, lx + 10, 9);
  }

  private nearest(e: MouseEvent): CurvePoint | null {
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    let best: CurvePoint | null = null;
    let bestD = 10;
    for (const pt of this.points) {
      const d = Math.min(Math.hypot(pt.x - x, pt.yGain - y), Math.hypot(pt.x - x, pt.yLoss - y));
      if (d < bestD) { best = pt; bestD = d; }
    }
    return best;
  }

  private hover(e: PointerEvent): void {
    const hit = this.nearest(e);
    this.canvas.style.cursor = hit ? 'pointer' : 'default';
    if (!hit) { hideTooltip(); return; }
    const entry = this.entries[hit.index];
    const next = this.entries[hit.index + 1]?.p ?? 1;
    showTooltip(e.clientX, e.clientY, `${entry.parts} parts`, [
      { label: 'p from', value: formatNumber(entry.p) }, { label: 'p to', value: formatNumber(next) },
      { label: 'gain', value: formatNumber(entry.gain), color: GAIN }, { label: 'loss', value: formatNumber(entry.loss), color: LOSS },
    ], 'click to select this partition');
  }
}
