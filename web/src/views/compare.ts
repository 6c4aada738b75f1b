// The compare mode (docs/compare.md, "In the workbench"), `?trace=A&compare=B`:
// two space-time diagrams stacked, A above B, each labelled with its trace's
// name, on one time axis aligned at the runs' starts as
// differential_overview() aligns them, and one window for both (the URL's
// gantt=, in A's model time): a wheel, a pan or a selection on either moves
// both. Above them the strip of the parts of differential_overview(B)
// queried on A, coloured by how much the runs differ there (a click zooms
// both onto the part); below, the profile difference profile_diff(B,
// 'function'), a row clicked highlighting that function's states in both
// diagrams the way the flame graph highlights a frame's (functionStatesSql,
// resultMarks, Gantt.setResult).

import type { Api, TraceDetail, TraceEntry } from '../api';
import { type Palette, splitModelType } from '../colors';
import { alignedWindow, diffParts, type DiffPart, factsText, partIntensity, partitionFacts, type RunClock, runTime } from '../compare';
import { functionStatesSql, sqlText } from '../flame';
import { columnIndex, type QueryResult, resultMarks } from '../query';
import { traceLabel } from '../reading';
import type { ViewState } from '../state/url';
import { TimeDisplay } from '../time';
import { HIGHLIGHT_LIMIT } from './analyses';
import { fitCanvas } from './canvas';
import { Gantt, plotScale } from './gantt';
import { toX } from './layout';
import { ResultTable } from './table';
import { hideTooltip, showTooltip } from './tooltip';

/** What the view needs of the page. */
export interface CompareHost {
  api: Api;
  palette: Palette;
  /** The shared window moved by a wheel or a pan (A's model times): kept in the URL without a history entry. */
  viewChanged(window: [number, number]): void;
  /** A change of what is looked at: a history entry (a part clicked, a range selected, the comparison left). */
  navigate(patch: Partial<ViewState>): void;
  track<T>(work: Promise<T>): Promise<T>;
  error(err: unknown): void;
  changed(): void;
}

/** One run: its trace, its clock on the aligned axis, its diagram. */
interface Side {
  index: number | null;
  trace: TraceDetail | null;
  time: TimeDisplay;
  gantt: Gantt;
  label: HTMLElement;
  collapsed: Set<number>;
  highlighted: number;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The profile difference's columns as the table shows them. */
const PROFILE_SQL = (other: number) => `SELECT function, inclusive_a_ns AS "A (ns)", inclusive_b_ns AS "B (ns)", `
  + `inclusive_diff_ns AS "B − A (ns)", inclusive_ratio AS "B / A" FROM profile_diff(${sqlText(String(other))}, 'function')`;

export class CompareView {
  private readonly panel = $('compare-panel');
  private readonly strip = $<HTMLCanvasElement>('compare-strip');
  /** What the strip's partition states (p, parts, gain, loss). */
  private readonly facts = $('compare-facts');
  private readonly select = $<HTMLSelectElement>('compare');
  private readonly a: Side;
  private readonly b: Side;
  private readonly table: ResultTable;
  private parts: DiffPart[] = [];
  private partsShown: { part: number; x: number; w: number }[] = [];
  /** The shared window, in A's model time. */
  private view: [number, number] = [0, 1];
  private asked = '';
  private seq = 0;
  private highlightSeq = 0;
  private highlighted: string | null = null;
  private active = false;
  /** The trace list and what apply() was last given: B opened once the server has read it. */
  private traces: TraceEntry[] = [];
  private last: { state: ViewState; trace: TraceDetail | null } | null = null;
  busy = false;

