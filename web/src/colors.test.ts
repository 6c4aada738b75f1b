import { describe, expect, it } from 'vitest';
import { hashColor, Palette, splitModelType, type KeyValueStore } from './colors';

class MemoryStore implements KeyValueStore {
  data = new Map<string, string>();
  getItem(k: string) { return this.data.get(k) ?? null; }
  setItem(k: string, v: string) { this.data.set(k, v); }
}

describe('colours', () => {
  it('are stable and valid hex', () => {
    expect(hashColor('State', 'running')).toBe(hashColor('State', 'running'));
    expect(hashColor('State', 'running')).toMatch(/^#[0-9a-f]{6}$/);
    expect(hashColor('State', 'value 1')).not.toBe(hashColor('State', 'value 2'));
    expect(hashColor('A', 'bc')).not.toBe(hashColor('Ab', 'c'));
  });

  it('prefer the user, then the trace, then the hash', () => {
    const store = new MemoryStore();
    const palette = new Palette(store);
    expect(palette.color('S', 'x')).toBe(hashColor('S', 'x'));
    palette.declare('S', 'x', '#102030');
    expect(palette.color('S', 'x')).toBe('#102030');
    palette.set('S', 'x', '#abcdef');
    expect(new Palette(store).color('S', 'x')).toBe('#abcdef');
    palette.reset('S', 'x');
    expect(new Palette(store).color('S', 'x')).toBe(hashColor('S', 'x'));
  });

  it('survive a damaged store', () => {
    const store = new MemoryStore();
    store.setItem('macroscope.colors', '{not json');
    expect(new Palette(store).color('S', 'x')).toBe(hashColor('S', 'x'));
  });

  it('split model types on known type names', () => {
    expect(splitModelType('State:value 1', ['State', 'Load'])).toEqual(['State', 'value 1']);
    expect(splitModelType('Load', ['State', 'Load'])).toEqual(['Load', '']);
    expect(splitModelType('a:b:c', ['a:b'])).toEqual(['a:b', 'c']);
  });
});
