// A result of the query endpoint as an HTML table whose columns sort on a
// click of their header (again: reversed), the first rows put on the page:
// the query panel's, the flat profile's and the latencies'. An analysis's
// table writes its nanosecond columns for people ("398.812 345 ms") under
// their names less the unit, the cell's value as the query gave it in its
// title and data-value; the query panel shows answers as they are.

import { type Cell, durationLabel, durationText, isDurationColumn, type QueryResult, sortedRows } from '../query';

function cellText(c: Cell): string { return c === null ? 'NULL' : String(c); }

export class ResultTable {
  /** The answer shown. */
  result: QueryResult | null = null;
  sort: { col: number; dir: 1 | -1 } | null = null;
  /** The row (its index in the answer) clicked last, -1 for none. */
  picked = -1;
  /** Rows on the page. */
  shown = 0;
  /** Rows of the answer in the order drawn (for the test hook). */
  order: number[] = [];

  /**
   * `pick`: a row was clicked (its index in the answer); `onSort`: the order
   * changed; `durations`: nanosecond columns written as durations.
   */
  constructor(private readonly table: HTMLTableElement, private readonly pick: (row: number) => void,
              private readonly limit = 1000, private readonly onSort: () => void = () => {},
              private readonly durations = true) {}

  set(result: QueryResult | null): void {
    this.result = result;
    this.sort = null;
    this.picked = -1;
    this.render();
  }

  sortOn(col: number, dir: 1 | -1): void { this.sort = { col, dir }; this.render(); this.onSort(); }

  private render(): void {
    const result = this.result;
    const table = this.table;
    table.replaceChildren();
    this.shown = 0;
    this.order = [];
    if (!result) return;
    const durationCols = result.columns.map((name) => this.durations && isDurationColumn(name));
    const head = table.createTHead().insertRow();
    result.columns.forEach((name, col) => {
      const th = document.createElement('th');
      // A duration column without its unit ("inclusive_ns": "inclusive"), its name in the title.
      const label = durationCols[col] ? durationLabel(name) : name;
      th.textContent = label + (this.sort?.col === col ? (this.sort.dir === 1 ? ' ▲' : ' ▼') : '');
      th.title = durationCols[col] ? `${name}: nanoseconds, written as durations · sort (again: reverse)` : 'Sort (again: reverse)';
      th.dataset.col = String(col);
      th.addEventListener('click', () => this.sortOn(col, this.sort?.col === col && this.sort.dir === 1 ? -1 : 1));
      head.appendChild(th);
    });
    const order = this.sort ? sortedRows(result.rows, this.sort.col, this.sort.dir) : result.rows.map((_, i) => i);
    this.order = order;
    const body = table.createTBody();
    for (const i of order.slice(0, this.limit)) {
      const tr = body.insertRow();
      tr.dataset.row = String(i);
      if (i === this.picked) tr.className = 'picked';
      result.rows[i].forEach((c, col) => {
        const td = tr.insertCell();
        const duration = durationCols[col] ? durationText(c) : null;
        td.textContent = duration ?? cellText(c);
        if (duration !== null) {
          td.title = `${cellText(c)} ns`;
          td.dataset.value = cellText(c);
        }
        if (c === null) td.className = 'null';
        else if (typeof c === 'number' || /^-?\d+$/.test(c)) td.className = 'num';
      });
      tr.addEventListener('click', () => {
        body.querySelector('tr.picked')?.classList.remove('picked');
        tr.classList.add('picked');
        this.picked = i;
        this.pick(i);
      });
    }
    if (order.length > this.limit) {
      const note = body.insertRow().insertCell();
      note.colSpan = result.columns.length;
      note.className = 'more';
      note.textContent = `the first ${this.limit} of ${order.length} rows: sort to see others, or take the CSV`;
    }
    this.shown = Math.min(this.limit, order.length);
  }
}
