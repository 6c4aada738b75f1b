import { describe, expect, it } from 'vitest';
import {
  type Cell, compareCells, durationLabel, durationText, filterSql, focusWindow, groupsOf, groupSql, modelTime, offsetAt, orderSql, type QueryResult, ranksOf,
  isDurationColumn, resultMarks, sortedRows, sqlErrorPlace, ticksLiteral,
} from './query';

const result = (columns: string[], rows: Cell[][], time_origin = '0'): QueryResult => ({ columns, rows, truncated: false, time_origin });

describe('nanosecond columns', () => {
  it('are the columns named _ns or (ns)', () => {
    expect(['inclusive_ns', 'B − A (ns)', 'ns', 'calls', 'dns_name'].map(isDurationColumn)).toEqual([true, true, false, false, false]);
    expect(['inclusive_ns', 'B − A (ns)', 'A (ns)'].map(durationLabel)).toEqual(['inclusive', 'B − A', 'A']);
  });

  it('read as durations: integers exactly, fractions to the ns, others not', () => {
    expect(durationText(398812345)).toBe('398.812 345 ms');
    expect(durationText('9007199254740993')).toBe('9007199.254 740 993 s');
    expect(durationText(-1500)).toBe('-1.500 µs');
    expect(durationText(1234.4)).toBe('1.234 µs');
    expect([durationText(null), durationText('main'), durationText(Number.NaN)]).toEqual([null, null, null]);
  });
});

describe('sorting a result', () => {
  it('sorts numbers numerically, big-integer texts exactly among them', () => {
    const big = ['1412670961211260540', '1412670961211260539', '9007199254740993'];
    const rows: Cell[][] = [[big[0]], [10], [big[1]], [-3.5], [big[2]], [9007199254740992]];
    const sorted = sortedRows(rows, 0, 1).map((i) => rows[i][0]);
    expect(sorted).toEqual([-3.5, 10, 9007199254740992, big[2], big[1], big[0]]);
    // Those two differ by one: as numbers they would be equal.
    expect(compareCells(big[1], big[0])).toBe(-1);
    expect(compareCells('9007199254740993', 9007199254740992)).toBe(1);
  });

  it('sorts texts by localeCompare after the numbers, nulls last both ways', () => {
    const rows: Cell[][] = [['b'], [null], ['A'], [2], ['a'], [null], [1]];
    const up = sortedRows(rows, 0, 1).map((i) => rows[i][0]);
    expect(up).toEqual([1, 2, 'a', 'A', 'b', null, null]);
    const down = sortedRows(rows, 0, -1).map((i) => rows[i][0]);
    expect(down).toEqual(['b', 'A', 'a', 2, 1, null, null]);
  });

  it('is stable: equal cells keep the answer order', () => {
    const rows: Cell[][] = [[1, 'x'], [0, 'y'], [1, 'z'], [0, 'w']];
    expect(sortedRows(rows, 0, 1)).toEqual([1, 3, 0, 2]);
    expect(sortedRows(rows, 0, -1)).toEqual([0, 2, 1, 3]);
  });
});

describe('model times', () => {
  it('subtracts the time origin exactly', () => {
    // A kernel clock: ticks beyond 2^53, as texts.
    expect(modelTime('1412670961231665000', '1412670961211260539')).toBe(20404461);
    expect(modelTime(500, '100')).toBe(400);
    expect(modelTime(0.25, '0')).toBe(0.25);
    expect(modelTime(null, '0')).toBeNull();
  });

  it('writes model times as the tables\' ticks, whole ones rounded outwards', () => {
    expect(ticksLiteral(20404461.6, '1412670961211260539', true, 'floor')).toBe('1412670961231665000');
    expect(ticksLiteral(20404461.2, '1412670961211260539', true, 'ceil')).toBe('1412670961231665001');
    expect(ticksLiteral(12.75, '0', false, 'floor')).toBe('12.75');
  });
});

describe('result rows as Gantt marks', () => {
  it('maps container, ts and end (any case) to marks in model time', () => {
    const r = result(['id', 'Container', 'TS', 'end', 'value', 'type', 'depth'],
      [[7, 3, '1412670961211260639', '1412670961211261539', 'read', 'Syscall', 1], [8, 4, 5, null, 'x', 'T', 0]],
      '1412670961211260539');
    const [first, second] = resultMarks(r)!;
    expect(first).toEqual({ row: 0, container: 3, start: 100, end: 1000, type: 'Syscall', value: 'read', depth: 1, id: 7 });
    // No end: an instant, its time exact before it becomes a number.
    expect(second).toEqual({ row: 1, container: 4, start: Number(5n - 1412670961211260539n), end: null, type: 'T', value: 'x', depth: 0, id: 8 });
  });

  it('takes container and ts alone as instants, and skips rows without them', () => {
    const r = result(['container', 'ts'], [[2, 10.5], [null, 3], [4, null]]);
    expect(resultMarks(r)).toEqual([{ row: 0, container: 2, start: 10.5, end: null }]);
  });

  it('has no marks without a container or a ts column', () => {
    expect(resultMarks(result(['container', 'dur'], [[1, 2]]))).toBeNull();
    expect(resultMarks(result(['ts', 'end'], [[1, 2]]))).toBeNull();
  });

  it('zooms onto a span with a margin, onto an instant with a small window', () => {
    expect(focusWindow({ row: 0, container: 1, start: 100, end: 200 }, 10)).toEqual([75, 225]);
    expect(focusWindow({ row: 0, container: 1, start: 100, end: null }, 10)).toEqual([95, 105]);
  });
});

describe('the filters\' statements', () => {
  it('asks the states and events the where expression selects in the window', () => {
    const sql = filterSql("value LIKE 'MPI_%' AND dur > 1000", 10.4, 20.6, '1000', true);
    expect(sql).toContain("WHERE (value LIKE 'MPI_%' AND dur > 1000\n) AND ts <= 1021 AND \"end\" >= 1010");
    expect(sql).toContain('FROM states');
    expect(sql).toContain('ts AS "end", 0 AS dur');
    expect(sql.split('UNION ALL')).toHaveLength(2);
  });

  it('keeps a trailing comment from swallowing the statement', () => {
    expect(filterSql('dur > 5 -- long', 0, 1, '0', false)).toContain('dur > 5 -- long\n)');
    expect(groupSql('parent -- c')).toBe('SELECT id, (parent -- c\n) FROM containers');
    expect(orderSql('name DESC')).toBe('SELECT id FROM containers ORDER BY name DESC\n, id');
  });

  it('reads the group and order answers', () => {
    expect(groupsOf(result(['id', 'g'], [[1, 'a'], [2, null], [3, 7]]))).toEqual(new Map([[1, 'a'], [2, 'NULL'], [3, '7']]));
    expect(ranksOf(result(['id'], [[5], [2], [9]]))).toEqual(new Map([[5, 0], [2, 1], [9, 2]]));
  });
});

describe('SQL errors', () => {
  it('finds the place of an error in the statements', () => {
    expect(sqlErrorPlace('SQL:2:5: near "FORM": syntax error')).toEqual({ line: 2, column: 5, text: 'near "FORM": syntax error' });
    expect(sqlErrorPlace('still being read')).toBeNull();
    const text = 'SELECT *\nFORM states';
    expect(offsetAt(text, 2, 1)).toBe(9);
    expect(offsetAt(text, 2, 99)).toBe(text.length);
    expect(offsetAt(text, 5, 1)).toBe(text.length);
  });
});
