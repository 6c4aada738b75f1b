// The analysis panel under the space-time diagram: one tab per analysis
// the server answers in SQL (docs/query.md), each following the diagram's
// range (debounced) —
//   profile: the flame graph of call_tree() and the flat profile_total();
//   comm: the heatmap of comm(level, start, end);
//   latency: kernel_latency(kind) and the histogram of the row clicked;
//   waits, path: the wait states and the critical path, drawn over the
//   diagram (overlaytabs.ts).
// Clicking a frame or a cell highlights its entities in the diagram
// through the query highlights (resultMarks).

import type { Api, TraceDetail } from '../api';
import { type CallNode, callNodes, functionStatesSql, rootTotal, sqlText, subtreeSql } from '../flame';
import { commMatrix, type CommMatrix, rampColor, shortPath } from '../comm';
import { columnIndex, type QueryResult, ticksLiteral } from '../query';
import type { OverlayKind } from '../overlay';
import type { Panel } from '../state/url';
import { fitCanvas } from './canvas';
import { FlameGraph, nsText } from './flamegraph';
import { type OverlayPage, PathTab, WaitsTab } from './overlaytabs';
import { ResultTable } from './table';
import { hideTooltip, showTooltip } from './tooltip';

/** What the panel needs of the page. */
export interface AnalysisHost extends OverlayPage {
  api: Api;
  trace(): TraceDetail | null;
  /** The query tables' tick origin (docs/serve.md). */
  origin(): Promise<string>;
  /** The diagram's range (model times) and the selected containers. */
  range(): [number, number];
  containers(): number[];
  /** A function's colour in the diagram. */
  colorOf(fn: string, type: string | null): string;
  /** The rows of `sql` highlighted in the diagram (null: none), with a caption. */
  highlight(sql: string | null, caption: string): void;
  open(panel: Panel): void;
  changed(): void;
}

const TABS = ['profile', 'comm', 'latency', 'waits', 'path'] as const;

