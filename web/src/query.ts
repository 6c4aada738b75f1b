// Pure helpers of the SQL the workbench asks (docs/serve.md, GET
// /api/traces/{t}/query): sorting a result's cells, the model times of its
// rows, the rows the Gantt can highlight, and the statements behind the
// `where`, `group` and `order` filters, nanoseconds for people. Unit-tested;
// no DOM.

import { humanNanoseconds, humanSeconds } from './time';

/** A cell as the endpoint sends it: an integer beyond ±2^53 comes as a text of its digits. */
export type Cell = number | string | null;
export interface QueryResult { columns: string[]; rows: Cell[][]; truncated: boolean; time_origin: string }

const INTEGER = /^-?\d+$/;

/** A cell's number, exact (a BigInt for a text of digits), or null for a text or null. */
function numeric(c: Cell): number | bigint | null {
  if (typeof c === 'number') return c;
  return typeof c === 'string' && INTEGER.test(c) ? BigInt(c) : null;
}

/**
 * The order of the table's columns: numbers (big-integer texts included,
 * compared exactly) before texts (by localeCompare), nulls last in both
 * directions; `dir` -1 reverses the rest.
 */
/** The unit a nanosecond column's name ends with: "inclusive_ns", "B − A (ns)". */
const NS_SUFFIX = / ?(?:_ns|\(ns\))$/;

/** Whether a column holds nanoseconds. */
export function isDurationColumn(name: string): boolean { return NS_SUFFIX.test(name); }

/** A nanosecond column's name less its unit: "inclusive_ns" -> "inclusive", "B − A (ns)" -> "B − A". */
export function durationLabel(name: string): string { return name.replace(NS_SUFFIX, ''); }

/**
 * A nanosecond cell for people ("398.812 345 ms"): whole ones exactly
 * (humanNanoseconds), others to the ns; null for a cell that is no number.
 */
export function durationText(c: Cell): string | null {
  if (typeof c === 'string' && /^-?\d+$/.test(c)) return humanNanoseconds(BigInt(c));
  if (typeof c !== 'number' || !Number.isFinite(c)) return null;
  return Number.isInteger(c) ? humanNanoseconds(BigInt(c)) : humanSeconds(c * 1e-9, 1e-9);
}

export function compareCells(a: Cell, b: Cell, dir: 1 | -1 = 1): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const na = numeric(a), nb = numeric(b);
  let order: number;
  // JavaScript compares a BigInt with a number exactly.
  if (na !== null && nb !== null) order = na < nb ? -1 : na > nb ? 1 : 0;
  else if (na !== null || nb !== null) order = na !== null ? -1 : 1;
  else order = String(a).localeCompare(String(b));
  return order * dir;
}

/** The row indexes of `rows` sorted on column `col` (stable). */
export function sortedRows(rows: Cell[][], col: number, dir: 1 | -1): number[] {
  return rows.map((_, i) => i).sort((i, j) => compareCells(rows[i][col], rows[j][col], dir) || i - j);
}

/** A column's index by name, any case; -1 when absent. */
export function columnIndex(columns: string[], name: string): number {
  return columns.findIndex((c) => c.toLowerCase() === name);
}

/** The model time of a `ts` or `end` cell: the cell less `origin`, computed exactly, then as a number. */
export function modelTime(cell: Cell, origin: string): number | null {
  if (cell === null || cell === '') return null;
  if (origin === '0') return Number(cell);
  if ((typeof cell === 'number' && Number.isInteger(cell)) || (typeof cell === 'string' && INTEGER.test(cell))) {
    return Number(BigInt(cell) - BigInt(origin));
  }
  return Number(cell) - Number(origin);
}

/** A model time as a literal of the query's tables: whole ticks (rounded down or up) plus the origin, exactly. */
export function ticksLiteral(model: number, origin: string, whole: boolean, round: 'floor' | 'ceil'): string {
  if (!whole) return origin === '0' ? String(model) : String(model + Number(origin));
  const t = BigInt(Math[round](model));
  return String(t + BigInt(origin));
}

/** A row of a result as the Gantt marks it: on its container's line, from start to end (null: an instant). */
export interface Mark {
  row: number; container: number; start: number; end: number | null;
  type?: string; value?: string; depth?: number; id?: Cell;
}

