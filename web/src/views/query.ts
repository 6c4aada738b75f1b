// The query panel: an SQL editor (Ctrl/Cmd+Enter runs), the result as a
// table whose columns sort on a click of their header, the row count, the
// SQL error at its place, and the CSV of the same statement.

import { type QueryResult, sqlErrorPlace, offsetAt } from '../query';
import { ResultTable } from './table';

/** Rows put in the table at most: the rest is reached by sorting, or in the CSV. */
const SHOWN = 1000;
/** The rows the CSV link asks for (the endpoint's most). */
export const CSV_LIMIT = 100000;

export interface QueryPanelEvents {
  run(sql: string): void;
  /** A row of the result (its index in the answer) was clicked. */
  pick(row: number): void;
}

export interface QueryPanelElements {
  sql: HTMLTextAreaElement; run: HTMLButtonElement; csv: HTMLAnchorElement;
  status: HTMLElement; error: HTMLElement; table: HTMLTableElement;
}

export class QueryPanel {
  private result: QueryResult | null = null;
  private readonly table: ResultTable;
  /** For the test hook. */
  drawn = { columns: [] as string[], rows: 0, shown: 0, truncated: false, sort: null as { col: number; dir: 1 | -1 } | null, error: '', marks: 0, csv: '' };

  constructor(private readonly el: QueryPanelElements, private readonly events: QueryPanelEvents) {
    this.table = new ResultTable(el.table, (row) => events.pick(row), SHOWN, () => { this.drawn.sort = this.table.sort; this.drawn.shown = this.table.shown; }, /* durations: */ false);  // answers as SQL gives them
    el.run.addEventListener('click', () => this.submit());
    el.sql.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.submit(); }
    });
  }

  private submit(): void {
    const sql = this.el.sql.value.trim();
    if (sql) this.events.run(sql);
  }

  /** The statements shown in the editor (from the URL), unless it is being edited. */
  setSql(sql: string): void { if (document.activeElement !== this.el.sql) this.el.sql.value = sql; }

  running(): void {
    this.el.status.textContent = 'running…';
    this.el.error.hidden = true;
  }

  clear(): void {
    this.result = null;
    this.table.set(null);
    this.el.status.textContent = '';
    this.el.error.hidden = true;
    this.el.csv.hidden = true;
    this.drawn = { ...this.drawn, columns: [], rows: 0, shown: 0, truncated: false, error: '', marks: 0, csv: '' };
  }

  /** A result: the table, its count, what the diagram highlights (null: the result has no container and ts), its CSV. */
  show(result: QueryResult, marks: number | null, csv: string): void {
    this.result = result;
    this.el.error.hidden = true;
    const n = result.rows.length;
    this.el.status.textContent = [
      `${n} row${n === 1 ? '' : 's'}`,
      result.truncated ? `truncated: the first ${n} only` : '',
      marks !== null ? `${marks} highlighted in the diagram` : '',
    ].filter(Boolean).join(' · ');
    this.el.csv.href = csv;
    this.el.csv.textContent = result.truncated ? `CSV (first ${CSV_LIMIT} rows)` : 'CSV';
    this.el.csv.hidden = false;
    this.drawn = { columns: result.columns, rows: n, shown: 0, truncated: result.truncated, sort: null, error: '', marks: marks ?? 0, csv };
    this.render();
  }

  /** The server refused the statements: its message, at its place in the editor. */
  error(message: string): void {
    this.clear();
    const place = sqlErrorPlace(message);
    this.el.error.textContent = place ? `line ${place.line}, column ${place.column}: ${place.text}` : message;
    this.el.error.hidden = false;
    this.el.status.textContent = 'error';
    this.drawn.error = message;
    if (place) {
      const at = offsetAt(this.el.sql.value, place.line, place.column);
      this.el.sql.setSelectionRange(at, at);
    }
  }

  private render(): void {
    this.table.set(this.result);
    this.drawn.shown = this.table.shown;
  }
}
