import { describe, expect, it } from 'vitest';
import { fromStart, layoutOverlay, type LineBox, type Overlay, PATH_COLOR, pathSpans, PATTERN_COLORS, THREAD_STATE_COLORS, waitSpans } from './overlay';
import type { QueryResult } from './query';

const ids = new Map([['rank-0', 10], ['rank-1', 11], ['rank-2', 12]]);
// Lines 20 px high from y = 0, in container order; rank-2 not shown.
const lines = new Map<number, LineBox>([[10, { y: 0, h: 20 }], [11, { y: 20, h: 20 }]]);
const line = (c: number) => lines.get(c);
// 1 px per tick from x = 100 over model times [1000, 1500].
const x = (t: number) => 100 + (t - 1000);

// The SMPI chain of docs/critical-path.md, in ticks from a trace starting at model time 1000.
const path: QueryResult = {
  columns: ['container', 'start', 'end', 'function', 'length_ns'],
  rows: [
    ['rank-0', 0, 100, 'computing', 100],
    ['rank-1', 100, 102, 'PMPI_Recv', 2],
    ['rank-1', 102, 152, 'computing', 50],
    ['rank-0', 152, 160, 'PMPI_Barrier', 8],
    ['rank-2', 160, 170, 'computing', 10],
  ],
  truncated: false, time_origin: '0',
};

describe('critical path over the diagram', () => {
  const spans = pathSpans(path, ids, 1000);
  it('reads the segments as model times on their containers', () => {
    expect(spans.map((s) => [s.row, s.container, s.start, s.end, s.title, s.ns, s.color])).toEqual([
      [0, 10, 1000, 1100, 'computing', 100, PATH_COLOR],
      [1, 11, 1100, 1102, 'PMPI_Recv', 2, PATH_COLOR],
      [2, 11, 1102, 1152, 'computing', 50, PATH_COLOR],
      [3, 10, 1152, 1160, 'PMPI_Barrier', 8, PATH_COLOR],
      [4, 12, 1160, 1170, 'computing', 10, PATH_COLOR],
    ]);
  });

  it('draws a rectangle along each segment on a shown line and a connector at each jump between shown lines', () => {
    const { rects, connectors } = layoutOverlay({ kind: 'path', spans }, line, x, 100, 600);
    expect(rects).toEqual([
      { span: 0, x: 100, y: 1, w: 100, h: 18 },
      { span: 1, x: 200, y: 21, w: 2, h: 18 },
      { span: 2, x: 202, y: 21, w: 50, h: 18 },
      { span: 3, x: 252, y: 1, w: 8, h: 18 },
    ]);
    // rank-0 → rank-1 at 1100, rank-1 → rank-0 at 1152; the jump to rank-2 (not shown) has none.
    expect(connectors).toEqual([{ x: 200, y0: 10, y1: 30 }, { x: 252, y0: 30, y1: 10 }]);
  });

  it('clips to the view, keeps a sliver visible, and drops what is outside', () => {
    const { rects, connectors } = layoutOverlay({ kind: 'path', spans }, line, x, 150, 201);
    expect(rects).toEqual([
      { span: 0, x: 150, y: 1, w: 50, h: 18 },
      { span: 1, x: 199, y: 21, w: 2, h: 18 },
    ]);
    expect(connectors).toEqual([{ x: 200, y0: 10, y1: 30 }]);
  });

  it('colours a thread\'s path by its state, and reads ticks beyond 2^53 exactly', () => {
    const thread: QueryResult = {
      columns: ['container', 'tid', 'start', 'end', 'state', 'detail', 'length_ns'],
      rows: [[11, 525, '9007199254740993', '9007199254740995', 'blocked', 'futex', 2], [10, 525, 3, 4, 'running', '-', 1]],
      truncated: false, time_origin: '0',
    };
    const s = pathSpans(thread, ids, -9007199254740000);
    expect(s.map((v) => [v.container, v.start, v.end, v.color, v.title])).toEqual([
      [11, 993, 995, THREAD_STATE_COLORS.blocked, 'blocked · futex'],
      [10, -9007199254739997, -9007199254739996, THREAD_STATE_COLORS.running, 'running'],
    ]);
    expect(fromStart('12', 0.5)).toBe(12.5);
    expect(fromStart(0.25, 1)).toBe(1.25);
    expect(fromStart(null, 1)).toBeNull();
  });
});

describe('wait instances over the diagram', () => {
  const instances: QueryResult = {
    columns: ['container', 'start', 'end', 'pattern', 'peer', 'wait_ns'],
    rows: [
      ['rank-0', 10, 60, 'Late Sender', 'rank-1', 50],
      ['rank-1', 70, 75, 'Wait at Barrier', 'rank-0', 5],
      ['nowhere', 1, 2, 'Late Sender', 'rank-1', 1],
      ['rank-2', 80, 90, 'Wait at N x N', 'rank-0', 10],
    ],
    truncated: false, time_origin: '0',
  };
  const spans = waitSpans(instances, ids, 1000);

  it('reads each instance with its pattern\'s colour and the container it waits for (unknown containers dropped)', () => {
    expect(spans.map((s) => [s.row, s.container, s.start, s.end, s.title, s.peer, s.ns, s.color])).toEqual([
      [0, 10, 1010, 1060, 'Late Sender', 'rank-1', 50, PATTERN_COLORS['Late Sender']],
      [1, 11, 1070, 1075, 'Wait at Barrier', 'rank-0', 5, PATTERN_COLORS['Wait at Barrier']],
      [3, 12, 1080, 1090, 'Wait at N x N', 'rank-0', 10, PATTERN_COLORS['Wait at N x N']],
    ]);
  });

  it('marks each on its line and interval, without connectors', () => {
    const overlay: Overlay = { kind: 'waits', spans };
    expect(layoutOverlay(overlay, line, x, 100, 600)).toEqual({
      rects: [{ span: 0, x: 110, y: 1, w: 50, h: 18 }, { span: 1, x: 170, y: 21, w: 5, h: 18 }],
      connectors: [],
    });
  });
});
