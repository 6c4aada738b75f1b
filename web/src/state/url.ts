// The whole view lives in the URL's query, so that reload, share and the
// browser's back button all give the same picture. Parsing is forgiving:
// an unknown or malformed parameter falls back to its default.

export type Metric = 'state-time' | 'state-count' | 'event-count' | 'mean-state-duration'
  | 'variable-mean' | 'variable-min' | 'variable-max' | 'link-count';
export const METRICS: Metric[] = ['state-time', 'state-count', 'event-count', 'mean-state-duration',
  'variable-mean', 'variable-min', 'variable-max', 'link-count'];
export type Mode = 'temporal' | 'spatiotemporal';
export type OverviewView = 'partition' | 'stacked' | 'mode';
export const VIEWS: OverviewView[] = ['partition', 'stacked', 'mode'];

export interface ViewState {
  trace: number;
  /** The trace compared with `trace` (docs/compare.md, "In the workbench"); null = no comparison. */
  compare: number | null;
  /** Data zoom: the range the overview aggregates and the Gantt shows; null = the trace's span. */
  range: [number, number] | null;
  /** The Gantt's own window inside or around the range (wheel zoom, pan); null = the range. */
  gantt: [number, number] | null;
  /** null: the knee of the quality curves, chosen once the p list is known. */
  p: number | null;
  slices: number;
  metric: Metric;
  mode: Mode;
  view: OverviewView;
  /** Kept entity type ids; empty = all. */
  types: number[];
  /** Kept value names; empty = all. */
  values: string[];
  /** Selected container ids (with their subtrees); empty = all. */
  containers: number[];
  /** Collapsed containers of the Gantt. */
  collapsed: number[];
  /** Times read from the trace start, or as wall-clock dates (traces whose clock has an epoch). */
  clock: 'relative' | 'wall';
  /** The query panel's statements; '' = none run. */
  sql: string;
  /** SQL over the entity columns: the Gantt shows the entities it selects; '' = all. */
  where: string;
  /** What becomes of the entities `where` leaves out: dimmed or hidden. */
  filter: 'dim' | 'hide';
  /** SQL over containers' columns: containers of one value share a line of the Gantt; '' = the tree. */
  group: string;
  /** SQL over containers' columns: the Gantt's lines in its order; '' = the trace's. */
  order: string;
  /** The analysis panel's tab under the diagram; '' = closed. */
  panel: Panel;
  /** The analyses drawn over the diagram (docs/web.md): the wait states, the critical path. */
  marks: Overlays[];
  /** The thread whose critical path the panel shows (a kernel trace); null = none chosen. */
  tid: number | null;
  token: string | null;
}

export type Panel = '' | 'profile' | 'comm' | 'latency' | 'waits' | 'path';
export const PANELS: Panel[] = ['profile', 'comm', 'latency', 'waits', 'path'];
export type Overlays = 'waits' | 'path';

export const DEFAULT_STATE: ViewState = {
  trace: 0, compare: null, range: null, gantt: null, p: null, slices: 100, metric: 'state-time', mode: 'temporal',
  view: 'stacked', types: [], values: [], containers: [], collapsed: [], clock: 'relative',
  sql: '', where: '', filter: 'dim', group: '', order: '', panel: '', marks: [], tid: null, token: null,
};

