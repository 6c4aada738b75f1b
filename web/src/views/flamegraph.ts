// The flame graph of the calling context tree (an icicle: roots on top),
// drawn on a canvas from call_tree()'s rows (flame.ts lays them out):
// hover a frame for its calls and times, click it to zoom onto it (its
// subtree fills the width) and to highlight its function's states in the
// space-time diagram; click the top frame again to zoom out.

import { type CallNode, type Frame, frameAt, layoutFlame } from '../flame';
import { humanSeconds } from '../time';
import { fitCanvas } from './canvas';
import { hideTooltip, showTooltip } from './tooltip';

const ROW = 18;
/** Frames narrower than this many pixels are left out. */
const MIN_PX = 0.5;

export interface FlameEvents {
  /** A frame was clicked: the diagram highlights its function (null: nothing). */
  pick(node: CallNode | null): void;
}

/** A length of ns, about four digits. */
export function nsText(ns: number): string { return humanSeconds(ns * 1e-9, Math.max(ns * 1e-12, 1e-9)); }

export class FlameGraph {
  private nodes: CallNode[] = [];
  private frames: Frame[] = [];
  private focus: number | null = null;
  /** The frames drawn, in pixels of the canvas (for the test hook). */
  drawn: { id: number; fn: string; row: number; x: number; w: number; inclusive: number; ancestor: boolean }[] = [];

  constructor(private readonly canvas: HTMLCanvasElement, private readonly colorOf: (fn: string) => string,
              private readonly events: FlameEvents) {
    canvas.addEventListener('pointermove', (e) => this.hover(e));
    canvas.addEventListener('pointerleave', () => hideTooltip());
    canvas.addEventListener('click', (e) => this.click(e));
    new ResizeObserver(() => this.render()).observe(canvas.parentElement ?? canvas);
  }

  set(nodes: CallNode[]): void {
    this.nodes = nodes;
    if (this.focus !== null && !nodes.some((n) => n.id === this.focus)) this.focus = null;
    this.render();
  }

  get focused(): number | null { return this.focus; }

  zoom(id: number | null): void { this.focus = id; this.render(); }

  render(): void {
    const width = this.canvas.clientWidth;
    this.frames = layoutFlame(this.nodes, this.focus, MIN_PX / Math.max(1, width));
    const rows = this.frames.reduce((m, f) => Math.max(m, f.row + 1), 0);
    this.canvas.style.height = `${Math.max(1, rows) * ROW + 2}px`;
    const ctx = fitCanvas(this.canvas);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    this.drawn = [];
    for (const f of this.frames) {
      const x = f.x0 * width, w = (f.x1 - f.x0) * width, y = f.row * ROW;
      ctx.fillStyle = f.ancestor ? '#d9dde5' : this.colorOf(f.node.fn);
      ctx.fillRect(x, y + 1, Math.max(w - (w > 3 ? 1 : 0), MIN_PX), ROW - 2);
      if (f.node.id === this.focus) {
        ctx.strokeStyle = '#ff6a00';
        ctx.lineWidth = 2;
        ctx.strokeRect(x + 1, y + 2, w - 2, ROW - 4);
      }
      if (w > 30) {
        ctx.fillStyle = '#111';
        ctx.fillText(f.node.fn, x + 3, y + ROW / 2, w - 6);
      }
      this.drawn.push({ id: f.node.id, fn: f.node.fn, row: f.row, x, w, inclusive: f.node.inclusive, ancestor: f.ancestor });
    }
  }

  private at(e: MouseEvent): Frame | undefined {
    const r = this.canvas.getBoundingClientRect();
    return frameAt(this.frames, (e.clientX - r.left) / Math.max(1, r.width), Math.floor((e.clientY - r.top) / ROW));
  }

  private hover(e: PointerEvent): void {
    const f = this.at(e);
    if (!f) { hideTooltip(); return; }
    const n = f.node;
    const whole = this.frames.filter((g) => g.row === 0).reduce((s, g) => s + g.node.inclusive, 0);
    showTooltip(e.clientX, e.clientY, n.fn, [
      { label: 'calls', value: String(n.calls), color: this.colorOf(n.fn) },
      { label: 'inclusive', value: `${nsText(n.inclusive)} (${n.inclusive} ns)` },
      { label: 'exclusive', value: `${nsText(n.exclusive)} (${n.exclusive} ns)` },
      { label: 'share', value: whole > 0 ? `${((100 * n.inclusive) / whole).toFixed(1)} % of the top` : '' },
    ], n.path.split(';').join(' → '));
  }

  private click(e: MouseEvent): void {
    const f = this.at(e);
    if (!f) return;
    // The zoomed frame or an ancestor above it: back out to that one's parent level.
    const next = f.node.id === this.focus ? f.node.parent : f.node.id;
    this.zoom(next);
    this.events.pick(this.nodes.find((n) => n.id === next) ?? null);
  }
}
