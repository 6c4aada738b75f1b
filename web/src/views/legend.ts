// The overview's legend: one chip per model type, whose colour can be edited.

import { splitModelType } from '../colors';

export function renderLegend(root: HTMLElement, modelTypes: string[], typeNames: string[],
                             colorOf: (modelType: string) => string,
                             recolour: (type: string, value: string, colour: string) => void): void {
  root.replaceChildren();
  for (const m of modelTypes) {
    const chip = document.createElement('label');
    chip.className = 'chip';
    const input = Object.assign(document.createElement('input'), { type: 'color', value: colorOf(m) });
    const [type, value] = splitModelType(m, typeNames);
    input.title = `Colour of ${m}`;
    input.addEventListener('input', () => recolour(type, value, input.value));
    chip.append(input, m);
    root.appendChild(chip);
  }
  const merged = document.createElement('span');
  merged.className = 'chip merged';
  merged.title = 'Types too small to draw in a part, merged on top (hover for the list)';
  merged.append(Object.assign(document.createElement('span'), { className: 'swatch dark' }), 'merged (too small)');
  root.appendChild(merged);
}
