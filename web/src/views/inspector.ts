// The inspector: every field of one entity, user fields included.

import type { Entity } from '../api';
import type { TimeDisplay } from '../time';
import { formatNumber } from './layout';

function text(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    // Named references ({id, name} or {id, path}) read best as "name (#id)".
    const name = o.name ?? o.path;
    if (name !== undefined && o.id !== undefined) return `${String(name)} (#${String(o.id)})`;
    return JSON.stringify(v);
  }
  return String(v);
}

const ORDER = ['kind', 'type', 'container', 'value', 'start', 'end', 'duration', 'level', 'number', 'key', 'from', 'to'];
/** Fields that are model times, and lengths of time. */
const TIMES = new Set(['start', 'end']);
const LENGTHS = new Set(['duration']);

export class Inspector {
  private shown: [string, Entity, string | null] | null = null;

  constructor(private readonly root: HTMLElement, private readonly time: TimeDisplay, private readonly close: () => void) {}

  /** Draws the shown entity again (the clock mode changed). */
  refresh(): void { if (this.shown && !this.root.hidden) this.show(...this.shown); }

  show(id: string, entity: Entity, colour: string | null): void {
    this.shown = [id, entity, colour];
    this.root.replaceChildren();
    const head = document.createElement('div');
    head.className = 'inspector-head';
    const title = document.createElement('h3');
    if (colour) {
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = colour;
      title.appendChild(swatch);
    }
    title.append(`${text(entity.value ?? entity.kind)} `);
    const small = document.createElement('small');
    small.textContent = id;
    title.appendChild(small);
    const button = document.createElement('button');
    button.textContent = '×';
    button.title = 'Close';
    button.dataset.testid = 'inspector-close';
    button.addEventListener('click', () => this.close());
    head.append(title, button);
    const table = document.createElement('table');
    table.className = 'fields';
    const add = (name: string, value: unknown, user = false) => {
      if (value === undefined) return;
      const row = table.insertRow();
      row.dataset.field = name;
      const k = row.insertCell();
      k.textContent = name;
      if (user) k.className = 'user';
      const cell = row.insertCell();
      // Times to the tick: from the trace start or on the wall clock; the model's number on hover.
      if (!user && typeof value === 'number' && (TIMES.has(name) || LENGTHS.has(name))) {
        cell.textContent = TIMES.has(name) ? this.time.time(value, this.time.exact) : this.time.length(value, this.time.exact);
        cell.title = `model time ${value} (unit: ${this.time.clock.info.unit})`;
      } else {
        cell.textContent = text(value);
      }
    };
    for (const k of ORDER) add(k, entity[k]);
    for (const [k, v] of Object.entries(entity)) if (!ORDER.includes(k) && k !== 'fields' && k !== 'id') add(k, v);
    const fields = entity.fields ?? [];
    if (fields.length) {
      const sep = table.insertRow().insertCell();
      sep.colSpan = 2;
      sep.className = 'section';
      sep.textContent = 'user fields';
      for (const f of fields) add(f.name, f.value, true);
    }
    this.root.append(head, table);
    this.root.hidden = false;
  }

  error(message: string): void {
    this.root.replaceChildren(Object.assign(document.createElement('p'), { className: 'error', textContent: message }));
    this.root.hidden = false;
  }

  hide(): void { this.root.hidden = true; this.root.replaceChildren(); this.shown = null; }
}