/** The rows of a result that have a `container` and a `ts` (and maybe an `end`), as marks; null when it lacks those columns. */
export function resultMarks(result: QueryResult): Mark[] | null {
  const at = (name: string) => columnIndex(result.columns, name);
  const [container, ts, end, type, value, depth, id] = ['container', 'ts', 'end', 'type', 'value', 'depth', 'id'].map(at);
  if (container < 0 || ts < 0) return null;
  const marks: Mark[] = [];
  result.rows.forEach((cells, row) => {
    const c = cells[container];
    const start = modelTime(cells[ts], result.time_origin);
    if (c === null || start === null || !Number.isFinite(start)) return;
    const stop = end >= 0 ? modelTime(cells[end], result.time_origin) : null;
    const mark: Mark = { row, container: Number(c), start, end: stop !== null && stop > start ? stop : null };
    if (type >= 0 && cells[type] !== null) mark.type = String(cells[type]);
    if (value >= 0 && cells[value] !== null) mark.value = String(cells[value]);
    if (depth >= 0 && typeof cells[depth] === 'number') mark.depth = cells[depth] as number;
    if (id >= 0) mark.id = cells[id];
    marks.push(mark);
  });
  return marks;
}

/** The Gantt's window onto a mark: its span and a quarter of it each side; an instant, `instant` wide around it. */
export function focusWindow(mark: Mark, instant: number): [number, number] {
  if (mark.end === null) return [mark.start - instant / 2, mark.start + instant / 2];
  const pad = (mark.end - mark.start) / 4;
  return [mark.start - pad, mark.end + pad];
}

/** Events as rows of the states' columns (an instant: `end` = `ts`, no duration), so one expression reads both. */
const EVENTS_AS_STATES = `(SELECT id, container, type, value, ts, ts AS "end", 0 AS dur, 0 AS depth,
  ts_ns, ts_ns AS end_ns, 0 AS dur_ns FROM events)`;

/**
 * The statement behind `where=`: the states and events it selects that meet
 * [a, b] (model times), their times as the tables give them.
 */
export function filterSql(where: string, a: number, b: number, origin: string, whole: boolean): string {
  const lo = ticksLiteral(a, origin, whole, 'floor'), hi = ticksLiteral(b, origin, whole, 'ceil');
  const part = (from: string, kind: string) =>
    `SELECT id, container, ts, "end", depth, value, type, '${kind}' AS kind FROM ${from}\n`
    + `WHERE (${where}\n) AND ts <= ${hi} AND "end" >= ${lo}`;
  return `${part('states', 'state')}\nUNION ALL\n${part(EVENTS_AS_STATES, 'event')}`;
}

/** The statement behind `group=`: each container's value of the expression. */
export function groupSql(expr: string): string { return `SELECT id, (${expr}\n) FROM containers`; }

/** The statement behind `order=`: container ids in the order of its terms (each may say DESC), then by id. */
export function orderSql(expr: string): string { return `SELECT id FROM containers ORDER BY ${expr}\n, id`; }

/** The line label of a container from the group answer's cells (null reads NULL, as SQL writes it). */
export function groupsOf(result: QueryResult): Map<number, string> {
  return new Map(result.rows.map((r) => [Number(r[0]), r[1] === null ? 'NULL' : String(r[1])]));
}

/** Each container's rank from the order answer. */
export function ranksOf(result: QueryResult): Map<number, number> {
  return new Map(result.rows.map((r, i) => [Number(r[0]), i]));
}

/** An SQL error's place ("SQL:LINE:COL: message"), or null when it has none. */
export function sqlErrorPlace(message: string): { line: number; column: number; text: string } | null {
  const m = /^SQL:(\d+):(\d+): (.*)$/s.exec(message);
  return m ? { line: Number(m[1]), column: Number(m[2]), text: m[3] } : null;
}

/** The offset in `text` of 1-based line and column (for the caret), clamped to the text. */
export function offsetAt(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const end = text.indexOf('\n', offset);
  return Math.min(offset + Math.max(0, column - 1), end < 0 ? text.length : end);
}
