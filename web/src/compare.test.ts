import { describe, expect, it } from 'vitest';
import { alignedSeconds, alignedWindow, diffParts, factsText, partIntensity, partitionFacts, runTime } from './compare';

describe('compare', () => {
  // A: nanosecond ticks from 1000; B: seconds (a Pajé trace) from 2.
  const a = { start: 1000, secondsPerTick: 1e-9 };
  const b = { start: 2, secondsPerTick: 1 };

  it('puts both runs on one axis from their starts', () => {
    expect(alignedSeconds(a, 1000 + 5e8)).toBeCloseTo(0.5, 12);
    expect(runTime(b, 0.5)).toBe(2.5);
    expect(alignedWindow(a, b, [1000 + 1e8, 1000 + 3e8])).toEqual([2.1, 2.3]);
    const [x, y] = alignedWindow(b, a, [2.1, 2.3]);
    expect(x).toBeCloseTo(1000 + 1e8, 3);
    expect(y).toBeCloseTo(1000 + 3e8, 3);
  });

  it('groups the rows of differential_overview() into parts in time order', () => {
    const columns = ['rank', 'part', 'start', 'end', 'node', 'difference_rate', 'a_rate', 'b_rate', 'type', 'a_share', 'b_share', 'share_change'];
    const parts = diffParts({
      columns, truncated: false, time_origin: '0',
      rows: [
        [1, 2, 0.5, 1, '', 3, 1, 2, 'S:x', 0.2, 0.6, 0.4],
        [1, 2, 0.5, 1, '', 3, 1, 2, 'S:y', 0.8, 0.4, -0.4],
        [2, 0, 0, 0.25, '', 1.5, 1, 1, 'S:x', 0.5, 0.5, 0],
        [3, 1, 0.25, 0.5, '', 0, 1, 1, null, null, null, null],
      ],
    });
    expect(parts.map((p) => [p.part, p.start, p.end, p.types.length])).toEqual([[0, 0, 0.25, 1], [1, 0.25, 0.5, 0], [2, 0.5, 1, 2]]);
    expect(parts[2].types[1]).toEqual({ type: 'S:y', a: 0.8, b: 0.4, change: -0.4 });
    expect(parts.map((p) => partIntensity(p, parts))).toEqual([0.5, 0, 1]);
  });

  it('reads what the partition states from the rows, and says it', () => {
    const columns = ['rank', 'part', 'type', 'p', 'gain', 'loss'];
    const result = (rows: (number | string | null)[][]) => ({ columns, truncated: false, time_origin: '0', rows });
    const facts = partitionFacts(result([[1, 2, 'S:x', 0.037739, 0.99712, 0.082463], [1, 2, 'S:y', 0.037739, 0.99712, 0.082463],
      [2, 0, 'S:x', 0.037739, 0.99712, 0.082463]]));
    expect(facts).toEqual({ p: 0.037739, parts: 2, gain: 0.99712, loss: 0.082463 });
    expect(factsText(facts!)).toBe('p = 0.03774 · 2 parts · gain 99.7 %, loss 8.25 %');
    expect(factsText({ p: 0.5, parts: 1, gain: 1, loss: 1 })).toBe('p = 0.5 · 1 part · gain 100 %, loss 100 %');
    expect(partitionFacts(result([]))).toBeNull();
  });
});
