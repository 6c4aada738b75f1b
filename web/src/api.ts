// Typed access to the JSON API of `macroscope serve` (docs/serve.md).
// Every request carries the access token when the page was given one.

import type { QueryResult } from './query';
import type { TimeInfo } from './time';

export interface Totals { container: number; state: number; event: number; link: number; variable: number }
/** How far the server has read a trace: bytes of `total_bytes` (0 when the reader does not know it), entities so far. */
export interface TraceProgress { bytes: number; total_bytes: number; entities: number }
/** An entry of the trace list: the server lists a trace from its start, with its progress while it reads it. */
export interface TraceEntry { id: number; name: string; format: string; state: 'loading' | 'ready' | 'failed'; progress?: TraceProgress }
/** A trace read: start and end are model times, in ticks of the trace's clock; `time` says what a tick is (time.ts). */
export interface TraceSummary extends TraceEntry { start: number; end: number; time?: TimeInfo; totals: Totals }
export interface DeclaredValue { name: string; color: string | null }
export type Kind = 'container' | 'state' | 'event' | 'link' | 'variable';
export interface TypeNode { id: number; name: string; alias: string; kind: Kind; parent: number; values?: DeclaredValue[] }
export interface ContainerNode { id: number; name: string; type: number; parent: number; path: string; start: number; end: number }
export interface TraceDetail extends TraceSummary { types: TypeNode[]; containers: ContainerNode[] }

export interface Part {
  start_slice: number; end_slice: number; node: string; gain: number; loss: number;
  node_id: number; values: number[];
}
export interface HierarchyNode { id: number; name: string; parent: number; path: string; leaves: [number, number] }
export interface Aggregate {
  range: [number, number] | null; slices: number; p: number; gain: number; loss: number; normalized: boolean;
  parts: Part[]; types: string[]; nodes: HierarchyNode[];
}
export interface PlistEntry { p: number; gain: number; loss: number; parts: number }

export interface StatsRow { kind: string; type: string; value: string; count: number; total_time: number; mean_time: number; share: number }
export interface Stats { range: [number, number]; rows: StatsRow[] }

export interface StateItem { id: string; start: number; end: number; value: string; level: number }
export interface EventItem { id: string; start: number; value: string }
export interface LinkItem { id: string; start: number; end: number; value: string; from: number; to: number }
export interface VariableItem { id: string; start: number; end: number; number: number }
export interface Summary { start: number; end: number; value?: string; level?: number; count: number; min?: number; max?: number }
export interface WindowRow {
  container: number; type: number; kind: 'state' | 'event' | 'link' | 'variable';
  items: (StateItem | EventItem | LinkItem | VariableItem)[]; summaries: Summary[];
}
export interface Window { start: number; end: number; width: number; rows: WindowRow[]; shown: number; hidden: number }

/** The window as sent (docs/serve.md): items and summaries are arrays, values indexes into `values`. */
export type WireItem = [id: string, ...fields: number[]];
export interface WireWindow {
  start: number; end: number; width: number; values: string[];
  rows: { container: number; type: number; kind: WindowRow['kind']; items: WireItem[]; summaries: number[][] }[];
  shown: number; hidden: number;
}

type Item = WindowRow['items'][number];

/** Per kind, an item's and a summary's fields in their order on the wire. */
const DECODERS: Record<WindowRow['kind'], {
  item: (fields: WireItem, values: string[]) => Item; summary: (fields: number[], values: string[]) => Summary;
}> = {
  state: {
    item: ([id, start, end, v, level], values) => ({ id, start, end, value: values[v], level }),
    summary: ([start, end, v, level, count], values) => ({ start, end, value: values[v], level, count }),
  },
  event: {
    item: ([id, start, v], values) => ({ id, start, value: values[v] }),
    summary: ([start, end, v, count], values) => ({ start, end, value: values[v], count }),
  },
  variable: {
    item: ([id, start, end, number]) => ({ id, start, end, number }),
    summary: ([start, end, min, max, count]) => ({ start, end, min, max, count }),
  },
  link: {
    item: ([id, start, end, v, from, to], values) => ({ id, start, end, value: values[v], from, to }),
    summary: ([start, end, v, count], values) => ({ start, end, value: values[v], count }),
  },
};

