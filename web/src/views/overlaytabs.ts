// The analysis panel's tabs whose results are drawn over the diagram
// (overlay.ts, docs/web.md):
//   waits: wait_states() and idle_time() over the diagram's range, and
//          wait_instances() marked on their containers' lines;
//   path:  critical_path()'s segments with critical_path_by('function')
//          and ('container'), or on a kernel trace a thread's
//          thread_critical_path(tid) with thread_critical_path_by(tid,
//          'state') and ('container'), drawn along the lines; a segment
//          clicked zooms the diagram onto it.

import type { TraceDetail } from '../api';
import { type Overlay, type OverlayKind, PATH_COLOR, pathSpans, PATTERN_COLORS, THREAD_STATE_COLORS, waitSpans } from '../overlay';
import type { QueryResult } from '../query';
import { ResultTable } from './table';

/** What the two tabs need of the page (through the analysis panel's host). */
export interface OverlayPage {
  trace(): TraceDetail | null;
  /** Whether the kind is drawn (the URL's marks=), and switching it. */
  marked(kind: OverlayKind): boolean;
  mark(kind: OverlayKind, on: boolean): void;
  /** Draws (or, null, removes) an overlay in the diagram. */
  draw(kind: OverlayKind, overlay: Overlay | null): void;
  /** The thread chosen (the URL's tid=), and choosing one. */
  tid(): number | null;
  pickTid(tid: number): void;
  /** Zooms the diagram onto [start, end] of a container's line. */
  zoom(container: number, start: number, end: number): void;
  changed(): void;
}

/** And of the panel: its query. */
export interface OverlayHost extends OverlayPage {
  ask(sql: string, limit?: number): Promise<QueryResult>;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The containers' ids by path, for the tables' container columns. */
function idsByPath(trace: TraceDetail): Map<string, number> {
  return new Map(trace.containers.map((c) => [c.path, c.id]));
}

function legend(el: HTMLElement, colors: Record<string, string>): void {
  el.replaceChildren(...Object.entries(colors).map(([name, color]) => {
    const item = document.createElement('span');
    const swatch = document.createElement('i');
    swatch.style.background = `${color}55`;
    swatch.style.borderColor = color;
    item.append(swatch, name);
    return item;
  }));
}

/** The query's answer to a function this server does not have: SQLite names it "no such table". */
export function unknownFunction(message: string, name: string): boolean {
  return message.includes(`no such table: ${name}`) || message.includes(`no such function: ${name}`);
}

export class WaitsTab {
  private readonly patterns: ResultTable;
  private readonly idle: ResultTable;
  private overlay: Overlay | null = null;
  /** For the test hook. */
  drawn = { patterns: 0, idle: 0, instances: 0, marked: false };

  constructor(private readonly host: OverlayHost) {
    this.patterns = new ResultTable($('waits-table'), () => {}, 1000, () => host.changed());
    this.idle = new ResultTable($('idle-table'), () => {}, 1000, () => host.changed());
    legend($('waits-legend'), PATTERN_COLORS);
    $<HTMLInputElement>('waits-mark').addEventListener('change', (e) => host.mark('waits', (e.target as HTMLInputElement).checked));
  }

  reset(): void {
    this.overlay = null;
    this.patterns.set(null);
    this.idle.set(null);
    this.host.draw('waits', null);
  }

  /** The tables and the instances of [lo, hi] (the tables' ticks) and the container's subtree (an SQL literal); the info line. */
  async load(lo: string, hi: string, container: string, current: () => boolean): Promise<string> {
    const args = `${lo}, ${hi}, ${container}`;
    const [patterns, idle] = await Promise.all([
      this.host.ask(`SELECT * FROM wait_states(${args})`, 100000).catch((err: Error) => {
        // A trace without MPI calls has no patterns (the function says why); its idle time still shows.
        if (!/no MPI call/.test(err.message)) throw err;
        return null;
      }),
      this.host.ask(`SELECT * FROM idle_time(${args})`, 100000),
    ]);
    const instances = patterns ? await this.host.ask(`SELECT * FROM wait_instances(${args})`, 100000) : null;
    if (!current()) return '';
    const trace = this.host.trace()!;
    this.patterns.set(patterns);
    this.idle.set(idle);
    this.overlay = { kind: 'waits', spans: instances ? waitSpans(instances, idsByPath(trace), trace.start) : [] };
    this.drawn = { patterns: patterns?.rows.length ?? 0, idle: idle.rows.length, instances: this.overlay.spans.length, marked: false };
    this.show();
    return patterns ? `${instances?.rows.length ?? 0} waits · ${patterns.rows.length} pattern rows · ${idle.rows.length} containers`
      : `no MPI call: no wait state · ${idle.rows.length} containers`;
  }

  /** The marks drawn or not, as the toggle says. */
  show(): void {
    const on = this.host.marked('waits');
    $<HTMLInputElement>('waits-mark').checked = on;
    this.drawn.marked = on && this.overlay !== null;
    this.host.draw('waits', on ? this.overlay : null);
  }
}

export class PathTab {
  private readonly segments: ResultTable;
  private readonly functions: ResultTable;
  private readonly containers: ResultTable;
  private overlay: Overlay | null = null;
  private threads: QueryResult | null = null;
  /** For the test hook. */
  drawn = { segments: 0, functions: 0, containers: 0, tid: null as number | null, message: '', marked: false };

