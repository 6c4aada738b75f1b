import { describe, expect, it } from 'vitest';
import { commMatrix, rampColor, shortPath } from './comm';

describe('the communication matrix', () => {
  const result = {
    columns: ['sender', 'receiver', 'messages', 'bytes'],
    rows: [['a/p0', 'a/p1', 3, 300], ['a/p1', 'a/p0', 2, null], ['a/p1', 'a/p2', 1, 8]],
    truncated: false, time_origin: '0',
  };

  it('puts every end on both axes, in the order met, a cell per row', () => {
    const m = commMatrix(result);
    expect(m.ends).toEqual(['a/p0', 'a/p1', 'a/p2']);
    expect(m.cells.map((c) => [c.row, c.col, c.messages, c.bytes])).toEqual([[0, 1, 3, 300], [1, 0, 2, null], [1, 2, 1, 8]]);
    expect(m.max).toEqual({ messages: 3, bytes: 300 });
  });

  it('colours from light to dark, nothing in grey', () => {
    expect(rampColor(0, 10)).toBe('#f4f5f7');
    expect(rampColor(10, 10)).toBe('rgb(8,48,107)');
    expect(rampColor(1, 10)).not.toBe(rampColor(5, 10));
  });

  it('shortens a path from its start', () => {
    expect(shortPath('machine/node/rank 1', 40)).toBe('machine/node/rank 1');
    expect(shortPath('machine/node/rank 1', 12)).toBe('…node/rank 1');
  });
});
