// The Gantt's lines (pure, unit-tested): the container tree, or with
// `group=` one line per value of the grouping expression; siblings, or the
// groups, in the order of `order=` when it is given. Without it, a kernel
// trace's CPUs come first among their siblings, in the numeric order of
// their names (cpu2 before cpu10), then the rest in the trace's order (the
// process tree: a process, then its threads), as Trace Compass shows them.

import type { ContainerNode } from '../api';

export interface LinePlan {
  /** What the line's label says: the container's name, or the group's value. */
  label: string;
  /** The container it stands for (a group's first). */
  container: ContainerNode;
  /** The containers whose entities it draws. */
  members: number[];
  depth: number;
  hasChildren: boolean;
}

export interface LineOptions {
  /** The containers to show with their subtrees; empty = all. */
  roots: number[];
  collapsed: Set<number>;
  /** Each container's group value; null = the tree. */
  group: Map<number, string> | null;
  /** Each container's rank; null = the trace's order. */
  rank: Map<number, number> | null;
  /** The CPUs of a kernel trace (ids), put first among their siblings when there is no rank. */
  cpus?: Set<number>;
}

/** Names in natural order: runs of digits compared as numbers ("cpu2" before "cpu10"). */
export function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true }) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The ids of a kernel trace's CPU containers (type alias `ctf.cpu`). */
export function cpuContainers(containers: ContainerNode[], types: { id: number; alias: string }[]): Set<number> {
  const cpu = new Set(types.filter((t) => t.alias === 'ctf.cpu').map((t) => t.id));
  return new Set(containers.filter((c) => cpu.has(c.type)).map((c) => c.id));
}

export function planLines(containers: ContainerNode[], o: LineOptions): LinePlan[] {
  const byId = new Map(containers.map((c) => [c.id, c]));
  const rankOf = (c: ContainerNode) => o.rank?.get(c.id) ?? Infinity;
  const cpus = o.cpus ?? new Set<number>();
  const ordered = (list: ContainerNode[]) => {
    if (o.rank) return [...list].sort((a, b) => rankOf(a) - rankOf(b));
    if (!cpus.size || !list.some((c) => cpus.has(c.id))) return list;
    const first = list.filter((c) => cpus.has(c.id)).sort((a, b) => naturalCompare(a.name, b.name));
    return [...first, ...list.filter((c) => !cpus.has(c.id))];
  };
  const children = new Map<number, ContainerNode[]>();
  for (const c of containers) {
    const list = children.get(c.parent) ?? [];
    list.push(c);
    children.set(c.parent, list);
  }
  const roots = ordered(o.roots.length
    ? o.roots.map((id) => byId.get(id)).filter((c): c is ContainerNode => !!c)
    : containers.filter((c) => !byId.has(c.parent)));
  const plans: LinePlan[] = [];
  if (o.group) {
    // Flat: every container of the shown subtrees, grouped by value, groups in the order of their first member.
    const groups = new Map<string, LinePlan>();
    const visit = (c: ContainerNode) => {
      const label = o.group!.get(c.id) ?? c.name;
      const line = groups.get(label);
      if (line) line.members.push(c.id);
      else {
        const plan = { label, container: c, members: [c.id], depth: 0, hasChildren: false };
        groups.set(label, plan);
        plans.push(plan);
      }
      for (const k of ordered(children.get(c.id) ?? [])) visit(k);
    };
    for (const r of roots) visit(r);
    if (o.rank) {
      const first = new Map(plans.map((p) => [p, Math.min(...p.members.map((id) => o.rank!.get(id) ?? Infinity))]));
      plans.sort((a, b) => first.get(a)! - first.get(b)!);
    }
    return plans;
  }
  const visit = (c: ContainerNode, depth: number) => {
    const kids = children.get(c.id) ?? [];
    plans.push({ label: c.name, container: c, members: [c.id], depth, hasChildren: kids.length > 0 });
    if (!o.collapsed.has(c.id)) for (const k of ordered(kids)) visit(k, depth + 1);
  };
  for (const r of roots) visit(r, 0);
  return plans;
}
