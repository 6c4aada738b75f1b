import { describe, expect, it } from 'vitest';
import type { ContainerNode } from '../api';
import { cpuContainers, type LineOptions, naturalCompare, planLines } from './lines';

// a ─┬─ a/x       b ─── b/z
//    └─ a/y
const node = (id: number, name: string, parent: number, type = 1): ContainerNode =>
  ({ id, name, parent, type, path: name, start: 0, end: 1 });
const containers = [node(1, 'a', 0), node(2, 'b', 0), node(3, 'x', 1, 2), node(4, 'y', 1, 2), node(5, 'z', 2, 2)];
const plain: LineOptions = { roots: [], collapsed: new Set(), group: null, rank: null };
const labels = (o: Partial<LineOptions>) => planLines(containers, { ...plain, ...o }).map((l) => l.label);

describe('the Gantt\'s lines', () => {
  it('follow the tree, collapsed subtrees left out', () => {
    expect(labels({})).toEqual(['a', 'x', 'y', 'b', 'z']);
    expect(planLines(containers, plain).map((l) => l.depth)).toEqual([0, 1, 1, 0, 1]);
    expect(labels({ collapsed: new Set([1]) })).toEqual(['a', 'b', 'z']);
    expect(labels({ roots: [2] })).toEqual(['b', 'z']);
  });

  it('order siblings by rank, keeping each subtree under its container', () => {
    const rank = new Map([[2, 0], [1, 1], [4, 2], [3, 3], [5, 4]]);
    expect(labels({ rank })).toEqual(['b', 'z', 'a', 'y', 'x']);
  });

  it('put containers of one group value on one line, labelled by it', () => {
    const group = new Map([[1, 'top'], [2, 'top'], [3, 'leaf'], [4, 'leaf'], [5, 'leaf']]);
    const lines = planLines(containers, { ...plain, group });
    expect(lines.map((l) => [l.label, l.members])).toEqual([['top', [1, 2]], ['leaf', [3, 4, 5]]]);
    expect(lines.every((l) => !l.hasChildren && l.depth === 0)).toBe(true);
    // Grouping ignores collapsing but keeps the container filter.
    expect(planLines(containers, { ...plain, group, collapsed: new Set([1]), roots: [1] }).map((l) => l.members)).toEqual([[1], [3, 4]]);
  });

  it('order groups by their first member\'s rank', () => {
    const group = new Map([[1, 'p'], [2, 'q'], [3, 'p'], [4, 'r'], [5, 'q']]);
    const rank = new Map([[4, 0], [5, 1], [1, 2], [2, 3], [3, 4]]);
    expect(labels({ group, rank })).toEqual(['r', 'q', 'p']);
    expect(labels({ group })).toEqual(['p', 'r', 'q']);
  });

  it('put a kernel trace\'s CPUs first, in numeric order, then the process tree in the trace\'s order', () => {
    // As bug446190 lists them: CPUs interleaved with processes, a process's threads under it.
    const kernel = [node(1, 'cpu2', 0, 7), node(2, 'cpu10', 0, 7), node(3, 'lttng-consumerd 1', 0, 8), node(4, 'cpu0', 0, 7),
      node(5, 'kworker 9', 0, 8), node(6, 'lttng-consumerd 2', 3, 9), node(7, 'cpu1', 0, 7)];
    const cpus = cpuContainers(kernel, [{ id: 7, alias: 'ctf.cpu' }, { id: 8, alias: 'ctf.process' }, { id: 9, alias: 'ctf.thread' }]);
    expect([...cpus]).toEqual([1, 2, 4, 7]);
    expect(planLines(kernel, { ...plain, cpus }).map((l) => [l.label, l.depth])).toEqual([
      ['cpu0', 0], ['cpu1', 0], ['cpu2', 0], ['cpu10', 0], ['lttng-consumerd 1', 0], ['lttng-consumerd 2', 1], ['kworker 9', 0]]);
    // order= still decides when given.
    const rank = new Map([[3, 0], [1, 1]]);
    expect(planLines(kernel, { ...plain, cpus, rank }).map((l) => l.label).slice(0, 2)).toEqual(['lttng-consumerd 1', 'lttng-consumerd 2']);
    expect(['cpu10', 'cpu9', 'cpu1'].sort(naturalCompare)).toEqual(['cpu1', 'cpu9', 'cpu10']);
  });
});