/** The compact answer of the window endpoint as the objects the views draw. */
export function decodeWindow(wire: WireWindow): Window {
  const { values } = wire;
  const rows = wire.rows.map((row): WindowRow => {
    const decode = DECODERS[row.kind];
    return {
      container: row.container, type: row.type, kind: row.kind,
      items: row.items.map((fields) => decode.item(fields, values)),
      summaries: row.summaries.map((fields) => decode.summary(fields, values)),
    };
  });
  return { start: wire.start, end: wire.end, width: wire.width, rows, shown: wire.shown, hidden: wire.hidden };
}

export interface UserField { name: string; value: string | number }
export interface Entity {
  kind: string; type: { id: number; name: string } | number; container: { id: number; path: string } | number;
  value?: string; start?: number; end?: number; duration?: number; level?: number; number?: number;
  key?: string; from?: unknown; to?: unknown; fields?: UserField[]; [extra: string]: unknown;
}

/** Query parameters shared by aggregate and plist. */
export interface ModelQuery {
  metric: string; slices: number; mode: string; start?: number; end?: number;
  types?: string[]; containers?: string[]; normalize?: boolean;
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string) { super(message); }
}

export class Api {
  constructor(private readonly token: string | null, private readonly base = 'api') {}

  /** The URL of an endpoint with its parameters and the token. */
  url(path: string, params: Record<string, string | number | undefined> = {}): string {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
    if (this.token) query.set('token', this.token);
    const qs = query.toString();
    return `${this.base}/${path}${qs ? `?${qs}` : ''}`;
  }

  private async get<T>(path: string, params: Record<string, string | number | undefined> = {}, signal?: AbortSignal): Promise<T> {
    const response = await fetch(this.url(path, params), { signal });
    const body = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw new ApiError(response.status, (body as { error?: string }).error ?? response.statusText);
    return body as T;
  }

  traces(): Promise<TraceEntry[]> { return this.get('traces'); }
  trace(t: number): Promise<TraceDetail> { return this.get(`traces/${t}`); }

  aggregate(t: number, q: ModelQuery, p: number, signal?: AbortSignal): Promise<Aggregate> {
    return this.get(`traces/${t}/aggregate`, { ...modelParams(q), p }, signal);
  }
  plist(t: number, q: ModelQuery, signal?: AbortSignal): Promise<PlistEntry[]> {
    return this.get(`traces/${t}/plist`, modelParams(q), signal);
  }
  stats(t: number, start: number, end: number, containers: number[], signal?: AbortSignal): Promise<Stats> {
    return this.get(`traces/${t}/stats`, { start, end, containers: containers.join(',') }, signal);
  }
  window(t: number, q: { start: number; end: number; width: number; containers?: number[]; types?: number[]; values?: string[] },
         signal?: AbortSignal): Promise<Window> {
    return this.get<WireWindow>(`traces/${t}/window`, {
      start: q.start, end: q.end, width: q.width,
      containers: q.containers?.join(','), types: q.types?.join(','), values: q.values?.join(','),
    }, signal).then(decodeWindow);
  }
  entity(t: number, id: string): Promise<Entity> { return this.get(`traces/${t}/entity/${id}`); }
  /** SQL over the trace (docs/serve.md): the rows of its last statement, at most `limit`. */
  query(t: number, sql: string, limit?: number, signal?: AbortSignal): Promise<QueryResult> {
    return this.get(`traces/${t}/query`, { sql, limit }, signal);
  }
  /** Where the same rows come as CSV (a link to download). */
  queryCsvUrl(t: number, sql: string, limit: number): string { return this.url(`traces/${t}/query.csv`, { sql, limit }); }
}

/** The overview's slices are the trace's time bins (`bins=1`): a store of any size answers from its summaries. */
function modelParams(q: ModelQuery): Record<string, string | number | undefined> {
  return {
    metric: q.metric, slices: q.slices, bins: 1, mode: q.mode, start: q.start, end: q.end,
    types: q.types?.join(','), containers: q.containers?.join(','), normalize: q.normalize ? 1 : undefined,
  };
}
