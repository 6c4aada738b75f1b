// The space-time diagram: one line per container (collapsible tree), a band
// per state or variable type of the container's type, states as rectangles
// whose height shrinks with their nesting level, events as marks, links as
// arrows, variables as step curves. Summaries (entities merged by the
// server's level of detail) are drawn hatched and say how many they hold.
//
// Interaction stays smooth with 10^5 visible entities because a frame only
// re-draws the last answer under the current time scale (batched by colour)
// while the next answer is fetched, debounced, for a window half again as
// wide as the view (a quarter on each side) and the rows of about two
// screens, so that short pans rarely wait and answers stay near what the
// server's level of detail is sized for (docs/serve.md).

import type { Api, ContainerNode, EventItem, LinkItem, StateItem, Summary, TraceDetail, TypeNode, VariableItem, Window, WindowRow } from '../api';
import type { Palette } from '../colors';
import { fitCanvas, hatch, onDrag } from './canvas';
import type { TimeDisplay } from '../time';
import { fitAxis, formatNumber, RectBatch, toTime, toX, type Scale } from './layout';
import { cpuContainers, planLines } from './lines';
import { drawMarks, drawOverlay, type MarkBox, type Where, type WhereAnswer } from './marks';
import { type Connector, layoutOverlay, type Overlay, type OverlayKind, type Rect } from '../overlay';
import type { Mark } from '../query';
import { hideTooltip, showTooltip, type TipLine } from './tooltip';

const LABEL_W = 180;
const STATE_H = 20;
const VARIABLE_H = 26;
const BARE_H = 16;
const LEVEL_INSET = 4;
const BAND_ROWS = 60;
const MAX_LISTED_ROWS = 200;

interface Band { type: TypeNode; y: number; h: number }
interface Line {
  label: string; container: ContainerNode; members: Set<number>;
  depth: number; y: number; h: number; bands: Band[]; hasChildren: boolean;
}

/** The time scale of a diagram `width` pixels wide showing `view`: its plot right of the line names. */
export function plotScale(view: [number, number], width: number): Scale {
  return { start: view[0], end: view[1], x0: LABEL_W, width: Math.max(1, width - LABEL_W - 4) };
}

export interface GanttFilter {
  types: number[]; values: string[]; containers: number[]; collapsed: Set<number>;
  /** Lines by group value and their order (docs/web.md, group= and order=); null = the tree, the trace's order. */
  group: Map<number, string> | null; rank: Map<number, number> | null;
}

export interface GanttEvents {
  select(start: number, end: number): void;
  viewChanged(start: number, end: number): void;
  inspect(id: string): void;
  toggle(container: number): void;
  /** A right click on a line's name (the thread's critical path of a kernel trace); true when taken. */
  lineMenu?(container: number): boolean;
}

/** What is under the pointer. */
type Hit = { row: WindowRow; item?: StateItem | EventItem | LinkItem | VariableItem; summary?: Summary; line: Line };

export class Gantt {
  private trace: TraceDetail | null = null;
  private types = new Map<number, TypeNode>();
  private containers = new Map<number, ContainerNode>();
  private filter: GanttFilter = { types: [], values: [], containers: [], collapsed: new Set(), group: null, rank: null };
  /** The query's rows to highlight. */
  private result: Mark[] = [];
  /** The where filter and its answer for the window fetched: its rows highlighted as the result's, the rest dimmed or hidden. */
  private where: Where | null = null;
  private whereAnswer: WhereAnswer | null = null;
  /** The marks drawn at the last frame, for hit tests and the test hook. */
  private drawnMarks: { mark: Mark; box: MarkBox; source: 'result' | 'where' }[] = [];
  /** The analyses drawn over the diagram (waits, a critical path), and what the last frame drew of them. */
  private overlays = new Map<OverlayKind, Overlay>();
  private overlaysDrawn = new Map<OverlayKind, { rects: Rect[]; connectors: Connector[] }>();
  /** The mark to inspect once the window zoomed onto it has come. */
  private focused: Mark | null = null;
  private lines: Line[] = [];
  private lineOf = new Map<number, Line>();
  private data: Window | null = null;
  private view: [number, number] = [0, 1];
  private scrollY = 0;
  private scale: Scale = { start: 0, end: 1, x0: LABEL_W, width: 1 };
  private frame = 0;
  private fetchTimer = 0;
  private inflight: AbortController | null = null;
  private selecting: [number, number] | null = null;
  /** The vertical band (content pixels) whose rows the last request listed, when it could not list them all. */
  private rowsBand: [number, number] | null = null;
  private panFrom: { x: number; y: number; view: [number, number]; scroll: number } | null = null;
  /** The value range of each variable band at the last frame (its y scale), shown beside its name. */
  private variableRange = new Map<string, [number, number]>();
  /** The inspected and the hovered entity, outlined. */
  private marked = { inspected: '', hovered: '' };
  /** Drawn at the last frame, for the test hook. */
  stats = { rows: 0, items: 0, summaries: 0, shown: 0, hidden: 0, loading: false };
  /** A few drawn states (canvas coordinates), for tests to hover. */
  sample: { id: string; value: string; x: number; y: number }[] = [];
  /** The ruler's labels and its corner caption at the last frame, for the test hook. */
  rulerDrawn = { labels: [] as string[], caption: '' };
  /** The lines' labels in order, for the test hook. */
  get lineLabels(): string[] { return this.lines.map((l) => l.label); }
  /** The lines' containers and places (content pixels), for the test hook. */
  get lineBoxes(): { container: number; y: number; h: number }[] { return this.lines.map((l) => ({ container: l.container.id, y: l.y - this.scrollY, h: l.h })); }

