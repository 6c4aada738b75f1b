// Statistics of the selection: per (kind, type, value) count, total and
// mean state time, share; and a pie of the state time on a canvas.

import type { Stats } from '../api';
import type { Palette } from '../colors';
import { fitCanvas } from './canvas';
import type { TimeDisplay } from '../time';
import { hideTooltip, showTooltip } from './tooltip';

export class StatsView {
  private stats: Stats | null = null;
  private slices: { a0: number; a1: number; label: string; share: number; color: string }[] = [];

  constructor(private readonly table: HTMLTableElement, private readonly pie: HTMLCanvasElement,
              private readonly caption: HTMLElement, private readonly palette: Palette, private readonly time: TimeDisplay,
              private readonly recolour: (type: string, value: string, colour: string) => void) {
    pie.addEventListener('pointermove', (e) => this.hover(e));
    pie.addEventListener('pointerleave', () => hideTooltip());
  }

  set(stats: Stats | null): void { this.stats = stats; this.render(); }

  render(): void {
    const stats = this.stats;
    this.table.replaceChildren();
    if (!stats) { fitCanvas(this.pie); return; }
    const [a, b] = stats.range;
    this.caption.textContent = this.time.range(a, b, this.time.pixel(b - a, 400));  // a short caption: ~400 steps
    const head = this.table.createTHead().insertRow();
    for (const h of ['', 'type', 'value', 'count', 'total', 'mean', 'share %']) head.appendChild(Object.assign(document.createElement('th'), { textContent: h }));
    const body = this.table.createTBody();
    for (const r of stats.rows) {
      const row = body.insertRow();
      const c = row.insertCell();
      const input = document.createElement('input');
      input.type = 'color';
      input.value = this.palette.color(r.type, r.value);
      input.title = `Colour of ${r.type} ${r.value}`;
      input.addEventListener('input', () => this.recolour(r.type, r.value, input.value));
      c.appendChild(input);
      // The whole name on hover: the cells cut long ones.
      Object.assign(row.insertCell(), { textContent: r.type, title: r.type });
      Object.assign(row.insertCell(), { textContent: r.value, title: r.value });
      // Times and shares only mean something for states; lengths to about four digits.
      const length = (d: number) => this.time.length(d, this.time.clock.seconds(d) * 1e-3);
      const cells = [String(r.count), ...(r.kind === 'state' ? [length(r.total_time), length(r.mean_time), r.share.toFixed(2)] : ['', '', ''])];
      for (const text of cells) Object.assign(row.insertCell(), { className: 'num', textContent: text });
    }
    this.drawPie();
  }

  /** Re-draws the pie only (after a colour change: the table keeps its inputs). */
  redraw(): void { this.drawPie(); }

  private drawPie(): void {
    const ctx = fitCanvas(this.pie);
    const w = this.pie.clientWidth, h = this.pie.clientHeight;
    const states = (this.stats?.rows ?? []).filter((r) => r.kind === 'state' && r.share > 0);
    const total = states.reduce((a, r) => a + r.share, 0);
    this.slices = [];
    const cx = h / 2 + 4, cy = h / 2, radius = h / 2 - 6;
    if (total <= 0) return;
    let a = -Math.PI / 2;
    for (const r of states) {
      const a1 = a + (2 * Math.PI * r.share) / total;
      const color = this.palette.color(r.type, r.value);
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.moveTo(cx, cy);
      ctx.arc(cx, cy, radius, a, a1);
      ctx.closePath();
      ctx.fill();
      ctx.strokeStyle = '#fff';
      ctx.stroke();
      this.slices.push({ a0: a, a1, label: `${r.type} ${r.value}`, share: r.share, color });
      a = a1;
    }
    // The largest shares, named beside the pie.
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    const top = [...this.slices].sort((x, y) => y.share - x.share).slice(0, Math.floor((h - 8) / 16));
    top.forEach((s, i) => {
      const y = 12 + i * 16;
      ctx.fillStyle = s.color;
      ctx.fillRect(h + 14, y - 8, 10, 10);
      ctx.fillStyle = '#222';
      ctx.fillText(`${s.label}  ${s.share.toFixed(1)} %`, h + 30, y + 1, w - h - 34);
    });
  }

  private hover(e: PointerEvent): void {
    const r = this.pie.getBoundingClientRect();
    const h = this.pie.clientHeight;
    const x = e.clientX - r.left - (h / 2 + 4), y = e.clientY - r.top - h / 2;
    if (Math.hypot(x, y) > h / 2 - 6) { hideTooltip(); return; }
    let angle = Math.atan2(y, x);
    if (angle < -Math.PI / 2) angle += 2 * Math.PI;
    const s = this.slices.find((z) => angle >= z.a0 && angle < z.a1);
    if (s) showTooltip(e.clientX, e.clientY, s.label, [{ label: 'share of state time', value: `${s.share.toFixed(2)} %`, color: s.color }]);
    else hideTooltip();
  }
}