function num(text: string | null): number | null {
  if (text === null || text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function pair(text: string | null): [number, number] | null {
  if (!text) return null;
  const [a, b, ...rest] = text.split(',').map(num);
  return rest.length === 0 && a !== null && b !== null && a !== undefined && b !== undefined && a < b ? [a, b] : null;
}

function ids(text: string | null): number[] {
  if (!text) return [];
  return text.split(',').map(num).filter((n): n is number => n !== null && Number.isInteger(n));
}

/** Value names may hold commas: they travel as repeated parameters. */
export function parseState(search: string): ViewState {
  const q = new URLSearchParams(search);
  const s: ViewState = { ...DEFAULT_STATE };
  const trace = num(q.get('trace'));
  if (trace !== null && Number.isInteger(trace) && trace >= 0) s.trace = trace;
  const compare = num(q.get('compare'));
  if (compare !== null && Number.isInteger(compare) && compare >= 0 && compare !== s.trace) s.compare = compare;
  s.range = pair(q.get('range'));
  s.gantt = pair(q.get('gantt'));
  const p = num(q.get('p'));
  if (p !== null && p >= 0 && p <= 1) s.p = p;
  const slices = num(q.get('slices'));
  if (slices !== null && Number.isInteger(slices) && slices >= 1 && slices <= 10000) s.slices = slices;
  const metric = q.get('metric');
  if (metric && (METRICS as string[]).includes(metric)) s.metric = metric as Metric;
  const mode = q.get('mode');
  if (mode === 'temporal' || mode === 'spatiotemporal') s.mode = mode;
  const view = q.get('view');
  if (view && (VIEWS as string[]).includes(view)) s.view = view as OverviewView;
  s.types = ids(q.get('types'));
  s.values = q.getAll('value');
  s.containers = ids(q.get('containers'));
  s.collapsed = ids(q.get('collapsed'));
  if (q.get('clock') === 'wall') s.clock = 'wall';
  for (const key of ['sql', 'where', 'group', 'order'] as const) s[key] = (q.get(key) ?? '').trim();
  if (q.get('filter') === 'hide') s.filter = 'hide';
  const panel = q.get('panel');
  if (panel && (PANELS as string[]).includes(panel)) s.panel = panel as Panel;
  s.marks = (['waits', 'path'] as const).filter((m) => (q.get('marks') ?? '').split(',').includes(m));
  const tid = num(q.get('tid'));
  if (tid !== null && Number.isInteger(tid)) s.tid = tid;
  s.token = q.get('token');
  return s;
}

/** Only what differs from the defaults is written, so URLs stay short. */
export function formatState(s: ViewState): string {
  const q = new URLSearchParams();
  if (s.trace !== DEFAULT_STATE.trace) q.set('trace', String(s.trace));
  if (s.compare !== null) q.set('compare', String(s.compare));
  if (s.range) q.set('range', s.range.join(','));
  if (s.gantt) q.set('gantt', s.gantt.join(','));
  if (s.p !== null) q.set('p', String(s.p));
  if (s.slices !== DEFAULT_STATE.slices) q.set('slices', String(s.slices));
  if (s.metric !== DEFAULT_STATE.metric) q.set('metric', s.metric);
  if (s.mode !== DEFAULT_STATE.mode) q.set('mode', s.mode);
  if (s.view !== DEFAULT_STATE.view) q.set('view', s.view);
  if (s.types.length) q.set('types', s.types.join(','));
  for (const v of s.values) q.append('value', v);
  if (s.containers.length) q.set('containers', s.containers.join(','));
  if (s.collapsed.length) q.set('collapsed', s.collapsed.join(','));
  if (s.clock !== DEFAULT_STATE.clock) q.set('clock', s.clock);
  for (const key of ['sql', 'where', 'group', 'order'] as const) if (s[key]) q.set(key, s[key]);
  if (s.filter !== DEFAULT_STATE.filter) q.set('filter', s.filter);
  if (s.panel) q.set('panel', s.panel);
  if (s.marks.length) q.set('marks', s.marks.join(','));
  if (s.tid !== null) q.set('tid', String(s.tid));
  if (s.token) q.set('token', s.token);
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** Whether two states need different data from the server for the overview. */
export function sameModel(a: ViewState, b: ViewState): boolean {
  return a.trace === b.trace && a.slices === b.slices && a.metric === b.metric && a.mode === b.mode
    && String(a.range) === String(b.range) && String(a.types) === String(b.types)
    && String(a.values) === String(b.values) && String(a.containers) === String(b.containers);
}
