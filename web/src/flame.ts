// The flame graph's layout (pure, unit-tested): the rows of call_tree()
// (docs/query.md) as frames of an icicle — the roots on top, each frame as
// wide as its inclusive time, its children under it from its left edge in
// the table's order (by name). Zoomed onto a frame, that frame fills the
// width, its ancestors span it above, and the rest is left out.

import { columnIndex, type Cell, type QueryResult } from './query';

export interface CallNode {
  id: number; parent: number | null; depth: number; fn: string; path: string;
  calls: number; inclusive: number; exclusive: number;
}

/** A frame: its node, its horizontal extent as fractions of the width [x0, x1), its row (0 on top). */
export interface Frame { node: CallNode; x0: number; x1: number; row: number; ancestor: boolean }

const num = (c: Cell) => (c === null || c === '' ? 0 : Number(c));

/** The nodes of a call_tree() answer, by its column names. */
export function callNodes(result: QueryResult): CallNode[] {
  const at = (name: string) => columnIndex(result.columns, name);
  const [id, parent, depth, fn, path, calls, inclusive, exclusive] =
    ['id', 'parent', 'depth', 'function', 'path', 'calls', 'inclusive_ns', 'exclusive_ns'].map(at);
  if (id < 0 || parent < 0 || inclusive < 0) return [];
  return result.rows.map((r) => ({
    id: num(r[id]), parent: r[parent] === null || r[parent] === '' ? null : num(r[parent]), depth: num(r[depth]),
    fn: String(r[fn] ?? ''), path: String(r[path] ?? ''), calls: num(r[calls]),
    inclusive: num(r[inclusive]), exclusive: num(r[exclusive]),
  }));
}

/** The sum of the roots' inclusive times: the whole width when not zoomed. */
export function rootTotal(nodes: CallNode[]): number {
  return nodes.reduce((sum, n) => sum + (n.parent === null ? n.inclusive : 0), 0);
}

/**
 * The frames of `nodes` (a parent before its children), zoomed onto node
 * `focus` (null: the whole tree). Frames narrower than `minWidth` (a
 * fraction of the width) are left out with their subtrees.
 */
export function layoutFlame(nodes: CallNode[], focus: number | null, minWidth = 0): Frame[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const children = new Map<number | null, CallNode[]>();
  for (const n of nodes) {
    const key = n.parent !== null && byId.has(n.parent) ? n.parent : null;
    const list = children.get(key) ?? [];
    list.push(n);
    children.set(key, list);
  }
  const frames: Frame[] = [];
  const place = (list: CallNode[], x: number, scale: number, row: number) => {
    for (const n of list) {
      const w = n.inclusive * scale;
      if (w > 0 && w >= minWidth) {
        frames.push({ node: n, x0: x, x1: x + w, row, ancestor: false });
        place(children.get(n.id) ?? [], x, scale, row + 1);
      }
      x += w;
    }
  };
  const top = focus !== null ? byId.get(focus) : undefined;
  if (!top) {
    const total = rootTotal(nodes);
    if (total > 0) place(children.get(null) ?? [], 0, 1 / total, 0);
    return frames;
  }
  const chain: CallNode[] = [];
  for (let n: CallNode | undefined = top; n; n = n.parent !== null ? byId.get(n.parent) : undefined) chain.unshift(n);
  chain.forEach((n, row) => frames.push({ node: n, x0: 0, x1: 1, row, ancestor: n !== top }));
  if (top.inclusive > 0) place(children.get(top.id) ?? [], 0, 1 / top.inclusive, chain.length);
  return frames;
}

/** The frame at fraction `x` of the width on row `row`, if any. */
export function frameAt(frames: Frame[], x: number, row: number): Frame | undefined {
  return frames.find((f) => f.row === row && x >= f.x0 && x < f.x1);
}

/** An SQL text literal. */
export function sqlText(text: string): string { return `'${text.replaceAll("'", "''")}'`; }

/** The statement of a container's subtree by its path: the path itself or below it (exact, no LIKE pattern). */
export function subtreeSql(path: string): string {
  return `(SELECT id FROM containers WHERE path = ${sqlText(path)} OR substr(path, 1, ${path.length + 1}) = ${sqlText(`${path}/`)})`;
}

/**
 * The states of function `fn` as the diagram highlights them (resultMarks):
 * those meeting [lo, hi] (ticks as the query tables give them) of the
 * subtree at `path`, or all of them.
 */
export function functionStatesSql(fn: string, window?: { lo: string; hi: string; path?: string | null }): string {
  const where = window ? ` AND ts <= ${window.hi} AND "end" >= ${window.lo}${window.path ? ` AND container IN ${subtreeSql(window.path)}` : ''}` : '';
  return `SELECT id, container, ts, "end", depth, value, type FROM states WHERE value = ${sqlText(fn)}${where}`;
}