  constructor(private readonly host: CompareHost) {
    const side = (name: 'a' | 'b'): Side => {
      const time = new TimeDisplay();
      const s: Side = {
        index: null, trace: null, time, label: $(`compare-label-${name}`), collapsed: new Set(), highlighted: 0,
        gantt: new Gantt($(`compare-gantt-${name}`), $(`compare-ruler-${name}`), host.api, () => s.index ?? 0, host.palette, time, {
          select: (x, y) => this.choose(this.toA(s, [x, y])),
          viewChanged: (x, y) => this.moved(s, [x, y]),
          inspect: () => {},
          toggle: (c) => {
            if (!s.collapsed.delete(c)) s.collapsed.add(c);
            s.gantt.setFilter(this.filter(s));
          },
        }),
      };
      s.gantt.onChange = () => { this.drawStrip(); host.changed(); };
      return s;
    };
    this.a = side('a');
    this.b = side('b');
    this.table = new ResultTable($('compare-table'), (row) => void this.pick(row), 1000, () => host.changed());
    this.select.addEventListener('change', () => {
      const value = this.select.value;
      host.navigate({ compare: value === '' ? null : Number(value), gantt: null });
    });
    $('compare-close').addEventListener('click', () => host.navigate({ compare: null, gantt: null }));
    this.strip.addEventListener('pointermove', (e) => this.hover(e));
    this.strip.addEventListener('pointerleave', () => hideTooltip());
    this.strip.addEventListener('click', (e) => this.clickStrip(e));
    new ResizeObserver(() => this.drawStrip()).observe(this.strip);
  }

  /** The "Compare with…" selector: every other trace, those still being read disabled. */
  list(traces: TraceEntry[], state: ViewState): void {
    this.traces = traces;
    const keep = new Set(traces.filter((t) => t.id !== state.trace).map((t) => String(t.id)));
    for (const option of [...this.select.options]) if (option.value !== '' && !keep.has(option.value)) option.remove();
    if (!this.select.options.length) this.select.add(new Option('compare with…', ''));
    for (const entry of traces) {
      if (entry.id === state.trace) continue;
      let option = [...this.select.options].find((o) => o.value === String(entry.id));
      if (!option) this.select.add(option = new Option(entry.name, String(entry.id)));
      option.textContent = traceLabel(entry);
      option.disabled = entry.state !== 'ready';
    }
    this.select.value = state.compare === null ? '' : String(state.compare);
    this.select.hidden = traces.length < 2;
    const waited = this.last;
    if (this.active && waited && this.b.index === null && traces.find((t) => t.id === waited.state.compare)?.state === 'ready') {
      void this.apply(waited.state, waited.trace);
    }
  }

  get comparing(): boolean { return this.active; }

  /** The URL's state: shown (A the open trace, B compare=) or hidden. */
  async apply(state: ViewState, trace: TraceDetail | null): Promise<void> {
    this.active = state.compare !== null && trace !== null;
    this.last = { state, trace };
    document.body.classList.toggle('comparing', this.active);
    this.panel.hidden = !this.active;
    // The panels beside it (overview, quality curves, query, statistics) are A's: their headings say so.
    for (const h of document.querySelectorAll<HTMLElement>('.panel:not(.compare-panel) h2')) {
      if (this.active && trace) {
        h.dataset.of = 'A';
        h.title = `Of A: ${trace.name}`;
      } else {
        delete h.dataset.of;
        h.removeAttribute('title');
      }
    }
    if (!this.active || !trace || state.compare === null) { this.a.index = this.b.index = null; return; }
    const seq = ++this.seq;
    if (this.a.index !== state.trace || this.a.trace !== trace) this.setSide(this.a, state.trace, trace);
    // B still being read: its progress, until list() sees it ready.
    const entry = this.traces.find((t) => t.id === state.compare);
    if (entry && entry.state !== 'ready') {
      this.b.index = null;
      this.b.trace = null;
      this.b.label.textContent = `B: ${traceLabel(entry)}`;
      this.host.changed();
      return;
    }
    if (this.b.index !== state.compare || !this.b.trace) {
      this.b.index = state.compare;
      this.b.trace = null;
      try {
        const other = await this.host.track(this.host.api.trace(state.compare));
        if (seq !== this.seq) return;
        this.setSide(this.b, state.compare, other);
      } catch (err) { this.host.error(err); return; }
    }
    this.show(state.gantt ?? state.range ?? this.union());
    const asked = `${state.trace}/${state.compare}`;
    if (asked !== this.asked) {
      this.asked = asked;
      void this.load(state.trace, state.compare, seq);
    }
    this.host.changed();
  }

