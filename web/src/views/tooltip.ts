// The one floating tooltip of the page, shared by every view.

const tip = (() => {
  const el = document.createElement('div');
  el.className = 'tooltip';
  el.dataset.testid = 'tooltip';
  el.hidden = true;
  document.body.appendChild(el);
  return el;
})();

export interface TipLine { label: string; value: string; color?: string }

export function showTooltip(clientX: number, clientY: number, title: string, lines: TipLine[], note?: string): void {
  tip.replaceChildren();
  const head = document.createElement('div');
  head.className = 'tooltip-title';
  head.textContent = title;
  tip.appendChild(head);
  const table = document.createElement('table');
  for (const line of lines) {
    const row = table.insertRow();
    const k = row.insertCell();
    if (line.color) {
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = line.color;
      k.appendChild(swatch);
    }
    k.append(line.label);
    row.insertCell().textContent = line.value;
  }
  tip.appendChild(table);
  if (note) {
    const n = document.createElement('div');
    n.className = 'tooltip-note';
    n.textContent = note;
    tip.appendChild(n);
  }
  tip.hidden = false;
  const { innerWidth, innerHeight } = window;
  const r = tip.getBoundingClientRect();
  tip.style.left = `${Math.min(clientX + 14, innerWidth - r.width - 6)}px`;
  tip.style.top = `${clientY + 16 + r.height > innerHeight ? clientY - r.height - 10 : clientY + 16}px`;
}

export function hideTooltip(): void { tip.hidden = true; }
