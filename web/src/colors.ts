// One colour per (entity type, value), the same in every view: the user's
// choice if any (kept in localStorage), else the trace's declared colour,
// else one derived from a hash of the pair, so it never depends on the order
// in which values happen to be met.

export interface KeyValueStore { getItem(key: string): string | null; setItem(key: string, value: string): void }

const STORAGE_KEY = 'macroscope.colors';

/** FNV-1a, 32 bits: small, and spreads close strings ("value 1", "value 2") apart. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

export function hashColor(type: string, value: string): string {
  const h = hash32(`${type}\u0000${value}`);
  // Hue from the low bits; saturation and lightness from higher ones, in a
  // band that stays readable on white and under black text.
  return hslToHex(h % 360, 0.5 + ((h >>> 9) % 25) / 100, 0.5 + ((h >>> 17) % 14) / 100);
}

function key(type: string, value: string): string { return `${type}\u0000${value}`; }

export class Palette {
  private declared = new Map<string, string>();
  private overrides: Record<string, string>;

  constructor(private readonly storage: KeyValueStore | null) {
    let saved: Record<string, string> = {};
    try { saved = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '{}') as Record<string, string>; } catch { /* a damaged entry is dropped */ }
    this.overrides = saved && typeof saved === 'object' ? saved : {};
  }

  /** The trace's own colours (PajeDefineEntityValue), used unless overridden. */
  declare(type: string, value: string, color: string | null): void {
    if (color) this.declared.set(key(type, value), color);
  }

  color(type: string, value: string): string {
    const k = key(type, value);
    return this.overrides[k] ?? this.declared.get(k) ?? hashColor(type, value);
  }

  set(type: string, value: string, color: string): void {
    this.overrides[key(type, value)] = color;
    this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.overrides));
  }

  reset(type: string, value: string): void {
    delete this.overrides[key(type, value)];
    this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.overrides));
  }
}

/** Splits a model type ("EntityType:value", or a variable type's bare name)
 * using the known entity type names, since either part may hold a colon. */
export function splitModelType(modelType: string, typeNames: Iterable<string>): [string, string] {
  let best = '';
  for (const name of typeNames) {
    if (name.length > best.length && (modelType === name || modelType.startsWith(`${name}:`))) best = name;
  }
  if (!best) {
    const colon = modelType.indexOf(':');
    return colon < 0 ? [modelType, ''] : [modelType.slice(0, colon), modelType.slice(colon + 1)];
  }
  return [best, modelType.slice(best.length + 1)];
}

/** Parts of the partition view: coloured by position so colours stay put
 * when p changes (a fixed, distinguishable palette). */
export const PART_PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f',
  '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

export function hexToRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function withAlpha(hex: string, alpha: number): string {
  const [r, g, b] = hexToRgb(hex);
  return `rgba(${r},${g},${b},${alpha.toFixed(3)})`;
}
