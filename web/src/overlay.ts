// What the analysis panel draws over the space-time diagram: the wait
// states' instances (wait_instances(), docs/waits.md) and a critical path's
// segments (critical_path(), thread_critical_path()), read from their query
// answers into spans on container lines, and the spans laid out as
// rectangles and, along a path, connectors where it jumps between lines.
// Unit-tested; no DOM.

import { type Cell, columnIndex, type QueryResult } from './query';

/** One wait or one segment of a path: on a container's line, from start to end (model times). */
export interface Span {
  /** The answer's row it comes from. */
  row: number;
  container: number;
  start: number; end: number;
  color: string;
  /** What a hover names: the pattern or the function (state), and its other fields. */
  title: string;
  peer?: string;
  ns: number;
}

export type OverlayKind = 'waits' | 'path';
export interface Overlay { kind: OverlayKind; spans: Span[] }

/** One colour per pattern of docs/waits.md, in its order. */
export const PATTERN_COLORS: Record<string, string> = {
  'Late Sender': '#d62728',
  'Late Receiver': '#ff7f0e',
  'Wait at N x N': '#9467bd',
  'Wait at Barrier': '#1f77b4',
};
/** A thread's critical path, coloured by its state (thread_critical_path()). */
export const THREAD_STATE_COLORS: Record<string, string> = {
  running: '#2ca02c', runnable: '#ff7f0e', preempted: '#d62728',
  interrupt: '#9467bd', timer: '#8c564b', blocked: '#7f7f7f',
};
/** An MPI critical path's outline. */
export const PATH_COLOR = '#e6007e';
const OTHER = '#555';

/**
 * A time of the analyses' tables, relative to the trace's start (ticks,
 * exact, maybe a text of digits beyond 2^53; or seconds), as a model time:
 * the trace's start (a model time of whole ticks) plus it.
 */
export function fromStart(cell: Cell, start: number): number | null {
  if (cell === null || cell === '') return null;
  if (typeof cell === 'string' && /^-?\d+$/.test(cell)) {
    return Number.isInteger(start) ? Number(BigInt(cell) + BigInt(start)) : start + Number(BigInt(cell));
  }
  const v = Number(cell);
  return Number.isFinite(v) ? start + v : null;
}

/** A container cell as an id: an integer is one, a text is a path (undefined when unknown). */
function containerOf(cell: Cell, ids: Map<string, number>): number | undefined {
  if (typeof cell === 'number') return cell;
  return cell === null ? undefined : ids.get(String(cell));
}

function spans(result: QueryResult, ids: Map<string, number>, start: number,
               make: (cells: Cell[], at: (name: string) => Cell) => Pick<Span, 'color' | 'title' | 'peer'>): Span[] {
  const col = (name: string) => columnIndex(result.columns, name);
  const [container, a, b, ns] = [col('container'), col('start'), col('end'), Math.max(col('wait_ns'), col('length_ns'))];
  if (container < 0 || a < 0 || b < 0) return [];
  const out: Span[] = [];
  result.rows.forEach((cells, row) => {
    const c = containerOf(cells[container], ids);
    const s = fromStart(cells[a], start), e = fromStart(cells[b], start);
    if (c === undefined || s === null || e === null) return;
    const at = (name: string) => { const i = col(name); return i < 0 ? null : cells[i]; };
    out.push({ row, container: c, start: s, end: e, ns: ns < 0 ? 0 : Number(cells[ns]), ...make(cells, at) });
  });
  return out;
}

/** wait_instances()'s rows: each wait on its container, in its pattern's colour, naming the container waited for. */
export function waitSpans(result: QueryResult, ids: Map<string, number>, start: number): Span[] {
  return spans(result, ids, start, (_, at) => {
    const pattern = String(at('pattern') ?? '');
    return { color: PATTERN_COLORS[pattern] ?? OTHER, title: pattern, peer: at('peer') === null ? undefined : String(at('peer')) };
  });
}

/** critical_path()'s segments (one colour), or thread_critical_path()'s (coloured by their state). */
export function pathSpans(result: QueryResult, ids: Map<string, number>, start: number): Span[] {
  const byState = columnIndex(result.columns, 'state') >= 0;
  return spans(result, ids, start, (_, at) => {
    if (!byState) return { color: PATH_COLOR, title: String(at('function') ?? '') || '(no state)' };
    const state = String(at('state') ?? '');
    // The table writes a missing detail as '-'.
    const detail = at('detail');
    return { color: THREAD_STATE_COLORS[state] ?? OTHER, title: detail && detail !== '-' ? `${state} · ${detail}` : state };
  });
}

/** A line of the diagram (content pixels), or undefined when the container is not shown. */
export interface LineBox { y: number; h: number }
export interface Rect { span: number; x: number; y: number; w: number; h: number }
/** A vertical stroke where a path leaves one line for another, at the time it does. */
export interface Connector { x: number; y0: number; y1: number }

/**
 * Rectangles of the spans meeting [left, right] (pixels; clipped to it, at
 * least 2 wide) on their lines, the line's height less a pixel each side;
 * for a path, a connector between the middles of two lines wherever a span
 * follows one on another line.
 */
export function layoutOverlay(overlay: Overlay, line: (container: number) => LineBox | undefined,
                              x: (t: number) => number, left: number, right: number): { rects: Rect[]; connectors: Connector[] } {
  const rects: Rect[] = [];
  const connectors: Connector[] = [];
  overlay.spans.forEach((s, i) => {
    const box = line(s.container);
    if (!box) return;
    const x0 = x(s.start), x1 = x(s.end);
    if (x1 < left || x0 > right) return;
    const a = Math.max(x0, left), b = Math.min(x1, right);
    const w = Math.max(2, b - a);
    rects.push({ span: i, x: Math.min(a, right - w), y: box.y + 1, w, h: box.h - 2 });
  });
  if (overlay.kind === 'path') {
    for (let i = 1; i < overlay.spans.length; i++) {
      const p = overlay.spans[i - 1], s = overlay.spans[i];
      if (p.container === s.container) continue;
      const from = line(p.container), to = line(s.container);
      const cx = x(s.start);
      if (!from || !to || from.y === to.y || cx < left || cx > right) continue;
      connectors.push({ x: cx, y0: from.y + from.h / 2, y1: to.y + to.h / 2 });
    }
  }
  return { rects, connectors };
}