  constructor(private readonly canvas: HTMLCanvasElement, private readonly ruler: HTMLCanvasElement,
              private readonly api: Api, private readonly traceIndex: () => number,
              private readonly palette: Palette, private readonly time: TimeDisplay, private readonly events: GanttEvents) {
    canvas.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    canvas.addEventListener('pointermove', (e) => { if (!this.panFrom && !this.selecting) this.hover(e); });
    canvas.addEventListener('pointerleave', () => { hideTooltip(); this.markHovered(''); });
    canvas.addEventListener('contextmenu', (e) => {
      const r = canvas.getBoundingClientRect();
      const line = e.clientX - r.left < LABEL_W ? this.lineAt(e.clientY - r.top) : undefined;
      if (line && this.events.lineMenu?.(line.container.id)) e.preventDefault();
    });
    onDrag(canvas, {
      start: (x, y, e) => {
        if (x < LABEL_W) { this.clickLabel(y); return false; }
        if (e.shiftKey) { const t = toTime(this.scale, x); this.selecting = [t, t]; }
        else this.panFrom = { x, y, view: [...this.view], scroll: this.scrollY };
        hideTooltip();
        return true;
      },
      move: (x, y) => {
        if (this.selecting) { this.selecting[1] = toTime(this.scale, x); this.schedule(); return; }
        if (!this.panFrom) return;
        const dt = ((x - this.panFrom.x) / this.scale.width) * (this.panFrom.view[1] - this.panFrom.view[0]);
        this.scrollY = this.clampScroll(this.panFrom.scroll - (y - this.panFrom.y));
        this.setView(this.panFrom.view[0] - dt, this.panFrom.view[1] - dt);
        if (!this.covers()) this.refetchSoon();
      },
      end: (x, y, moved) => {
        this.panFrom = null;
        if (this.selecting) this.endSelection(moved);
        else if (!moved) this.click(x, y);
      },
    });
    // The ruler selects a range by a plain drag.
    onDrag(ruler, {
      start: (x) => { if (x < LABEL_W) return false; const t = toTime(this.scale, x); this.selecting = [t, t]; return true; },
      move: (x) => { if (this.selecting) { this.selecting[1] = toTime(this.scale, x); this.schedule(); } },
      end: (_x, _y, moved) => this.endSelection(moved),
    });
    new ResizeObserver(() => { this.schedule(); this.refetchSoon(); }).observe(canvas);
  }

  private endSelection(moved: boolean): void {
    const s = this.selecting;
    this.selecting = null;
    this.schedule();
    if (!s || !moved) return;
    const [a, b] = s[0] < s[1] ? s : [s[1], s[0]];
    if (b > a) this.events.select(a, b);
  }

  setTrace(trace: TraceDetail): void {
    this.trace = trace;
    this.types = new Map(trace.types.map((t) => [t.id, t]));
    this.containers = new Map(trace.containers.map((c) => [c.id, c]));
    this.data = null;
  }

  /** New filters or collapsed set: lines are laid out again and data refetched. */
  setFilter(filter: GanttFilter): void {
    const key = (f: GanttFilter) => JSON.stringify({
      ...f, collapsed: [...f.collapsed].sort(), group: f.group && [...f.group], rank: f.rank && [...f.rank],
    });
    const changed = key(filter) !== key(this.filter);
    this.filter = filter;
    this.layout();
    if (changed) { this.data = null; this.refetchSoon(0); }
    this.schedule();
  }

  setView(start: number, end: number, notify = true): void {
    if (!(end > start)) return;
    const [s0, e0] = this.view;
    this.view = [start, end];
    if (notify && (s0 !== start || e0 !== end)) this.events.viewChanged(start, end);
    this.schedule();
    if (!this.covers()) this.refetchSoon();
  }

  get viewRange(): [number, number] { return [...this.view]; }

  markInspected(id: string | null): void { this.marked.inspected = id ?? ''; this.schedule(); }

  private markHovered(id: string): void {
    if (this.marked.hovered === id) return;
    this.marked.hovered = id;
    this.schedule();
  }

  /** An analysis drawn over the diagram (null: that kind removed). */
  setOverlay(kind: OverlayKind, overlay: Overlay | null): void {
    if (overlay) this.overlays.set(kind, overlay); else this.overlays.delete(kind);
    this.schedule();
  }

  /** What the last frame drew of each overlay: its rectangles (with their container) and connectors. */
  get overlayDrawn(): Record<string, { rects: { row: number; container: number; x: number; y: number; w: number; h: number }[]; connectors: number }> {
    const out: Record<string, { rects: { row: number; container: number; x: number; y: number; w: number; h: number }[]; connectors: number }> = {};
    for (const [kind, { rects, connectors }] of this.overlaysDrawn) {
      const spans = this.overlays.get(kind)?.spans ?? [];
      out[kind] = { rects: rects.map((r) => ({ row: spans[r.span].row, container: spans[r.span].container, x: r.x, y: r.y, w: r.w, h: r.h })), connectors: connectors.length };
    }
    return out;
  }

  /** The query's rows highlighted (none: []). */
  setResult(marks: Mark[]): void { this.result = marks; this.schedule(); }

  /** The where filter (null: none): its rows are asked with each window. */
  setWhere(where: Where | null): void {
    if (!where && !this.where) return;
    this.where = where;
    this.whereAnswer = null;
    this.data = null;
    this.refetchSoon(0);
  }

  /** The where filter's answer for the window shown, for the panel's note. */
  get whereShown(): WhereAnswer | null { return this.whereAnswer; }

  /**
   * Zooms onto a mark ([a, b]) and scrolls its line into view; with
   * `select`, inspects the window's entity that is that mark once it has come.
   */
  focus(mark: Mark, a: number, b: number, select: boolean): void {
    this.focused = select ? mark : null;
    const line = this.lineFor(mark.container);
    if (line && (line.y < this.scrollY || line.y + line.h > this.scrollY + this.canvas.clientHeight)) {
      this.scrollY = this.clampScroll(line.y - this.canvas.clientHeight / 3);
    }
    this.data = null;
    this.setView(a, b, false);
    this.refetchSoon(0);
  }