  constructor(private readonly host: OverlayHost) {
    this.segments = new ResultTable($('path-table'), (row) => this.zoomTo(row), 1000, () => host.changed());
    this.functions = new ResultTable($('path-functions'), () => {}, 1000, () => host.changed());
    this.containers = new ResultTable($('path-containers'), () => {}, 1000, () => host.changed());
    $<HTMLInputElement>('path-mark').addEventListener('change', (e) => host.mark('path', (e.target as HTMLInputElement).checked));
    $<HTMLSelectElement>('path-thread').addEventListener('change', (e) => host.pickTid(Number((e.target as HTMLSelectElement).value)));
  }

  private kernel(): boolean { return !!this.host.trace()?.types.some((t) => t.alias === 'ctf.cpu'); }

  reset(): void {
    this.overlay = this.threads = null;
    for (const t of [this.segments, this.functions, this.containers]) t.set(null);
    $('path-thread-label').hidden = !this.kernel();
    $<HTMLSelectElement>('path-thread').replaceChildren();
    this.host.draw('path', null);
  }

  /** The key of what the tab shows: the whole trace's path, or the thread's. */
  key(): string { return this.kernel() ? `tid ${this.host.tid()}` : 'mpi'; }

  private message(text: string): void {
    this.drawn.message = text;
    $('path-message').textContent = text;
    $('path-message').hidden = !text;
  }

  async load(current: () => boolean): Promise<string> {
    const trace = this.host.trace()!;
    this.message('');
    if (this.kernel()) return this.loadThread(trace, current);
    legend($('path-legend'), { 'critical path': PATH_COLOR });
    const [segments, functions, containers] = await Promise.all([
      this.host.ask('SELECT * FROM critical_path()', 100000),
      this.host.ask("SELECT * FROM critical_path_by('function')", 100000),
      this.host.ask("SELECT * FROM critical_path_by('container')", 100000),
    ]);
    if (!current()) return '';
    this.segments.set(segments);
    this.functions.set(functions);
    this.containers.set(containers);
    this.overlay = { kind: 'path', spans: pathSpans(segments, idsByPath(trace), trace.start) };
    this.drawn = { ...this.drawn, segments: segments.rows.length, functions: functions.rows.length, containers: containers.rows.length, tid: null };
    this.show();
    return `${segments.rows.length} segments on ${containers.rows.length} containers · the whole trace`;
  }

  /** A kernel trace: the threads to pick from (kernel_processes(), the busiest first), and the chosen one's path. */
  private async loadThread(trace: TraceDetail, current: () => boolean): Promise<string> {
    legend($('path-legend'), THREAD_STATE_COLORS);
    if (!this.threads) {
      this.threads = await this.host.ask('SELECT tid, name FROM kernel_processes() ORDER BY running_ns DESC, tid', 100000);
      const select = $<HTMLSelectElement>('path-thread');
      select.replaceChildren(new Option('(pick a thread)', ''), ...this.threads.rows.map(([tid, name]) => new Option(`${name} ${tid}`, String(tid))));
    }
    const tid = this.host.tid();
    $<HTMLSelectElement>('path-thread').value = tid === null ? '' : String(tid);
    this.drawn = { ...this.drawn, tid, segments: 0, functions: 0, containers: 0 };
    this.overlay = null;
    for (const t of [this.segments, this.functions, this.containers]) t.set(null);
    if (tid === null) {
      this.message('Pick a thread (or right-click a thread\'s name in the diagram) for its critical path.');
      this.show();
      return 'a kernel trace: a thread\'s critical path';
    }
    let segments: QueryResult, states: QueryResult, containers: QueryResult;
    try {
      [segments, states, containers] = await Promise.all([
        this.host.ask(`SELECT * FROM thread_critical_path(${tid})`, 100000),
        this.host.ask(`SELECT * FROM thread_critical_path_by(${tid}, 'state')`, 100000),
        this.host.ask(`SELECT * FROM thread_critical_path_by(${tid}, 'container')`, 100000),
      ]);
    } catch (err) {
      if (!current()) return '';
      const text = (err as Error).message;
      if (!unknownFunction(text, 'thread_critical_path')) throw err;
      this.message('This server has no thread_critical_path(): its macroscope predates the kernel critical path.');
      this.show();
      return 'no thread critical path';
    }
    if (!current()) return '';
    this.segments.set(segments);
    this.functions.set(states);
    this.containers.set(containers);
    this.overlay = { kind: 'path', spans: pathSpans(segments, idsByPath(trace), trace.start) };
    this.drawn = { ...this.drawn, segments: segments.rows.length, functions: states.rows.length, containers: containers.rows.length };
    this.show();
    return `${segments.rows.length} segments on ${containers.rows.length} threads · the critical path of thread ${tid}`;
  }

  show(): void {
    const on = this.host.marked('path');
    $<HTMLInputElement>('path-mark').checked = on;
    this.drawn.marked = on && this.overlay !== null;
    this.host.draw('path', on ? this.overlay : null);
  }

  /** A segment clicked: the diagram zoomed onto it. */
  private zoomTo(row: number): void {
    const span = this.overlay?.spans.find((s) => s.row === row);
    if (span) this.host.zoom(span.container, span.start, span.end);
  }
}