  private setSide(s: Side, index: number, trace: TraceDetail): void {
    s.index = index;
    s.trace = trace;
    s.collapsed.clear();
    s.time.set(trace.time, trace.start);
    s.label.textContent = `${s === this.a ? 'A' : 'B'}: ${trace.name}`;
    s.label.title = `${trace.format} · ${s.time.length(trace.end - trace.start, s.time.exact)}`;
    s.gantt.setTrace(trace);
    s.gantt.setFilter(this.filter(s));
    s.gantt.setResult([]);
    s.highlighted = 0;
    this.highlighted = null;
  }

  private filter(s: Side) {
    return { types: [], values: [], containers: [], collapsed: new Set(s.collapsed), group: null, rank: null };
  }

  /** A's type names, which model types ("Type:value") begin with. */
  private typeNames(): string[] {
    return this.a.trace?.types.filter((t) => t.kind !== 'container').map((t) => t.name) ?? [];
  }

  private clock(s: Side): RunClock {
    return { start: s.trace?.start ?? 0, secondsPerTick: s.time.clock.secondsPerTick };
  }

  /** A window of side `s` as A's. */
  private toA(s: Side, w: [number, number]): [number, number] {
    return s === this.a ? w : alignedWindow(this.clock(this.b), this.clock(this.a), w);
  }

  /** Both runs whole, on A's time. */
  private union(): [number, number] {
    const a = this.a.trace, b = this.b.trace;
    if (!a || !b) return [0, 1];
    const [, bEnd] = alignedWindow(this.clock(this.b), this.clock(this.a), [b.start, b.end]);
    return [a.start, Math.max(a.end, bEnd)];
  }

  /** Both diagrams onto `w` (A's time), B's the same aligned window. */
  private show(w: [number, number]): void {
    this.view = w;
    this.a.gantt.setView(w[0], w[1], false);
    const [x, y] = alignedWindow(this.clock(this.a), this.clock(this.b), w);
    this.b.gantt.setView(x, y, false);
    this.drawStrip();
  }

  /** A wheel or a pan on one diagram: the other follows, the URL keeps it. */
  private moved(s: Side, w: [number, number]): void {
    const inA = this.toA(s, w);
    this.view = inA;
    if (s === this.a) this.b.gantt.setView(...alignedWindow(this.clock(this.a), this.clock(this.b), inA), false);
    else this.a.gantt.setView(inA[0], inA[1], false);
    this.drawStrip();
    this.host.viewChanged(inA);
  }

  private choose(w: [number, number]): void {
    if (w[1] > w[0]) this.host.navigate({ gantt: w });
  }

  /** The strip's parts and the profile difference, asked of A with B as `other`. */
  private async load(a: number, b: number, seq: number): Promise<void> {
    this.parts = [];
    this.facts.textContent = '';
    this.table.set(null);
    this.busy = true;
    this.host.changed();
    const ask = (sql: string) => this.host.track(this.host.api.query(a, sql, 100000));
    try {
      const [overview, profile] = await Promise.all([
        ask(`SELECT * FROM differential_overview(${sqlText(String(b))})`), ask(PROFILE_SQL(b)),
      ]);
      if (seq !== this.seq) return;
      this.parts = diffParts(overview);
      const facts = partitionFacts(overview);
      this.facts.textContent = facts ? factsText(facts) : '';
      this.table.set(profile);
    } catch (err) {
      if (seq === this.seq) this.host.error(err);
    } finally {
      if (seq === this.seq) this.busy = false;
    }
    this.drawStrip();
    this.host.changed();
  }

  /** A row of the profile difference clicked: its function's states highlighted in both diagrams. */
  private async pick(row: number): Promise<void> {
    const result = this.table.result;
    const cells = result?.rows[row];
    const at = columnIndex(result?.columns ?? [], 'function');
    if (!cells || at < 0) return;
    const fn = String(cells[at]);
    const seq = ++this.highlightSeq;
    const sql = functionStatesSql(fn);
    try {
      const answers = await Promise.all([this.a, this.b].map((s) => this.host.track(this.host.api.query(s.index ?? 0, sql, HIGHLIGHT_LIMIT))));
      if (seq !== this.highlightSeq) return;
      [this.a, this.b].forEach((s, i) => this.mark(s, answers[i]));
      this.highlighted = fn;
    } catch (err) { this.host.error(err); }
    this.host.changed();
  }

