import { describe, expect, it } from 'vitest';
import { callNodes, frameAt, layoutFlame, rootTotal, sqlText, subtreeSql } from './flame';
import type { QueryResult } from './query';

// main (10) ─┬─ a (6) ── c (2)      other (10)
//            └─ b (3)
const result: QueryResult = {
  columns: ['id', 'parent', 'depth', 'function', 'path', 'calls', 'inclusive_ns', 'exclusive_ns'],
  rows: [
    [0, null, 0, 'main', 'main', 1, 10, 1],
    [1, 0, 1, 'a', 'main;a', 2, 6, 4],
    [2, 1, 2, 'c', 'main;a;c', 1, 2, 2],
    [3, 0, 1, 'b', 'main;b', 1, 3, 3],
    [4, null, 0, 'other', 'other', 1, 10, 10],
  ],
  truncated: false, time_origin: '0',
};
const nodes = callNodes(result);
const r9 = (x: number) => Math.round(x * 1e9) / 1e9;

describe('the flame graph', () => {
  it('reads call_tree() rows', () => {
    expect(nodes.map((n) => [n.fn, n.parent, n.inclusive])).toEqual([['main', null, 10], ['a', 0, 6], ['c', 1, 2], ['b', 0, 3], ['other', null, 10]]);
    expect(rootTotal(nodes)).toBe(20);
  });

  it('makes frames as wide as their inclusive time, children from their parent\'s left edge', () => {
    const frames = layoutFlame(nodes, null);
    expect(frames.map((f) => [f.node.fn, r9(f.x0), r9(f.x1), f.row])).toEqual([
      ['main', 0, 0.5, 0], ['a', 0, 0.3, 1], ['c', 0, 0.1, 2], ['b', 0.3, 0.45, 1], ['other', 0.5, 1, 0]]);
    expect(frameAt(frames, 0.35, 1)?.node.fn).toBe('b');
    expect(frameAt(frames, 0.47, 1)).toBeUndefined();
  });

  it('zoomed onto a frame: it fills the width under its ancestors', () => {
    const frames = layoutFlame(nodes, 1);
    expect(frames.map((f) => [f.node.fn, r9(f.x0), r9(f.x1), f.row, f.ancestor])).toEqual([
      ['main', 0, 1, 0, true], ['a', 0, 1, 1, false], ['c', 0, r9(2 / 6), 2, false]]);
  });

  it('leaves out frames thinner than asked', () => {
    expect(layoutFlame(nodes, null, 0.12).map((f) => f.node.fn)).toEqual(['main', 'a', 'b', 'other']);
  });

  it('quotes names in its SQL', () => {
    expect(sqlText("it's")).toBe("'it''s'");
    expect(subtreeSql('a/b')).toBe("(SELECT id FROM containers WHERE path = 'a/b' OR substr(path, 1, 4) = 'a/b/')");
  });
});
