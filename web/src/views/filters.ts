// Filters (entity types, values, containers) and the colour of each value.
// Unticking narrows what both views draw; an empty selection means "all".

import type { TraceDetail } from '../api';
import type { Palette } from '../colors';

export interface FilterChoice { types: number[]; values: string[]; containers: number[] }

export class Filters {
  constructor(private readonly root: HTMLElement, private readonly palette: Palette,
              private readonly change: (f: FilterChoice) => void,
              private readonly recolour: (type: string, value: string, colour: string) => void) {}

  render(trace: TraceDetail, current: FilterChoice): void {
    this.root.replaceChildren();
    const entityTypes = trace.types.filter((t) => t.kind !== 'container');
    const allValues = [...new Set(entityTypes.flatMap((t) => (t.values ?? []).map((v) => v.name)))];
    const typeOn = (id: number) => current.types.length === 0 || current.types.includes(id);
    const valueOn = (v: string) => current.values.length === 0 || current.values.includes(v);
    const emit = () => {
      const types = [...this.root.querySelectorAll<HTMLInputElement>('input[data-type]')];
      const values = [...this.root.querySelectorAll<HTMLInputElement>('input[data-value]')];
      const select = this.root.querySelector<HTMLSelectElement>('select')!;
      const keptTypes = types.filter((i) => i.checked).map((i) => Number(i.dataset.type));
      // Several types can declare one value name: a value is kept if any of its boxes is.
      const keptValues = [...new Set(values.filter((i) => i.checked).map((i) => i.dataset.value!))];
      this.change({
        types: keptTypes.length === types.length ? [] : keptTypes,
        values: keptValues.length === allValues.length ? [] : keptValues,
        containers: [...select.selectedOptions].map((o) => Number(o.value)),
      });
    };
    for (const t of entityTypes) {
      const group = document.createElement('div');
      group.className = 'filter-type';
      const label = document.createElement('label');
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: typeOn(t.id) });
      box.dataset.type = String(t.id);
      box.addEventListener('change', emit);
      label.append(box, ` ${t.name} `, Object.assign(document.createElement('small'), { textContent: t.kind }));
      group.appendChild(label);
      const values = document.createElement('div');
      values.className = 'filter-values';
      for (const v of t.values ?? []) {
        const item = document.createElement('label');
        const vbox = Object.assign(document.createElement('input'), { type: 'checkbox', checked: valueOn(v.name) });
        vbox.dataset.value = v.name;
        vbox.addEventListener('change', () => {
          // The same name under another type follows, so the boxes never disagree.
          for (const other of this.root.querySelectorAll<HTMLInputElement>('input[data-value]')) if (other.dataset.value === v.name) other.checked = vbox.checked;
          emit();
        });
        const colour = Object.assign(document.createElement('input'), { type: 'color', value: this.palette.color(t.name, v.name) });
        colour.title = `Colour of ${t.name} ${v.name}`;
        colour.addEventListener('input', () => this.recolour(t.name, v.name, colour.value));
        item.append(vbox, colour, ` ${v.name}`);
        values.appendChild(item);
      }
      group.appendChild(values);
      this.root.appendChild(group);
    }
    const heading = Object.assign(document.createElement('div'), { className: 'filter-heading', textContent: 'Containers (with their subtrees; none selected = all)' });
    const select = document.createElement('select');
    select.multiple = true;
    select.size = Math.min(8, trace.containers.length);
    select.dataset.testid = 'container-filter';
    for (const c of trace.containers) {
      const option = Object.assign(document.createElement('option'), { value: String(c.id), textContent: c.path || c.name });
      option.selected = current.containers.includes(c.id);
      select.appendChild(option);
    }
    select.addEventListener('change', emit);
    this.root.append(heading, select);
  }
}
