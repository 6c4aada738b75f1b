// A result of the query endpoint as an HTML table whose columns sort on a
// click of their header (again: reversed), the first rows put on the page:
// the query panel's, the flat profile's and the latencies'.

import { type Cell, type QueryResult, sortedRows } from '../query';

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

  /** `pick`: a row was clicked (its index in the answer); `onSort`: the order changed. */
  constructor(private readonly table: HTMLTableElement, private readonly pick: (row: number) => void,
              private readonly limit = 1000, private readonly onSort: () => void = () => {}) {}

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
    const head = table.createTHead().insertRow();
    result.columns.forEach((name, col) => {
      const th = document.createElement('th');
      th.textContent = name + (this.sort?.col === col ? (this.sort.dir === 1 ? ' ▲' : ' ▼') : '');
      th.title = 'Sort (again: reverse)';
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
      for (const c of result.rows[i]) {
        const td = tr.insertCell();
        td.textContent = cellText(c);
        if (c === null) td.className = 'null';
        else if (typeof c === 'number' || /^-?\d+$/.test(c)) td.className = 'num';
      }
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