/** The highlights' rows at most. */
export const HIGHLIGHT_LIMIT = 20000;
const DEBOUNCE_MS = 400;
const CELL_MIN = 6;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export class AnalysisPanel {
  private panel: Panel = '';
  private timer = 0;
  private seq = 0;
  private asked = '';
  /** Each function's state type, asked once per trace. */
  private fnType = new Map<string, string>();
  private readonly flame: FlameGraph;
  private readonly profile: ResultTable;
  private readonly latency: ResultTable;
  private latencyResult: QueryResult | null = null;
  private matrix: CommMatrix | null = null;
  private matrixBox = { x: 0, y: 0, cell: 0 };
  private histogram: QueryResult | null = null;
  private readonly waits: WaitsTab;
  private readonly path: PathTab;
  /** The key the overlays were last asked for (their tab may be closed while they are drawn). */
  private overlayAsked = { waits: '', path: '' };
  /** For the test hook. */
  drawn = {
    panel: '' as Panel, window: ['', ''] as [string, string], container: null as string | null, error: '',
    flame: [] as FlameGraph['drawn'], focus: null as number | null, rootTotal: 0, profileRows: 0, profileOrder: [] as number[],
    comm: { level: 0, metric: 'bytes', ends: [] as string[], cells: [] as { sender: string; receiver: string; messages: number; bytes: number | null; x: number; y: number }[] },
    latency: { kind: '', rows: [] as unknown[][], histogram: [] as unknown[][], name: '' },
  };

  constructor(private readonly host: AnalysisHost) {
    this.flame = new FlameGraph($('flame'), (fn) => host.colorOf(fn, this.fnType.get(fn) ?? null), {
      pick: (node) => this.pickFrame(node),
    });
    this.profile = new ResultTable($('profile-table'), (row) => this.pickFunction(row), 1000, () => this.sorted());
    this.latency = new ResultTable($('latency-table'), (row) => void this.loadHistogram(row), 1000, () => this.sorted());
    for (const p of TABS) {
      $(`tab-${p}-button`).addEventListener('click', () => host.open(this.panel === p ? '' : p));
    }
    const overlayHost = { ...host, ask: (sql: string, limit?: number) => this.ask(sql, limit) };
    this.waits = new WaitsTab(overlayHost);
    this.path = new PathTab(overlayHost);
    $('comm-level').addEventListener('change', () => void this.load());
    $('comm-metric').addEventListener('change', () => this.drawMatrix());
    $('latency-kind').addEventListener('change', () => void this.load());
    const comm = $<HTMLCanvasElement>('comm');
    comm.addEventListener('pointermove', (e) => this.hoverCell(e));
    comm.addEventListener('pointerleave', () => hideTooltip());
    comm.addEventListener('click', (e) => this.clickCell(e));
    new ResizeObserver(() => { this.drawMatrix(); this.drawHistogram(); }).observe($('analysis-panel'));
  }

  /** A new trace: nothing asked yet. */
  reset(): void {
    this.fnType.clear();
    this.asked = '';
    this.matrix = null;
    this.latencyResult = this.histogram = null;
    this.overlayAsked = { waits: '', path: '' };
    this.waits.reset();
    this.path.reset();
    const trace = this.host.trace();
    const kernel = !!trace?.types.some((t) => t.alias === 'ctf.cpu');
    $('tab-latency-button').hidden = !kernel;
    $('kernel-latency-shortcut').hidden = !kernel;
    const level = $<HTMLSelectElement>('comm-level');
    level.replaceChildren(new Option('ends', '0'));
    // The tree's depth: a container's is its parent's plus one (parents come before their children).
    const depth = new Map<number, number>();
    let deepest = 0;
    for (const c of trace?.containers ?? []) {
      const d = (depth.get(c.parent) ?? 0) + 1;
      depth.set(c.id, d);
      deepest = Math.max(deepest, d);
    }
    for (let l = 1; l <= deepest; l++) level.add(new Option(`level ${l}`, String(l)));
  }

  /** The tab shown ('' none). */
  show(panel: Panel): void {
    this.panel = panel;
    this.drawn.panel = panel;
    for (const p of TABS) {
      $(`tab-${p}`).hidden = p !== panel;
      $(`tab-${p}-button`).setAttribute('aria-pressed', String(p === panel));
    }
    $('analysis-panel').classList.toggle('open', panel !== '');
    if (panel) this.viewChanged(0);
  }

  /** The diagram's range or containers changed: asked again once they rest. */
  viewChanged(delay = DEBOUNCE_MS): void {
    window.clearTimeout(this.timer);
    const marked = (['waits', 'path'] as const).some((kind) => this.host.marked(kind));
    this.waiting = !!this.panel || marked;
    if (this.waiting) this.timer = window.setTimeout(() => { this.waiting = false; void this.load(); }, delay);
    this.host.changed();
  }

  /** The URL's marks= or tid= changed: the overlays drawn or not, asked when not yet. */
  marksChanged(): void {
    this.waits.show();
    this.path.show();
    this.viewChanged(0);
  }

  /** Asking, or about to. */
  get busy(): boolean { return this.loading > 0 || this.waiting; }
  private loading = 0;
  private waiting = false;

  private async window(): Promise<[string, string, string | null]> {
    const trace = this.host.trace()!;
    const origin = await this.host.origin();
    const whole = trace.time?.whole_ticks ?? false;
    const [a, b] = this.host.range();
    const ids = this.host.containers();
    const path = ids.length === 1 ? trace.containers.find((c) => c.id === ids[0])?.path ?? null : null;
    return [ticksLiteral(a, origin, whole, 'floor'), ticksLiteral(b, origin, whole, 'ceil'), path];
  }

  private async ask(sql: string, limit?: number): Promise<QueryResult> {
    const trace = this.host.trace()!;
    return this.host.api.query(trace.id, sql, limit);
  }

  private async load(): Promise<void> {
    const trace = this.host.trace();
    if (!trace) return;
    // The overlays drawn while their tab is closed follow the view too.
    for (const kind of ['waits', 'path'] as const) {
      if (kind !== this.panel && this.host.marked(kind)) void this.loadOverlay(kind).catch((err) => this.fail(err));
    }
    if (!this.panel) return;
    const seq = ++this.seq;
    this.loading++;
    this.host.changed();
    try {
      const [lo, hi, path] = await this.window();
      const container = path === null ? 'NULL' : sqlText(path);
      const key = `${trace.id} ${this.panel} ${lo} ${hi} ${container} ${$<HTMLSelectElement>('comm-level').value} ${$<HTMLSelectElement>('latency-kind').value} ${this.path.key()}`;
      if (key === this.asked) return;
      this.drawn.window = [lo, hi];
      this.drawn.container = path;
      this.drawn.error = '';
      $('analysis-error').hidden = true;
      if (this.panel === 'profile') {
        const [tree, total] = await Promise.all([
          this.ask(`SELECT * FROM call_tree(${lo}, ${hi}, ${container})`, 100000),
          this.ask(`SELECT * FROM profile_total(${lo}, ${hi}, ${container})`, 100000),
        ]);
        if (seq !== this.seq) return;
        const nodes = callNodes(tree);
        await this.learnTypes(nodes);
        if (seq !== this.seq) return;
        this.flame.set(nodes);
        this.profile.set(total);
        this.drawn.rootTotal = rootTotal(nodes);
        this.drawn.profileRows = total.rows.length;
        $('analysis-info').textContent = `${nodes.length} calling contexts · ${total.rows.length} functions · ${nsText(rootTotal(nodes))} at the top`
          + (path ? ` · of ${path}` : '');
      } else if (this.panel === 'comm') {
        const level = Number($<HTMLSelectElement>('comm-level').value);
        const result = await this.ask(`SELECT * FROM comm(${level || 'NULL'}, ${lo}, ${hi})`, 100000);
        if (seq !== this.seq) return;
        this.matrix = commMatrix(result);
        this.drawn.comm.level = level;
        $('analysis-info').textContent = `${this.matrix.cells.length} pairs · ${this.matrix.cells.reduce((s, c) => s + c.messages, 0)} messages`;
        this.drawMatrix();
      } else if (this.panel === 'waits' || this.panel === 'path') {
        const info = await this.loadOverlay(this.panel, () => seq === this.seq);
        if (seq !== this.seq) return;
        $('analysis-info').textContent = info;
      } else {
        const kind = $<HTMLSelectElement>('latency-kind').value;
        const result = await this.ask(`SELECT * FROM kernel_latency(${sqlText(kind)})`, 100000);
        if (seq !== this.seq) return;
        this.latencyResult = result;
        this.latency.set(result);
        this.histogram = null;
        this.drawHistogram();
        this.drawn.latency = { kind, rows: result.rows, histogram: [], name: '' };
        $('analysis-info').textContent = `${result.rows.length} ${kind === 'sched' ? 'threads' : 'names'} · the whole trace`;
      }
      this.asked = key;
    } catch (err) {
      if (seq === this.seq) this.fail(err);
    } finally {
      this.loading--;
      this.host.changed();
    }
  }

  private fail(err: unknown): void {
    this.drawn.error = (err as Error).message;
    $('analysis-error').textContent = (err as Error).message;
    $('analysis-error').hidden = false;
  }

  /**
   * The waits of the view, or the critical path (the whole trace's, or the
   * thread's), unless asked already for the same; its info line ('' when
   * not asked again).
   */
  private async loadOverlay(kind: OverlayKind, current: () => boolean = () => true): Promise<string> {
    const [lo, hi, path] = await this.window();
    const container = path === null ? 'NULL' : sqlText(path);
    const key = kind === 'waits' ? `${this.host.trace()?.id} ${lo} ${hi} ${container}` : `${this.host.trace()?.id} ${this.path.key()}`;
    if (key === this.overlayAsked[kind] && kind !== this.panel) return '';
    this.overlayAsked[kind] = key;
    this.loading++;
    try {
      return kind === 'waits' ? await this.waits.load(lo, hi, container, current) : await this.path.load(current);
    } catch (err) {
      this.overlayAsked[kind] = '';
      throw err;
    } finally {
      this.loading--;
      this.host.changed();
    }
  }

  /** The state type of each function not known yet (its colour is its value's colour in that type). */
  private async learnTypes(nodes: CallNode[]): Promise<void> {
    const unknown = [...new Set(nodes.map((n) => n.fn))].filter((f) => !this.fnType.has(f));
    for (let i = 0; i < unknown.length; i += 500) {
      const part = unknown.slice(i, i + 500);
      const result = await this.ask(`SELECT value, min(type) FROM states WHERE value IN (${part.map(sqlText).join(', ')}) GROUP BY value`);
      for (const [v, t] of result.rows) this.fnType.set(String(v), String(t));
      for (const f of part) if (!this.fnType.has(f)) this.fnType.set(f, '');
    }
  }

  private sorted(): void {
    this.drawn.profileOrder = this.profile.order.slice(0, 50);
    this.host.changed();
  }

  /** The states of a function in the window (and the container asked), highlighted in the diagram. */
  private async highlightFunction(fn: string | null): Promise<void> {
    if (fn === null) { this.host.highlight(null, ''); return; }
    const [lo, hi, path] = await this.window();
    this.host.highlight(functionStatesSql(fn, { lo, hi, path }), `the states of ${fn}`);
  }

  private pickFrame(node: CallNode | null): void {
    this.drawn.flame = this.flame.drawn;
    void this.highlightFunction(node?.fn ?? null);
    this.host.changed();
  }

  private pickFunction(row: number): void {
    const cells = this.profile.result?.rows[row];
    const at = columnIndex(this.profile.result?.columns ?? [], 'function');
    if (cells && at >= 0) void this.highlightFunction(String(cells[at]));
  }

  hook(): AnalysisPanel['drawn'] & { waits: WaitsTab['drawn']; path: PathTab['drawn'] } {
    this.drawn.flame = this.flame.drawn;
    this.drawn.focus = this.flame.focused;
    return { ...this.drawn, waits: this.waits.drawn, path: this.path.drawn };
  }

  private drawMatrix(): void {
    const canvas = $<HTMLCanvasElement>('comm');
    const m = this.matrix;
    const metric = $<HTMLSelectElement>('comm-metric').value as 'bytes' | 'messages';
    this.drawn.comm = { ...this.drawn.comm, metric, ends: m?.ends ?? [], cells: [] };
    if (!m || this.panel !== 'comm') { fitCanvas(canvas); return; }
    const n = Math.max(1, m.ends.length);
    const label = Math.min(180, 16 + 6 * Math.max(0, ...m.ends.map((e) => Math.min(e.length, 28))));
    const width = canvas.clientWidth;
    const cell = Math.max(CELL_MIN, Math.min(40, Math.floor((width - label - 10) / n)));
    canvas.style.height = `${label + cell * n + 10}px`;
    const ctx = fitCanvas(canvas);
    const x0 = label, y0 = label;
    this.matrixBox = { x: x0, y: y0, cell };
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#f4f5f7';
    ctx.fillRect(x0, y0, cell * n, cell * n);
    const max = metric === 'bytes' && m.max.bytes > 0 ? m.max.bytes : m.max.messages;
    const useBytes = metric === 'bytes' && m.max.bytes > 0;
    for (const c of m.cells) {
      const v = useBytes ? c.bytes ?? 0 : c.messages;
      ctx.fillStyle = rampColor(v, max);
      const x = x0 + c.col * cell, y = y0 + c.row * cell;
      ctx.fillRect(x, y, cell - (cell > 8 ? 1 : 0), cell - (cell > 8 ? 1 : 0));
      this.drawn.comm.cells.push({ sender: c.sender, receiver: c.receiver, messages: c.messages, bytes: c.bytes, x: x + cell / 2, y: y + cell / 2 });
    }
    // Senders down the left, receivers across the top (turned).
    ctx.fillStyle = '#333';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    const chars = Math.floor((label - 8) / 6);
    const step = Math.max(1, Math.ceil(12 / cell));
    m.ends.forEach((e, i) => { if (i % step === 0) ctx.fillText(shortPath(e, chars), x0 - 4, y0 + i * cell + cell / 2); });
    ctx.save();
    ctx.translate(x0, y0 - 4);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'left';
    m.ends.forEach((e, i) => { if (i % step === 0) ctx.fillText(shortPath(e, chars), 0, i * cell + cell / 2); });
    ctx.restore();
    ctx.textAlign = 'left';
    ctx.fillStyle = '#6b7280';
    ctx.fillText('sender ↓  receiver →', 4, 10);
    if (metric === 'bytes' && !useBytes) ctx.fillText('(no sizes: messages)', 4, 24);
  }

  private cellAt(e: MouseEvent) {
    const r = $('comm').getBoundingClientRect();
    const { x, y, cell } = this.matrixBox;
    const col = Math.floor((e.clientX - r.left - x) / cell), row = Math.floor((e.clientY - r.top - y) / cell);
    return this.matrix?.cells.find((c) => c.row === row && c.col === col);
  }

  private hoverCell(e: PointerEvent): void {
    const c = this.cellAt(e);
    if (!c) { hideTooltip(); return; }
    showTooltip(e.clientX, e.clientY, `${c.sender} → ${c.receiver}`, [
      { label: 'messages', value: String(c.messages) },
      { label: 'bytes', value: c.bytes === null ? '(no size)' : String(c.bytes) },
    ], 'click: highlight these messages in the diagram');
  }

  private clickCell(e: MouseEvent): void {
    const c = this.cellAt(e);
    if (!c) return;
    // At a level, an end stands for its subtree; else it is the container itself.
    const grouped = this.drawn.comm.level > 0;
    const end = (path: string) => (grouped ? subtreeSql(path) : `(SELECT id FROM containers WHERE path = ${sqlText(path)})`);
    void this.window().then(([lo, hi]) => this.host.highlight(
      `SELECT id, src AS container, ts, "end", value, type FROM links WHERE src IN ${end(c.sender)}`
      + ` AND dst IN ${end(c.receiver)} AND ts >= ${lo} AND ts <= ${hi}`, `the messages ${c.sender} → ${c.receiver}`));
  }

  /** The histogram of a latency row: of its name, or of its tid for a thread (names repeat). */
  private async loadHistogram(row: number): Promise<void> {
    const result = this.latencyResult;
    if (!result) return;
    const cells = result.rows[row];
    const kind = $<HTMLSelectElement>('latency-kind').value;
    const name = kind === 'sched' ? String(cells[columnIndex(result.columns, 'id')]) : String(cells[columnIndex(result.columns, 'name')]);
    try {
      this.histogram = await this.ask(`SELECT * FROM kernel_latency_histogram(${sqlText(kind)}, 30, ${sqlText(name)})`);
      this.drawn.latency = { ...this.drawn.latency, histogram: this.histogram.rows, name };
      $('latency-caption').textContent = `${name}: ${cells[columnIndex(result.columns, 'count')]} samples`;
      this.drawHistogram();
    } catch (err) {
      $('analysis-error').textContent = (err as Error).message;
      $('analysis-error').hidden = false;
    }
    this.host.changed();
  }

  private drawHistogram(): void {
    const canvas = $<HTMLCanvasElement>('latency-histogram');
    const ctx = fitCanvas(canvas);
    const h = this.histogram;
    if (!h || !h.rows.length) return;
    const w = canvas.clientWidth, ht = canvas.clientHeight, pad = 22;
    const counts = h.rows.map((r) => Number(r[2]));
    const max = Math.max(1, ...counts);
    const bw = (w - 2 * pad) / counts.length;
    ctx.fillStyle = '#4e79a7';
    // Counts on a logarithmic scale: a tail of a few samples stays visible beside a bin of hundreds.
    counts.forEach((c, i) => {
      const bh = ((ht - 2 * pad) * Math.log1p(c)) / Math.log1p(max);
      ctx.fillRect(pad + i * bw, ht - pad - bh, Math.max(1, bw - 1), bh);
    });
    ctx.fillStyle = '#333';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    ctx.fillText(nsText(Number(h.rows[0][0])), pad, ht - 6);
    ctx.textAlign = 'right';
    ctx.fillText(nsText(Number(h.rows[h.rows.length - 1][1])), w - pad, ht - 6);
    ctx.fillText(`${max} (log scale)`, w - pad, pad - 6);
  }
}
