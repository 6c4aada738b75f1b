import { describe, expect, it } from 'vitest';
import { decodeWindow, type WireWindow } from './api';

// One row of each kind, as docs/serve.md describes the window answer.
const wire: WireWindow = {
  start: 0, end: 100, width: 50, values: ['idle', 'msg', 'running'],
  rows: [
    { container: 3, type: 4, kind: 'state', items: [['7:12', 1, 9.5, 2, 1]], summaries: [[10, 11, 0, 0, 6]] },
    { container: 3, type: 5, kind: 'event', items: [['8:0', 4, 1]], summaries: [[20, 21.5, 1, 3]] },
    { container: 3, type: 6, kind: 'variable', items: [['9:2', 0, 50, -1.5]], summaries: [[50, 51, 2, 8, 4]] },
    { container: 3, type: 7, kind: 'link', items: [['10:5', 30, 30, 1, 3, 11]], summaries: [[60, 61, 1, 2]] },
  ],
  shown: 4, hidden: 15,
};

describe('decodeWindow', () => {
  const decoded = decodeWindow(wire);

  it('keeps the window and its counts', () => {
    expect(decoded).toMatchObject({ start: 0, end: 100, width: 50, shown: 4, hidden: 15 });
    expect(decoded.rows.map((r) => [r.container, r.type, r.kind])).toEqual([
      [3, 4, 'state'], [3, 5, 'event'], [3, 6, 'variable'], [3, 7, 'link'],
    ]);
  });

  it('names every field of items and summaries, values by their index', () => {
    const [state, event, variable, link] = decoded.rows;
    expect(state.items).toEqual([{ id: '7:12', start: 1, end: 9.5, value: 'running', level: 1 }]);
    expect(state.summaries).toEqual([{ start: 10, end: 11, value: 'idle', level: 0, count: 6 }]);
    expect(event.items).toEqual([{ id: '8:0', start: 4, value: 'msg' }]);
    expect(event.summaries).toEqual([{ start: 20, end: 21.5, value: 'msg', count: 3 }]);
    expect(variable.items).toEqual([{ id: '9:2', start: 0, end: 50, number: -1.5 }]);
    expect(variable.summaries).toEqual([{ start: 50, end: 51, min: 2, max: 8, count: 4 }]);
    expect(link.items).toEqual([{ id: '10:5', start: 30, end: 30, value: 'msg', from: 3, to: 11 }]);
    expect(link.summaries).toEqual([{ start: 60, end: 61, value: 'msg', count: 2 }]);
  });

  it('gives each kind only its own fields (the views test for them)', () => {
    const [state, event, variable] = decoded.rows;
    expect('value' in variable.items[0]).toBe(false);
    expect('level' in event.items[0]).toBe(false);
    expect('end' in event.items[0]).toBe(false);
    expect('level' in event.summaries[0]).toBe(false);
    expect('level' in state.items[0]).toBe(true);
  });

  it('decodes an empty window', () => {
    expect(decodeWindow({ ...wire, values: [], rows: [], shown: 0, hidden: 0 }).rows).toEqual([]);
  });
});
