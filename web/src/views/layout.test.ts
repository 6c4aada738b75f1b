import { describe, expect, it } from 'vitest';
import { TimeDisplay } from '../time';
import { entryAt, fitAxis, formatNumber, kneeIndex, niceTicks, pInside, RectBatch, stackColumn } from './layout';

describe('niceTicks', () => {
  it('uses 1-2-5 steps inside the range', () => {
    const { step, ticks } = niceTicks(0, 3367, 800, 80);
    expect([1, 2, 5].map((m) => m * 10 ** Math.floor(Math.log10(step)))).toContain(step);
    expect(ticks[0]).toBe(0);
    expect(ticks.every((t) => t >= 0 && t <= 3367)).toBe(true);
    expect((3367 / step) * 80).toBeLessThanOrEqual(800 + 1e-9);
  });
  it('is empty for an empty range', () => { expect(niceTicks(5, 5, 100).ticks).toEqual([]); });
});

describe('stackColumn (visual aggregation)', () => {
  it('draws types above the threshold and merges the others on top', () => {
    const c = stackColumn([50, 1, 30, 2], 100, 3);
    expect(c.segments.map((s) => s.index)).toEqual([0, 2]);
    expect(c.segments[1].y).toBe(20);
    expect(c.merged).toEqual({ indices: [1, 3], y: 17, height: 3 });
    expect(c.dotted).toBe(false);
  });
  it('marks a merge too small to draw as dotted', () => {
    const c = stackColumn([50, 0.5], 100, 3);
    expect(c.dotted).toBe(true);
    expect(c.merged?.indices).toEqual([1]);
  });
  it('has no merge when everything is visible', () => {
    expect(stackColumn([10, 10], 100, 3).merged).toBeNull();
  });
});

describe('p selection', () => {
  const ps = [0, 0.01, 0.2, 0.9];
  it('picks a p strictly inside each range', () => {
    expect(pInside(ps, 0)).toBeCloseTo(0.005);
    expect(pInside(ps, 3)).toBeCloseTo(0.95);
    for (let k = 0; k < ps.length; k++) expect(entryAt(ps, pInside(ps, k))).toBe(k);
  });
  it('finds the entry of a p', () => {
    expect(entryAt(ps, 0.5)).toBe(2);
    expect(entryAt(ps, 0.01)).toBe(1);
    expect(entryAt(ps, 1)).toBe(3);
  });
});

describe('formatNumber', () => {
  it('keeps six significant digits', () => {
    expect(formatNumber(1234.56789)).toBe('1234.57');
    expect(formatNumber(0)).toBe('0');
  });
});

describe('kneeIndex', () => {
  it('picks the entry with the largest normalised gain minus loss', () => {
    expect(kneeIndex([{ gain: 0, loss: 0 }, { gain: 8, loss: 1 }, { gain: 9, loss: 5 }, { gain: 10, loss: 10 }])).toBe(1);
    expect(kneeIndex([])).toBe(0);
  });
});

describe('RectBatch', () => {
  it('issues one fill per colour', () => {
    const batch = new RectBatch();
    for (let i = 0; i < 1000; i++) batch.add(i % 2 ? '#000000' : '#ffffff', i, 0, 1, 1);
    let fills = 0;
    let rects = 0;
    const ctx = { fillStyle: '', beginPath() {}, rect() { rects++; }, fill() { fills++; } };
    batch.fill(ctx as unknown as CanvasRenderingContext2D);
    expect(batch.size).toBe(1000);
    expect(fills).toBe(2);
    expect(rects).toBe(1000);
  });
});

describe('fitAxis', () => {
  it('spaces the ticks until the widest label fits', () => {
    const display = new TimeDisplay();
    display.set({ unit: 'ns', seconds_per_tick: [1, 1e9], whole_ticks: true, clock_start: '0', wall_clock_start: null }, 0);
    const measure = (text: string) => text.length * 6;
    const axis = fitAxis(display, 2794700000, 2794800000, 1000, measure);
    const apart = ((axis.ticks[1].t - axis.ticks[0].t) / 100000) * 1000;
    expect(Math.max(...axis.ticks.map((x) => measure(x.label))) + 16).toBeLessThanOrEqual(apart);
    expect(axis.ticks.every((x) => x.label.startsWith('+2.794'))).toBe(true);
  });
});
