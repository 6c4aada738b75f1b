// The communication matrix (pure, unit-tested): comm()'s rows (sender,
// receiver, messages, bytes; docs/comm.md) as a square heatmap whose rows
// are the senders and columns the receivers, the ends in the order they
// first appear (comm() gives them in container order), and a colour ramp.

import { columnIndex, type Cell, type QueryResult } from './query';

export interface CommCell { sender: string; receiver: string; messages: number; bytes: number | null; row: number; col: number }
export interface CommMatrix { ends: string[]; cells: CommCell[]; max: { messages: number; bytes: number } }

const num = (c: Cell) => (c === null || c === '' ? null : Number(c));

export function commMatrix(result: QueryResult): CommMatrix {
  const [s, r, m, b] = ['sender', 'receiver', 'messages', 'bytes'].map((n) => columnIndex(result.columns, n));
  const index = new Map<string, number>();
  const at = (name: string) => {
    let i = index.get(name);
    if (i === undefined) index.set(name, i = index.size);
    return i;
  };
  const cells: CommCell[] = [];
  const max = { messages: 0, bytes: 0 };
  for (const row of result.rows) {
    const sender = String(row[s]), receiver = String(row[r]);
    const cell = { sender, receiver, messages: num(row[m]) ?? 0, bytes: b >= 0 ? num(row[b]) : null, row: at(sender), col: 0 };
    cells.push(cell);
    max.messages = Math.max(max.messages, cell.messages);
    max.bytes = Math.max(max.bytes, cell.bytes ?? 0);
  }
  for (const c of cells) c.col = at(c.receiver);
  return { ends: [...index.keys()], cells, max };
}

/** The colour of `value` out of `max`: light to dark blue on a logarithmic scale (a single message stays visible). */
export function rampColor(value: number, max: number): string {
  if (!(value > 0) || !(max > 0)) return '#f4f5f7';
  const t = max <= 1 ? 1 : Math.log1p(value) / Math.log1p(max);
  const mix = (a: number, b: number) => Math.round(a + (b - a) * (0.15 + 0.85 * t));
  return `rgb(${mix(222, 8)},${mix(235, 48)},${mix(247, 107)})`;
}

/** The label of an end: its path's last names, as many as fit in `chars`. */
export function shortPath(path: string, chars: number): string {
  if (path.length <= chars) return path;
  const names = path.split('/');
  let text = names.pop() ?? '';
  while (names.length && text.length + names[names.length - 1].length + 1 <= chars - 1) text = `${names.pop()}/${text}`;
  return `…${text}`.slice(0, Math.max(chars, 2));
}
