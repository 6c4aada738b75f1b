// Pajé's filters as SQL (docs/web.md): `where` over the entity columns
// (the rest dimmed or hidden), `group` and `order` over containers'
// columns. Enter or Apply sends them to the URL; the server's refusal of
// one is written under its input.

export interface SqlFilterChoice { where: string; filter: 'dim' | 'hide'; group: string; order: string }
export type SqlFilterField = 'where' | 'group' | 'order';

const FIELDS: { key: SqlFilterField; label: string; placeholder: string }[] = [
  { key: 'where', label: 'where (states, events)', placeholder: "value LIKE 'MPI_%' AND dur > 1000" },
  { key: 'group', label: 'group lines by (containers)', placeholder: "substr(path, 1, instr(path || '/', '/') - 1)" },
  { key: 'order', label: 'order lines by (containers)', placeholder: 'name DESC' },
];

export class SqlFilters {
  private inputs = new Map<SqlFilterField, HTMLTextAreaElement>();
  private errors = new Map<SqlFilterField, HTMLElement>();
  private mode = document.createElement('select');

  constructor(root: HTMLElement, private readonly change: (f: SqlFilterChoice) => void) {
    this.mode.dataset.testid = 'filter-mode';
    for (const m of ['dim', 'hide']) this.mode.add(new Option(`others ${m === 'dim' ? 'dimmed' : 'hidden'}`, m));
    this.mode.addEventListener('change', () => this.emit());
    for (const { key, label, placeholder } of FIELDS) {
      const title = Object.assign(document.createElement('div'), { className: 'filter-heading', textContent: label });
      const input = Object.assign(document.createElement('textarea'), { rows: 1, placeholder, spellcheck: false });
      input.dataset.testid = `${key}-input`;
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); this.emit(); }
      });
      const error = Object.assign(document.createElement('div'), { className: 'error', hidden: true });
      error.dataset.testid = `${key}-error`;
      this.inputs.set(key, input);
      this.errors.set(key, error);
      root.append(title, input, error);
      if (key === 'where') root.append(this.mode);
    }
    const apply = Object.assign(document.createElement('button'), { textContent: 'Apply', title: 'Apply the three (Enter)' });
    apply.dataset.testid = 'sql-filters-apply';
    apply.addEventListener('click', () => this.emit());
    root.append(apply);
  }

  private emit(): void {
    const text = (k: SqlFilterField) => this.inputs.get(k)!.value.trim();
    this.change({ where: text('where'), filter: this.mode.value as 'dim' | 'hide', group: text('group'), order: text('order') });
  }

  /** The URL's filters in the inputs. */
  set(f: SqlFilterChoice): void {
    for (const [key, input] of this.inputs) if (document.activeElement !== input) input.value = f[key];
    this.mode.value = f.filter;
  }

  /** The server's refusal of a field (null: none). */
  error(field: SqlFilterField, message: string | null): void {
    const el = this.errors.get(field)!;
    el.textContent = message ?? '';
    el.hidden = message === null;
  }
}