  private mark(s: Side, result: QueryResult): void {
    const marks = resultMarks(result) ?? [];
    s.highlighted = marks.length;
    s.gantt.setResult(marks);
  }

  private drawStrip(): void {
    if (!this.active) return;
    const ctx = fitCanvas(this.strip);
    const width = this.strip.clientWidth, height = this.strip.clientHeight;
    const scale = plotScale(this.view, width);
    ctx.fillStyle = '#f6f7f9';
    ctx.fillRect(scale.x0, 0, scale.width, height);
    ctx.fillStyle = '#6b7280';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.fillText(this.parts.length ? 'B − A: where the runs differ' : this.busy ? 'differential overview…' : '', 8, height / 2);
    this.partsShown = [];
    const a = this.clock(this.a);
    for (const part of this.parts) {
      const x0 = Math.max(scale.x0, toX(scale, runTime(a, part.start)));
      const x1 = Math.min(scale.x0 + scale.width, toX(scale, runTime(a, part.end)));
      if (x1 <= x0) continue;
      const k = partIntensity(part, this.parts);
      ctx.fillStyle = `rgba(200, 50, 40, ${(0.06 + 0.84 * k).toFixed(3)})`;
      ctx.fillRect(x0, 2, x1 - x0, height - 4);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(x1 - 1, 2, 1, height - 4);
      this.partsShown.push({ part: part.part, x: x0, w: x1 - x0 });
    }
  }

  private partAt(e: MouseEvent): DiffPart | undefined {
    const x = e.clientX - this.strip.getBoundingClientRect().left;
    const shown = this.partsShown.find((p) => x >= p.x && x < p.x + p.w);
    return shown && this.parts.find((p) => p.part === shown.part);
  }

  private hover(e: PointerEvent): void {
    const part = this.partAt(e);
    if (!part) { hideTooltip(); return; }
    const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
    const resolution = this.a.time.pixel(this.view[1] - this.view[0], Math.max(1, this.strip.clientWidth));
    const a = this.clock(this.a);
    showTooltip(e.clientX, e.clientY, `part ${part.part} · rank ${part.rank}`, [
      { label: 'interval', value: this.a.time.range(runTime(a, part.start), runTime(a, part.end), resolution) },
      { label: '|B − A|', value: `${part.rate.toPrecision(3)} /s (A ${part.aRate.toPrecision(3)}, B ${part.bRate.toPrecision(3)})` },
      ...part.types.map((t) => ({
        label: t.type, value: `${pct(t.a)} → ${pct(t.b)} (${t.change >= 0 ? '+' : '−'}${pct(Math.abs(t.change))})`,
        color: this.host.palette.color(...splitModelType(t.type, this.typeNames())),
      })),
    ], 'click: zoom both diagrams onto this part');
  }

  private clickStrip(e: MouseEvent): void {
    const part = this.partAt(e);
    if (!part) return;
    const a = this.clock(this.a);
    this.choose([runTime(a, part.start), runTime(a, part.end)]);
  }

  /** What the page's test hook reads. */
  hook(): unknown {
    if (!this.active) return null;
    const side = (s: Side) => ({
      trace: s.index, name: s.trace?.name ?? null, label: s.label.textContent, start: s.gantt.viewRange[0], end: s.gantt.viewRange[1],
      marks: s.gantt.marksDrawn.result, highlighted: s.highlighted, lines: s.gantt.lineLabels.length, loading: s.gantt.stats.loading,
      items: s.gantt.stats.items,
    });
    const r = this.strip.getBoundingClientRect();
    return {
      a: side(this.a), b: side(this.b), view: this.view, busy: this.busy,
      parts: this.parts.map((p) => ({ part: p.part, start: p.start, end: p.end })),
      strip: this.partsShown.map((p) => ({ ...p, x: p.x + r.left, y: r.top + r.height / 2 })),
      rows: this.table.result?.rows.length ?? 0, order: this.table.order.slice(0, 50), highlighted: this.highlighted,
    };
  }

  get loading(): boolean { return this.active && (this.busy || this.a.gantt.stats.loading || this.b.gantt.stats.loading); }
}