  private layout(): void {
    const trace = this.trace;
    this.lines = [];
    this.lineOf.clear();
    if (!trace) return;
    const entityTypes = new Map<number, TypeNode[]>();
    for (const t of trace.types) {
      if (t.kind === 'container') continue;
      if (this.filter.types.length && !this.filter.types.includes(t.id)) continue;
      const list = entityTypes.get(t.parent) ?? [];
      list.push(t);
      entityTypes.set(t.parent, list);
    }
    const plans = planLines(trace.containers, {
      roots: this.filter.containers, collapsed: this.filter.collapsed, group: this.filter.group, rank: this.filter.rank,
      cpus: cpuContainers(trace.containers, trace.types),
    });
    let y = 0;
    for (const plan of plans) {
      // A band per state or variable type of its containers' types (a group's may differ).
      const bands: Band[] = [];
      let h = 0;
      const memberTypes = new Set(plan.members.map((id) => this.containers.get(id)?.type));
      for (const t of [...memberTypes].flatMap((ct) => entityTypes.get(ct ?? -1) ?? [])) {
        if (t.kind !== 'state' && t.kind !== 'variable') continue;
        const bh = t.kind === 'state' ? STATE_H : VARIABLE_H;
        bands.push({ type: t, y: y + h + 2, h: bh - 4 });
        h += bh;
      }
      const line: Line = { ...plan, members: new Set(plan.members), y, h: Math.max(h, BARE_H), bands };
      this.lines.push(line);
      for (const id of plan.members) this.lineOf.set(id, line);
      y += line.h;
    }
    this.scrollY = this.clampScroll(this.scrollY);
  }

  /** A container's line, or its nearest ancestor's when it is collapsed; undefined when not shown. */
  private lineFor(container: number): Line | undefined {
    for (let c: number | undefined = container, hops = 0; c !== undefined && hops < 256; hops++) {
      const line = this.lineOf.get(c);
      if (line) return line;
      c = this.containers.get(c)?.parent;
    }
    return undefined;
  }

  private contentHeight(): number { const l = this.lines[this.lines.length - 1]; return l ? l.y + l.h : 0; }
  private clampScroll(s: number): number { return Math.max(0, Math.min(s, this.contentHeight() - this.canvas.clientHeight + 8)); }

  /** Whether the last answer holds the view at about the current resolution. */
  private covers(): boolean {
    const d = this.data;
    if (!d) return false;
    if (this.rowsBand && (this.scrollY < this.rowsBand[0] || this.scrollY + this.canvas.clientHeight > this.rowsBand[1])) return false;
    const [s, e] = this.view;
    if (s < d.start - 1e-12 * Math.abs(d.start) || e > d.end + 1e-12 * Math.abs(d.end)) return false;
    const have = (d.end - d.start) / d.width;
    const want = (e - s) / Math.max(1, this.canvas.clientWidth - LABEL_W);
    return have <= want * 1.5 && have >= want / 3;
  }

  refetchSoon(delay = 120): void {
    window.clearTimeout(this.fetchTimer);
    this.fetchTimer = window.setTimeout(() => void this.fetch(), delay);
    // Loading from now on, not only once the request leaves: what is drawn is about to change.
    if (!this.stats.loading) { this.stats.loading = true; this.onChange?.(); }
  }

  private async fetch(): Promise<void> {
    if (!this.trace) { this.stats.loading = false; return; }
    this.inflight?.abort();
    const controller = new AbortController();
    this.inflight = controller;
    const [s, e] = this.view;
    const span = e - s;
    const start = Math.max(this.trace.start, s - span / 4);
    const end = Math.min(this.trace.end, e + span / 4);
    const plotW = Math.max(1, this.canvas.clientWidth - LABEL_W);
    const width = Math.max(1, Math.min(8192, Math.round((plotW * (end - start)) / span)));
    const all = !this.filter.containers.length && (this.filter.collapsed.size === 0 || this.filter.group !== null);
    const members = (lines: Line[]) => lines.flatMap((l) => [...l.members]);
    let ids = all ? undefined : members(this.lines);
    // With many lines only those within a screen of the visible ones are
    // asked for (fetched again on scroll): the answer stays small, and the
    // list fits in a request line (at most 8 KiB, docs/serve.md).
    this.rowsBand = null;
    if (this.lines.length > BAND_ROWS) {
      const h = this.canvas.clientHeight;
      const band: [number, number] = [this.scrollY - h / 2, this.scrollY + 1.5 * h];
      ids = members(this.lines.filter((l) => l.y + l.h >= band[0] && l.y <= band[1])).slice(0, MAX_LISTED_ROWS);
      this.rowsBand = band;
    }
    this.stats.loading = true;
    const stop = end > start ? end : start + span;
    try {
      const where = this.where;
      [this.data, this.whereAnswer] = await Promise.all([
        this.api.window(this.traceIndex(), {
          start, end: stop, width,
          containers: ids,
          types: this.filter.types.length ? this.filter.types : undefined,
          values: this.filter.values.length ? this.filter.values : undefined,
        }, controller.signal),
        where ? where.source(start, stop, controller.signal) : null,
      ]);
      this.stats.loading = false;
      this.selectFocused();
      this.schedule();
    } catch (err) {
      if ((err as Error).name !== 'AbortError') { this.stats.loading = false; console.error(err); this.schedule(); }
    }
  }

