// What the page says of a trace the server is still reading (its entry in
// GET /api/traces, docs/serve.md): the share of its bytes read when the
// reader knows their total, else the entities read so far.

import type { TraceEntry, TraceProgress } from './api';

/** "reading… 45%", "reading… 1,204,311 entities", or "reading…" before anything is counted. */
export function readingText(progress: TraceProgress | undefined): string {
  if (progress && progress.total_bytes > 0) {
    return `reading… ${Math.floor((100 * Math.min(progress.bytes, progress.total_bytes)) / progress.total_bytes)}%`;
  }
  if (progress && progress.entities > 0) return `reading… ${progress.entities.toLocaleString('en-US')} entities`;
  return 'reading…';
}

/** What is said of a trace that cannot be opened yet: how far its reading has got, or that it failed. */
export function stateText(entry: TraceEntry): string {
  return entry.state === 'failed' ? 'could not be read' : readingText(entry.progress);
}

/** The trace's name, with its state while it cannot be opened: "big.paje — reading… 45%". */
export function traceLabel(entry: TraceEntry): string {
  return entry.state === 'ready' ? entry.name : `${entry.name} — ${stateText(entry)}`;
}
