import { describe, expect, it } from 'vitest';
import type { TraceEntry } from './api';
import { readingText, stateText, traceLabel } from './reading';

describe('readingText', () => {
  it('gives the share of the bytes when their total is known', () => {
    expect(readingText({ bytes: 450, total_bytes: 1000, entities: 12 })).toBe('reading… 45%');
    // Rounded down: 100% only once every byte is read.
    expect(readingText({ bytes: 999, total_bytes: 1000, entities: 0 })).toBe('reading… 99%');
  });
  it('counts the entities when the total is unknown', () => {
    expect(readingText({ bytes: 0, total_bytes: 0, entities: 1204311 })).toBe('reading… 1,204,311 entities');
  });
  it('says only "reading…" before anything is counted', () => {
    expect(readingText({ bytes: 0, total_bytes: 0, entities: 0 })).toBe('reading…');
    expect(readingText(undefined)).toBe('reading…');
  });
});

describe('traceLabel', () => {
  const entry: TraceEntry = { id: 0, name: 'big.paje', format: 'paje', state: 'ready' };
  it('is the name of a trace read', () => { expect(traceLabel(entry)).toBe('big.paje'); });
  it('adds the progress while the trace is read', () => {
    expect(traceLabel({ ...entry, state: 'loading', progress: { bytes: 1, total_bytes: 4, entities: 0 } }))
      .toBe('big.paje — reading… 25%');
  });
  it('says when it could not be read', () => {
    expect(traceLabel({ ...entry, state: 'failed' })).toBe('big.paje — could not be read');
    expect(stateText({ ...entry, state: 'failed' })).toBe('could not be read');
  });
});
