import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, formatState, parseState, sameModel, type ViewState } from './url';

describe('URL state', () => {
  it('round-trips every field', () => {
    const s: ViewState = {
      trace: 2, compare: 0, range: [10.5, 200], gantt: [20, 30.25], p: 0.0123, slices: 30, metric: 'event-count',
      mode: 'spatiotemporal', view: 'mode', types: [3, 4], values: ['a,b', 'value 1'], containers: [7],
      collapsed: [1, 2], clock: 'wall', sql: "SELECT * FROM states WHERE value = 'a&b' -- 100%",
      where: "value LIKE 'MPI_%' AND dur > 1000", filter: 'hide', group: "substr(path, 1, instr(path || '/', '/') - 1)",
      order: 'name DESC', panel: 'path', marks: ['waits', 'path'], tid: 525, token: 's3cret',
    };
    expect(parseState(formatState(s))).toEqual(s);
  });

  it('writes nothing for the defaults', () => {
    expect(formatState(DEFAULT_STATE)).toBe('');
    expect(parseState('')).toEqual(DEFAULT_STATE);
  });

  it('ignores malformed parameters', () => {
    const s = parseState('?p=2&slices=abc&range=5,1&metric=nope&mode=x&types=1,z,3&trace=-1');
    expect(s.p).toBe(DEFAULT_STATE.p);
    expect(s.slices).toBe(DEFAULT_STATE.slices);
    expect(s.range).toBeNull();
    expect(s.metric).toBe('state-time');
    expect(s.mode).toBe('temporal');
    expect(s.types).toEqual([1, 3]);
    expect(s.trace).toBe(0);
    expect(parseState('?clock=sundial').clock).toBe('relative');
    expect(parseState('?filter=blur').filter).toBe('dim');
    expect(parseState('?panel=gantt').panel).toBe('');
    expect(parseState('?marks=path,nope').marks).toEqual(['path']);
    expect(parseState('?tid=1.5').tid).toBeNull();
    expect(parseState('?compare=x').compare).toBeNull();
    expect(parseState('?trace=1&compare=1').compare).toBeNull();  // a trace is not compared with itself
  });

  it('names both traces of a comparison', () => {
    const s = parseState('?trace=1&compare=0&gantt=2,3');
    expect([s.trace, s.compare, s.gantt]).toEqual([1, 0, [2, 3]]);
    expect(formatState({ ...DEFAULT_STATE, compare: 1 })).toBe('?compare=1');
  });

  it('keeps the SQL of the panel and of the filters as typed, blanks as none', () => {
    const s = parseState('?sql=%20SELECT%201%3B%0A&where=&group=parent&order=%20');
    expect([s.sql, s.where, s.group, s.order]).toEqual(['SELECT 1;', '', 'parent', '']);
    expect(formatState({ ...DEFAULT_STATE, where: 'dur > 5', filter: 'dim' })).toBe('?where=dur+%3E+5');
  });

  it('tells when the model must be fetched again', () => {
    expect(sameModel(DEFAULT_STATE, { ...DEFAULT_STATE, p: 0.1, gantt: [1, 2], clock: 'wall' })).toBe(true);
    expect(sameModel(DEFAULT_STATE, { ...DEFAULT_STATE, range: [1, 2] })).toBe(false);
  });
});