  /** One frame per animation tick however many changes came in between. */
  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); this.onChange?.(); });
  }

  /** Called after each frame and when loading starts. */
  onChange: (() => void) | null = null;

  private draw(): void {
    const ctx = fitCanvas(this.canvas);
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    this.scale = plotScale(this.view, width);
    this.drawRuler();
    const dy = -this.scrollY;
    // Alternate line backgrounds and the label column.
    for (const [i, line] of this.lines.entries()) {
      const y = line.y + dy;
      if (y > height || y + line.h < 0) continue;
      ctx.fillStyle = i % 2 ? '#f7f8fa' : '#ffffff';
      ctx.fillRect(0, y, width, line.h);
    }
    ctx.fillStyle = '#e3e6ec';
    for (const line of this.lines) ctx.fillRect(LABEL_W, line.y + line.h - 1 + dy, width, 1);
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_W, 0, width - LABEL_W, height);
    ctx.clip();
    // Under a where filter the window's items are dimmed (or not drawn), its rows highlighted above them.
    if (this.where?.mode === 'dim') ctx.globalAlpha = 0.2;
    this.drawData(ctx, dy, height);
    ctx.globalAlpha = 1;
    this.drawHighlights(ctx, dy, height);
    this.drawOverlays(ctx, dy);
    if (this.selecting) {
      const xa = toX(this.scale, this.selecting[0]);
      const xb = toX(this.scale, this.selecting[1]);
      ctx.fillStyle = 'rgba(40, 90, 200, 0.16)';
      ctx.fillRect(Math.min(xa, xb), 0, Math.abs(xb - xa), height);
    }
    ctx.restore();
    this.drawLabels(ctx, dy, height);
    // Where the visible lines sit among all of them (drag or wheel over the names scrolls).
    const content = this.contentHeight();
    if (content > height) {
      const h = Math.max(20, (height * height) / content);
      const y = (this.scrollY / (content - height + 8)) * (height - h);
      ctx.fillStyle = 'rgba(60, 70, 90, 0.35)';
      ctx.fillRect(width - 5, y, 4, h);
    }
  }

  private drawData(ctx: CanvasRenderingContext2D, dy: number, height: number): void {
    const d = this.data;
    this.stats = { ...this.stats, rows: 0, items: 0, summaries: 0, shown: d?.shown ?? 0, hidden: d?.hidden ?? 0 };
    this.variableRange.clear();
    this.sample = [];
    if (!d || this.where?.mode === 'hide') return;
    const states = new RectBatch();
    const xs = (t: number) => toX(this.scale, t);
    const left = this.scale.x0;
    const right = left + this.scale.width;
    const summaries: { s: Summary; color: string; x: number; y: number; w: number; h: number }[] = [];
    const arrows: LinkItem[] = [];
    const marks = new RectBatch();
    const linkMarks: { x: number; w: number; y: number }[] = [];
    const outlined: { x: number; y: number; w: number; h: number; strong: boolean }[] = [];
    for (const row of d.rows) {
      const line = this.lineOf.get(row.container);
      const type = this.types.get(row.type);
      if (!line || !type) continue;
      if (row.kind === 'link') {
        for (const it of row.items as LinkItem[]) arrows.push(it);
        // Merged links have no ends to draw an arrow to: a mark where they leave.
        for (const s of row.summaries) {
          const x0 = xs(s.start);
          if (x0 < left - 4 || x0 > right + 4) continue;
          linkMarks.push({ x: x0, w: Math.max(3, xs(s.end) - x0), y: line.y + dy });
        }
        continue;
      }
      const band = line.bands.find((b) => b.type.id === row.type);
      const by = (band ? band.y : line.y) + dy;
      const bh = band ? band.h : line.h;
      if (by > height || by + bh < 0) continue;
      this.stats.rows++;
      if (row.kind === 'state') {
        for (const it of row.items as StateItem[]) {
          const x0 = xs(it.start), x1 = xs(it.end);
          if (x1 < left || x0 > right) continue;
          const inset = Math.min(it.level * LEVEL_INSET, bh - 4);
          states.add(this.palette.color(type.name, it.value), x0, by + inset, Math.max(0.5, x1 - x0), bh - inset);
          if (it.id === this.marked.inspected || it.id === this.marked.hovered) {
            outlined.push({ x: x0, y: by + inset, w: Math.max(0.5, x1 - x0), h: bh - inset, strong: it.id === this.marked.inspected });
          }
          this.stats.items++;
          const c0 = Math.max(x0, left), c1 = Math.min(x1, right);
          // The top strip of a state is its own: deeper levels start lower.
          if (this.sample.length < 8 && c1 - c0 > 12) this.sample.push({ id: it.id, value: it.value, x: (c0 + c1) / 2, y: by + inset + 1.5 });
        }
        for (const s of row.summaries) {
          const x0 = xs(s.start), x1 = xs(s.end);
          if (x1 < left || x0 > right) continue;
          const inset = Math.min((s.level ?? 0) * LEVEL_INSET, bh - 4);
          summaries.push({ s, color: this.palette.color(type.name, s.value ?? ''), x: x0, y: by + inset, w: Math.max(1, x1 - x0), h: bh - inset });
        }
      } else if (row.kind === 'event') {
        const base = by + bh;
        for (const it of row.items as EventItem[]) {
          const x = xs(it.start);
          if (x < left - 4 || x > right + 4) continue;
          marks.add(this.palette.color(type.name, it.value), x - 1, base - 7, 2, 7);
          this.stats.items++;
        }
        for (const s of row.summaries) {
          const x0 = xs(s.start), x1 = xs(s.end);
          summaries.push({ s, color: this.palette.color(type.name, s.value ?? ''), x: x0, y: base - 7, w: Math.max(2, x1 - x0), h: 7 });
        }
      } else if (row.kind === 'variable') {
        this.drawVariable(ctx, row, by, bh);
      }
    }
    states.fill(ctx);
    // Summaries: dimmed in their value's colour, hatched, so they never read as one long state.
    const alpha = ctx.globalAlpha;
    for (const m of summaries) {
      ctx.globalAlpha = alpha * 0.45;
      ctx.fillStyle = m.color;
      ctx.fillRect(m.x, m.y, m.w, m.h);
      ctx.globalAlpha = alpha;
      ctx.fillStyle = hatch(ctx, 'rgba(0,0,0,0.55)');
      ctx.fillRect(m.x, m.y, m.w, m.h);
    }
    this.stats.summaries = summaries.length;
    marks.fill(ctx);
    this.drawArrows(ctx, arrows, dy);
    ctx.fillStyle = '#1f2430';
    for (const m of linkMarks) {
      ctx.beginPath();
      ctx.moveTo(m.x - 3.5, m.y + 1);
      ctx.lineTo(m.x + 3.5, m.y + 1);
      ctx.lineTo(m.x, m.y + 7);
      ctx.fill();
    }
    this.stats.summaries += linkMarks.length;
    for (const o of outlined) {
      ctx.strokeStyle = o.strong ? '#111' : 'rgba(17, 17, 17, 0.6)';
      ctx.lineWidth = o.strong ? 2 : 1;
      ctx.strokeRect(o.x + 0.5, o.y + 0.5, o.w - 1, o.h - 1);
    }
    ctx.lineWidth = 1;
  }

  /** The result's and the where filter's rows on their lines (their type's band, their nesting), above the items. */
  private drawHighlights(ctx: CanvasRenderingContext2D, dy: number, height: number): void {
    this.drawnMarks = [];
    const left = this.scale.x0 - 2, right = this.scale.x0 + this.scale.width + 2;
    const place = (mark: Mark, source: 'result' | 'where') => {
      const line = this.lineFor(mark.container);
      if (!line) return;
      const x0 = toX(this.scale, mark.start), x1 = mark.end === null ? x0 : toX(this.scale, mark.end);
      if (x1 < left || x0 > right) return;
      const color = mark.type !== undefined && mark.value !== undefined ? this.palette.color(mark.type, mark.value) : null;
      const band = line.bands.find((b) => b.type.name === mark.type);
      let box: MarkBox;
      if (mark.end === null) box = { x: x0 - 1.5, y: line.y + line.h - 9, w: 3, h: 9, color };
      else {
        const a = Math.max(x0, left), w = Math.max(2, Math.min(x1, right) - a);
        const inset = band ? Math.min((mark.depth ?? 0) * LEVEL_INSET, band.h - 4) : 0;
        box = band ? { x: a, y: band.y + inset, w, h: band.h - inset, color } : { x: a, y: line.y + 2, w, h: line.h - 4, color };
      }
      box.y += dy;
      if (box.y > height || box.y + box.h < 0) return;
      this.drawnMarks.push({ mark, box, source });
    };
    for (const m of this.whereAnswer?.marks ?? []) place(m, 'where');
    for (const m of this.result) place(m, 'result');
    drawMarks(ctx, this.drawnMarks.map((d) => d.box));
  }

  /** The analyses' overlays, waits under a path, on the lines shown (a collapsed container's on its ancestor's). */
  private drawOverlays(ctx: CanvasRenderingContext2D, dy: number): void {
    this.overlaysDrawn.clear();
    const left = this.scale.x0, right = this.scale.x0 + this.scale.width;
    for (const kind of ['waits', 'path'] as const) {
      const overlay = this.overlays.get(kind);
      if (!overlay) continue;
      const geometry = layoutOverlay(overlay, (c) => this.lineFor(c), (t) => toX(this.scale, t), left, right);
      this.overlaysDrawn.set(kind, geometry);
      const shift = <T extends { y: number }>(r: T) => ({ ...r, y: r.y + dy });
      drawOverlay(ctx, overlay, geometry.rects.map(shift), geometry.connectors.map((c) => ({ ...c, y0: c.y0 + dy, y1: c.y1 + dy })));
    }
  }

  /** The overlay's span under (x, y) (canvas pixels), the path's before the waits'. */
  private overlayAt(x: number, y: number): { kind: OverlayKind; index: number } | undefined {
    const cy = y + this.scrollY;
    for (const kind of ['path', 'waits'] as const) {
      const rects = this.overlaysDrawn.get(kind)?.rects ?? [];
      for (let i = rects.length - 1; i >= 0; i--) {
        const r = rects[i];
        if (x >= r.x - 1 && x <= r.x + r.w + 1 && cy >= r.y && cy <= r.y + r.h) return { kind, index: r.span };
      }
    }
    return undefined;
  }

  /** How many rows of the result and of the where filter the last frame drew. */
  get marksDrawn(): { result: number; where: number } {
    const n = { result: 0, where: 0 };
    for (const d of this.drawnMarks) n[d.source]++;
    return n;
  }

  /** The id ("S:I") of the window's entity that is `mark` (same container, type, value, times), if it holds it. */
  private itemFor(mark: Mark): string | null {
    const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
    for (const row of this.data?.rows ?? []) {
      if (row.container !== mark.container || (row.kind !== 'state' && row.kind !== 'event')) continue;
      if (mark.type !== undefined && this.types.get(row.type)?.name !== mark.type) continue;
      for (const it of row.items as (StateItem | EventItem)[]) {
        const end = 'end' in it ? it.end : null;
        if (!close(it.start, mark.start) || (mark.end === null ? end !== null && !close(end, it.start) : end === null || !close(end, mark.end))) continue;
        if ((mark.value === undefined || it.value === mark.value) && (mark.depth === undefined || !('level' in it) || it.level === mark.depth)) return it.id;
      }
    }
    return null;
  }

  /** After a window has come: inspects the focused mark's entity once the window holds its time. */
  private selectFocused(): void {
    const mark = this.focused, d = this.data;
    if (!mark || !d || d.start > mark.start || d.end < (mark.end ?? mark.start)) return;
    this.focused = null;
    const id = this.itemFor(mark);
    if (id) this.events.inspect(id);
  }

  private markAt(x: number, y: number): { mark: Mark; box: MarkBox } | undefined {
    for (let i = this.drawnMarks.length - 1; i >= 0; i--) {
      const { box } = this.drawnMarks[i];
      if (x >= box.x - 2 && x <= box.x + box.w + 2 && y >= box.y && y <= box.y + box.h) return this.drawnMarks[i];
    }
    return undefined;
  }

  private drawVariable(ctx: CanvasRenderingContext2D, row: WindowRow, by: number, bh: number): void {
    const items = row.items as VariableItem[];
    let lo = Infinity, hi = -Infinity;
    for (const it of items) { lo = Math.min(lo, it.number); hi = Math.max(hi, it.number); }
    for (const s of row.summaries) { lo = Math.min(lo, s.min ?? lo); hi = Math.max(hi, s.max ?? hi); }
    if (!(hi >= lo)) return;
    if (hi === lo) { hi += 1; lo -= lo === 0 ? 0 : 1; }
    const y = (v: number) => by + bh - ((v - lo) / (hi - lo)) * (bh - 2);
    // A step curve: consecutive values are joined by vertical steps, and the
    // area under it is tinted so the level reads at a glance.
    const base = by + bh;
    ctx.fillStyle = 'rgba(47, 111, 208, 0.13)';
    ctx.strokeStyle = '#2f6fd0';
    ctx.lineWidth = 1.2;
    const path = new Path2D();
    const area = new Path2D();
    let lastX = NaN;
    for (const it of items) {
      const x0 = toX(this.scale, it.start), x1 = toX(this.scale, it.end), yv = y(it.number);
      if (Math.abs(x0 - lastX) < 1.5) path.lineTo(x0, yv); else path.moveTo(x0, yv);
      path.lineTo(x1, yv);
      area.rect(x0, yv, Math.max(0.5, x1 - x0), base - yv);
      lastX = x1;
    }
    ctx.fill(area);
    ctx.stroke(path);
    ctx.strokeStyle = 'rgba(47, 111, 208, 0.6)';
    ctx.beginPath();
    for (const s of row.summaries) {
      const x = (toX(this.scale, s.start) + toX(this.scale, s.end)) / 2;
      ctx.moveTo(x, y(s.min ?? lo));
      ctx.lineTo(x, y(s.max ?? hi) - 0.5);
    }
    ctx.stroke();
    this.variableRange.set(`${row.container}:${row.type}`, [lo, hi]);
    this.stats.items += items.length;
  }

  private drawArrows(ctx: CanvasRenderingContext2D, links: LinkItem[], dy: number): void {
    ctx.strokeStyle = 'rgba(30, 30, 30, 0.75)';
    ctx.fillStyle = 'rgba(30, 30, 30, 0.75)';
    ctx.lineWidth = 1;
    for (const l of links) {
      const a = this.lineOf.get(l.from), b = this.lineOf.get(l.to);
      if (!a || !b) continue;
      const x0 = toX(this.scale, l.start), x1 = toX(this.scale, l.end);
      const y0 = a.y + a.h / 2 + dy, y1 = b.y + b.h / 2 + dy;
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      ctx.stroke();
      const angle = Math.atan2(y1 - y0, x1 - x0);
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x1 - 6 * Math.cos(angle - 0.4), y1 - 6 * Math.sin(angle - 0.4));
      ctx.lineTo(x1 - 6 * Math.cos(angle + 0.4), y1 - 6 * Math.sin(angle + 0.4));
      ctx.fill();
      this.stats.items++;
    }
  }

  private drawLabels(ctx: CanvasRenderingContext2D, dy: number, height: number): void {
    ctx.fillStyle = '#f1f3f6';
    ctx.fillRect(0, 0, LABEL_W, height);
    ctx.fillStyle = '#d5d9e0';
    ctx.fillRect(LABEL_W - 1, 0, 1, height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    for (const line of this.lines) {
      const y = line.y + dy;
      if (y > height || y + line.h < 0) continue;
      const x = 6 + line.depth * 12;
      const mid = y + Math.min(line.h, STATE_H) / 2 + 4;
      ctx.fillStyle = '#5b6270';
      if (line.hasChildren) ctx.fillText(this.filter.collapsed.has(line.container.id) ? '▸' : '▾', x, mid);
      ctx.fillStyle = '#1f2430';
      ctx.fillText(line.label, x + 12, mid, LABEL_W - x - 18);
      ctx.fillStyle = '#8a909c';
      ctx.font = '9px system-ui, sans-serif';
      line.bands.forEach((band, i) => {
        const range = this.variableRange.get(`${line.container.id}:${band.type.id}`);
        const text = range ? `${band.type.name}  ${formatNumber(range[0])} – ${formatNumber(range[1])}` : band.type.name;
        // The first band shares its line with the container's name.
        if (i > 0) ctx.fillText(text, x + 12, band.y + dy + band.h / 2 + 3, LABEL_W - x - 18);
      });
      ctx.font = '11px system-ui, sans-serif';
    }
  }

  private drawRuler(): void {
    const ctx = fitCanvas(this.ruler);
    const h = this.ruler.clientHeight;
    ctx.fillStyle = '#f1f3f6';
    ctx.fillRect(0, 0, this.ruler.clientWidth, h);
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'left';
    const [v0, v1] = this.view;
    const axis = fitAxis(this.time, v0, v1, this.scale.width, (text) => ctx.measureText(text).width);
    const right = this.scale.x0 + this.scale.width;
    this.rulerDrawn.labels = [];
    for (const { t, label } of axis.ticks) {
      const x = Math.round(toX(this.scale, t)) + 0.5;
      ctx.fillStyle = '#9aa0aa';
      ctx.fillRect(x, h - 8, 1, 8);
      if (x + 3 + ctx.measureText(label).width > right) continue;
      ctx.fillStyle = '#333';
      ctx.fillText(label, x + 3, h - 10);
      this.rulerDrawn.labels.push(label);
    }
    // Minor ticks at a fifth of the step.
    ctx.fillStyle = '#c3c7ce';
    const minor = axis.ticks.length > 1 ? (axis.ticks[1].t - axis.ticks[0].t) / 5 : 0;
    for (const { t } of minor > 0 ? [{ t: axis.ticks[0].t - 5 * minor }, ...axis.ticks] : []) for (let k = 1; k < 5; k++) {
      const x = toX(this.scale, t + k * minor);
      if (x > this.scale.x0 && x < right) ctx.fillRect(Math.round(x), h - 4, 1, 4);
    }
    ctx.fillStyle = '#f1f3f6';
    ctx.fillRect(0, 0, LABEL_W, h);
    ctx.fillStyle = '#5b6270';
    // The corner: the view's range; with wall-clock labels, the day they leave out and the view's length.
    const resolution = this.time.pixel(v1 - v0, this.scale.width);
    this.rulerDrawn.caption = axis.context
      ? `${axis.context} · ${this.time.length(v1 - v0, resolution)}`
      : this.time.range(v0, v1, resolution);
    ctx.fillText(this.rulerDrawn.caption, 6, h - 10, LABEL_W - 10);
    if (this.selecting) {
      const xa = toX(this.scale, this.selecting[0]), xb = toX(this.scale, this.selecting[1]);
      ctx.fillStyle = 'rgba(40, 90, 200, 0.3)';
      ctx.fillRect(Math.min(xa, xb), 0, Math.abs(xb - xa), h);
      // What the selection spans, above the ticks.
      const [a, b] = this.selecting[0] < this.selecting[1] ? this.selecting : [this.selecting[1], this.selecting[0]];
      const text = `${this.time.range(a, b, resolution)}  (${this.time.length(b - a, resolution)})`;
      const w = ctx.measureText(text).width;
      const x = Math.max(this.scale.x0 + 2, Math.min(Math.min(xa, xb), right - w - 2));
      ctx.fillStyle = 'rgba(241, 243, 246, 0.9)';
      ctx.fillRect(x - 2, 0, w + 4, 11);
      ctx.fillStyle = '#1f3f99';
      ctx.fillText(text, x, 9);
    }
    ctx.fillStyle = '#d5d9e0';
    ctx.fillRect(0, h - 1, this.ruler.clientWidth, 1);
  }

  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    if (x < LABEL_W || e.shiftKey) {
      this.scrollY = this.clampScroll(this.scrollY + (e.shiftKey ? e.deltaX || e.deltaY : e.deltaY));
      this.schedule();
      if (!this.covers()) this.refetchSoon();
      return;
    }
    const t = toTime(this.scale, x);
    const factor = Math.exp(Math.max(-1, Math.min(1, e.deltaY / 300)));
    const [s, end] = this.view;
    let ns = t - (t - s) * factor, ne = t + (end - t) * factor;
    if (this.trace) {
      // Never wider than the trace, never narrower than a few nanoseconds' worth.
      const full = this.trace.end - this.trace.start;
      if (ne - ns > full) { ns = this.trace.start; ne = this.trace.end; }
      if (ne - ns < full * 1e-9) return;
    }
    this.setView(ns, ne);
  }

  private clickLabel(y: number): void {
    const line = this.lineAt(y);
    if (line?.hasChildren) this.events.toggle(line.container.id);
  }

  private lineAt(y: number): Line | undefined {
    const cy = y + this.scrollY;
    return this.lines.find((l) => cy >= l.y && cy < l.y + l.h);
  }

  private hitAt(x: number, y: number): Hit | null {
    const d = this.data;
    const line = this.lineAt(y);
    if (!d || !line || this.where?.mode === 'hide') return null;
    const cy = y + this.scrollY;
    const t = toTime(this.scale, x);
    const tol = (4 * (this.view[1] - this.view[0])) / this.scale.width;
    const band = line.bands.find((b) => cy >= b.y - 2 && cy < b.y + b.h + 2);
    // Arrows cross lines: they are tested first, by distance to the segment.
    for (const row of d.rows) {
      if (row.kind !== 'link') continue;
      for (const it of row.items as LinkItem[]) {
        const a = this.lineOf.get(it.from), b = this.lineOf.get(it.to);
        if (!a || !b) continue;
        const x0 = toX(this.scale, it.start), x1 = toX(this.scale, it.end);
        const y0 = a.y + a.h / 2, y1 = b.y + b.h / 2;
        if (distanceToSegment(x, cy, x0, y0, x1, y1) <= 3) return { row, item: it, line: this.lineOf.get(row.container) ?? line };
      }
    }
    for (const row of d.rows) {
      if (!line.members.has(row.container)) continue;
      if (row.kind === 'state' && band?.type.id === row.type) {
        const level = Math.floor((cy - band.y) / LEVEL_INSET);
        let best: StateItem | undefined;
        for (const it of row.items as StateItem[]) {
          if (it.start <= t && t < it.end && it.level <= level && (!best || it.level > best.level)) best = it;
        }
        if (best) return { row, item: best, line };
        const s = row.summaries.find((m) => m.start - tol / 4 <= t && t <= m.end + tol / 4);
        if (s) return { row, summary: s, line };
      } else if (row.kind === 'event' && (!band || band === line.bands[0])) {
        const it = (row.items as EventItem[]).find((m) => Math.abs(m.start - t) <= tol);
        if (it) return { row, item: it, line };
        const s = row.summaries.find((m) => m.start - tol <= t && t <= m.end + tol);
        if (s) return { row, summary: s, line };
      } else if (row.kind === 'link' && cy < line.y + 9) {
        const s = row.summaries.find((m) => m.start - tol <= t && t <= m.end + tol);
        if (s) return { row, summary: s, line };
      } else if (row.kind === 'variable' && band?.type.id === row.type) {
        const it = (row.items as VariableItem[]).find((m) => m.start <= t && t < m.end);
        if (it) return { row, item: it, line };
        const s = row.summaries.find((m) => m.start <= t && t <= m.end);
        if (s) return { row, summary: s, line };
      }
    }
    return null;
  }

  private hover(e: PointerEvent): void {
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    if (x < LABEL_W) { hideTooltip(); return; }
    const over = this.overlayAt(x, y);
    if (over) {
      this.overlayTip(e, over.kind, over.index);
      return;
    }
    const hit = this.hitAt(x, y);
    const marked = hit ? undefined : this.markAt(x, y);
    this.canvas.style.cursor = (hit?.item && 'id' in hit.item) || marked ? 'pointer' : 'default';
    this.markHovered(hit?.item && 'id' in hit.item ? hit.item.id : '');
    // Times at the resolution of a pixel of this zoom.
    const resolution = this.time.pixel(this.view[1] - this.view[0], this.scale.width);
    const containerTip = (container: number) => {
      const c = this.containers.get(container);
      return { label: 'container', value: c ? c.path || c.name : String(container) };
    };
    if (marked) {
      const m = marked.mark;
      const lines: TipLine[] = [containerTip(m.container), { label: m.end === null ? 'time' : 'start', value: this.time.time(m.start, resolution) }];
      if (m.end !== null) lines.push({ label: 'end', value: this.time.time(m.end, resolution) });
      showTooltip(e.clientX, e.clientY, [m.type, m.value].filter((v) => v !== undefined).join(' · ') || `row ${m.row + 1}`, lines, 'click to inspect');
      return;
    }
    if (!hit) { hideTooltip(); return; }
    const type = this.types.get(hit.row.type);
    const lines: TipLine[] = [containerTip(hit.row.container)];
    if (hit.summary) {
      const s = hit.summary;
      if (s.value !== undefined) lines.push({ label: 'dominant', value: s.value, color: this.palette.color(type?.name ?? '', s.value) });
      if (s.min !== undefined) lines.push({ label: 'min – max', value: `${formatNumber(s.min)} – ${formatNumber(s.max ?? s.min)}` });
      lines.push({ label: 'time', value: this.time.range(s.start, s.end, resolution) });
      showTooltip(e.clientX, e.clientY, `${s.count} ${type?.name ?? ''} entities merged`, lines, 'too small to draw one by one: zoom in to see them');
      return;
    }
    const it = hit.item!;
    if ('value' in it) lines.unshift({ label: 'value', value: it.value, color: this.palette.color(type?.name ?? '', it.value) });
    if ('number' in it) lines.unshift({ label: 'value', value: formatNumber(it.number) });
    lines.push({ label: 'end' in it ? 'start' : 'time', value: this.time.time(it.start, resolution) });
    if ('end' in it) lines.push({ label: 'end', value: this.time.time(it.end, resolution) }, { label: 'duration', value: this.time.length(it.end - it.start, resolution) });
    if ('level' in it) lines.push({ label: 'level', value: String(it.level) });
    if ('from' in it) lines.push({ label: 'from → to', value: `${this.containers.get(it.from)?.name ?? it.from} → ${this.containers.get(it.to)?.name ?? it.to}` });
    showTooltip(e.clientX, e.clientY, `${type?.name ?? 'entity'} · ${'value' in it ? it.value : formatNumber((it as VariableItem).number)}`, lines,
      'id' in it ? 'click to inspect' : undefined);
  }

  /** A wait's pattern, the container it waited for and its length; a segment's function or state and its length. */
  private overlayTip(e: PointerEvent, kind: OverlayKind, index: number): void {
    const s = this.overlays.get(kind)!.spans[index];
    const resolution = this.time.pixel(this.view[1] - this.view[0], this.scale.width);
    const c = this.containers.get(s.container);
    const lines: TipLine[] = [{ label: 'container', value: c ? c.path || c.name : String(s.container) }];
    if (s.peer !== undefined) lines.push({ label: 'waits for', value: s.peer });
    lines.push({ label: kind === 'waits' ? 'waits' : 'length', value: `${this.time.length(s.end - s.start, resolution)} (${s.ns} ns)` },
      { label: 'start', value: this.time.time(s.start, resolution) }, { label: 'end', value: this.time.time(s.end, resolution) });
    this.canvas.style.cursor = 'default';
    showTooltip(e.clientX, e.clientY, kind === 'waits' ? s.title : `critical path · ${s.title}`, lines);
  }

  private click(x: number, y: number): void {
    const hit = this.hitAt(x, y);
    if (!hit) {
      const marked = this.markAt(x, y);
      const id = marked && this.itemFor(marked.mark);
      if (id) this.events.inspect(id);
      return;
    }
    if (hit.summary) {
      // A summary opens onto what it stands for.
      const pad = (hit.summary.end - hit.summary.start) * 0.5 || (this.view[1] - this.view[0]) / 100;
      this.setView(hit.summary.start - pad, hit.summary.end + pad);
      return;
    }
    if (hit.item && 'id' in hit.item) this.events.inspect(hit.item.id);
  }
}

function distanceToSegment(px: number, py: number, x0: number, y0: number, x1: number, y1: number): number {
  const dx = x1 - x0, dy = y1 - y0;
  const len2 = dx * dx + dy * dy;
  const f = len2 > 0 ? Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2)) : 0;
  return Math.hypot(px - (x0 + f * dx), py - (y0 + f * dy));
}
