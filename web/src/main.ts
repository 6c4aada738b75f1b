// The workbench: wires the URL state, the API and the views together.
// Every change of what is looked at goes through navigate(), which writes
// the URL (a history entry for zooms and choices, so the browser's back
// button undoes them) and then fetches only what that change needs.

import './style.css';
import { Api, type Aggregate, type PlistEntry, type TraceDetail, type TraceEntry } from './api';
import { Palette, splitModelType } from './colors';
import { filterSql, focusWindow, groupSql, groupsOf, orderSql, type QueryResult, ranksOf, resultMarks, sqlErrorPlace, type Mark } from './query';
import { stateText, traceLabel } from './reading';
import { DEFAULT_STATE, formatState, METRICS, parseState, sameModel, type ViewState } from './state/url';
import { AnalysisPanel, HIGHLIGHT_LIMIT } from './views/analyses';
import { CompareView } from './views/compare';
import { Curves } from './views/curves';
import { Filters } from './views/filters';
import { Gantt, type GanttFilter } from './views/gantt';
import { Inspector } from './views/inspector';
import { formatWallClock, TimeDisplay } from './time';
import { entryAt, formatNumber, kneeIndex, pInside } from './views/layout';
import { renderLegend } from './views/legend';
import { Overview } from './views/overview';
import { CSV_LIMIT, QueryPanel } from './views/query';
import { SqlFilters, type SqlFilterField } from './views/sqlfilters';
import { StatsView } from './views/stats';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let state: ViewState = parseState(location.search);
let applied: ViewState | null = null;
const api = new Api(state.token);
const palette = new Palette(window.localStorage);
let traces: TraceEntry[] = [];
let trace: TraceDetail | null = null;
/** The URL's trace while the server still reads it: pollTraces() opens it once it is ready. */
let awaited: number | null = null;
let typeNames: string[] = [];
let plist: PlistEntry[] = [];
let agg: Aggregate | null = null;
let inspected: string | null = null;
let pending = 0;
let renders = 0;
/** The query's rows the Gantt highlights. */
let resultRows: Mark[] = [];
/** The Gantt's lines by group= and order= (null: the tree, the trace's order). */
let lineGroup: Map<number, string> | null = null;
let lineRank: Map<number, number> | null = null;
/** The trace's tick origin in the query tables, asked once (docs/serve.md). */
let timeOrigin: Promise<string> | null = null;
/** The where filter's rows asked for a window at most. */
const WHERE_LIMIT = 20000;

/** Read-only test hook: what is drawn, refreshed after every render. */
const hook: Record<string, unknown> = { ready: false, loading: true };
(window as unknown as { __macroscope: unknown }).__macroscope = hook;

const colorOf = (modelType: string) => palette.color(...splitModelType(modelType, typeNames));
/** How every view writes times: from the trace start, or on the wall clock. */
const time = new TimeDisplay();

const overview = new Overview($('overview'), time, { select: (a, b) => zoomTo(a, b) });
const curves = new Curves($('curves'), (p) => navigate({ p }));
const inspector = new Inspector($('inspector-panel'), time, () => { inspected = null; inspector.hide(); gantt.markInspected(null); updateHook(); });
const statsView = new StatsView($('stats'), $('pie'), $('stats-range'), palette, time, recolour);
const filters = new Filters($('filters'), palette, (f) => navigate({ ...f, gantt: null }), recolour);
const gantt = new Gantt($('gantt'), $('ruler'), api, () => state.trace, palette, time, {
  select: (a, b) => zoomTo(a, b),
  viewChanged: (a, b) => { state = { ...state, gantt: [a, b] }; saveViewSoon(); analyses.viewChanged(); },
  inspect: (id) => void inspect(id),
  toggle: (c) => {
    const collapsed = state.collapsed.includes(c) ? state.collapsed.filter((x) => x !== c) : [...state.collapsed, c];
    navigate({ collapsed }, true);
  },
  lineMenu: (c) => threadPath(c),
});
gantt.onChange = () => { writeGanttInfo(); updateHook(); };
const queryPanel = new QueryPanel({
  sql: $('query-sql'), run: $('query-run'), csv: $('query-csv'), status: $('query-status'), error: $('query-error'), table: $('query-table'),
}, {
  run: (sql) => { if (sql === state.sql) void runQuery(); else navigate({ sql }); },
  pick: (row) => pickRow(row),
});
const sqlFilters = new SqlFilters($('sql-filters'), (f) => navigate(f));
/** compare=: A (the trace) and B on one axis, where they differ, their profiles' difference. */
const compareView = new CompareView({
  api, palette, track, error: showError, changed: () => updateHook(), navigate: (patch) => navigate(patch),
  viewChanged: (w) => { state = { ...state, gantt: w }; saveViewSoon(); },
});
/** What the analysis panel highlights in the diagram (a frame's function, a cell's messages). */
let highlighted: { sql: string; rows: number; truncated: boolean } | null = null;
let highlightCaption = '';
let highlightSeq = 0;
const analyses = new AnalysisPanel({
  api,
  trace: () => trace,
  origin: () => origin(),
  range: () => gantt.viewRange,
  containers: () => state.containers,
  colorOf: (fn, type) => palette.color(type ?? '', fn),
  highlight: (sql, caption) => void highlight(sql, caption),
  open: (panel) => navigate({ panel }, true),
  changed: () => updateHook(),
  marked: (kind) => state.marks.includes(kind),
  mark: (kind, on) => navigate({ marks: on ? [...new Set([...state.marks, kind])] : state.marks.filter((m) => m !== kind) }, true),
  draw: (kind, overlay) => gantt.setOverlay(kind, overlay),
  tid: () => state.tid,
  pickTid: (tid) => navigate({ tid, panel: 'path' }, true),
  zoom: (container, a, b) => {
    if (!trace) return;
    const mark: Mark = { row: -1, container, start: a, end: b > a ? b : null };
    const [x, y] = focusWindow(mark, (trace.end - trace.start) / 1000);
    gantt.focus(mark, x, y, false);
    navigate({ gantt: [x, y] });
  },
});

/**
 * A right click on a kernel thread's name: its critical path, drawn. The
 * tid is the last number of the line's name (the reader names a thread
 * "NAME TID").
 */
function threadPath(container: number): boolean {
  const c = trace?.containers.find((x) => x.id === container);
  const thread = trace?.types.find((t) => t.id === c?.type)?.alias === 'ctf.thread';
  const tid = c && /(\d+)\s*$/.exec(c.name);
  if (!thread || !tid) return false;
  navigate({ panel: 'path', tid: Number(tid[1]), marks: [...new Set([...state.marks, 'path' as const])] }, true);
  return true;
}

/** The trace's tick origin in the query tables, asked once. */
function origin(): Promise<string> {
  timeOrigin ??= api.query(state.trace, 'SELECT 1', 1).then((r) => r.time_origin);
  return timeOrigin;
}

/** The rows of an analysis's statement highlighted in the diagram, as a query's are. */
async function highlight(sql: string | null, caption: string): Promise<void> {
  const seq = ++highlightSeq;
  highlighted = null;
  if (sql === null) { resultRows = []; gantt.setResult([]); writeGanttInfo(); updateHook(); return; }
  try {
    const result = await track(api.query(state.trace, sql, HIGHLIGHT_LIMIT));
    if (seq !== highlightSeq) return;
    resultRows = resultMarks(result) ?? [];
    gantt.setResult(resultRows);
    highlighted = { sql, rows: result.rows.length, truncated: result.truncated };
    highlightCaption = caption;
  } catch (err) { showError(err); }
  writeGanttInfo();
  updateHook();
}

function recolour(type: string, value: string, colour: string): void {
  palette.set(type, value, colour);
  overview.render();
  gantt.schedule();
  statsView.redraw();
}

function fullSpan(): [number, number] { return trace ? [trace.start, trace.end] : [0, 1]; }
function range(): [number, number] { return state.range ?? fullSpan(); }

function zoomTo(a: number, b: number): void {
  const [s, e] = fullSpan();
  const lo = Math.max(s, a), hi = Math.min(e, b);
  if (hi > lo) navigate({ range: [lo, hi], gantt: null });
}

let saveTimer = 0;
/** Wheel and pan replace the current entry rather than flood the history. */
function saveViewSoon(): void {
  window.clearTimeout(saveTimer);
  saveTimer = window.setTimeout(() => { history.replaceState(null, '', formatState(state) || location.pathname); applied = { ...state }; }, 250);
}

function navigate(patch: Partial<ViewState>, replace = false): void {
  state = { ...state, ...patch };
  const url = formatState(state) || location.pathname;
  if (replace) history.replaceState(null, '', url); else history.pushState(null, '', url);
  void apply();
}

window.addEventListener('popstate', () => {
  const next = parseState(location.search);
  const traceChanged = next.trace !== state.trace;
  state = next;
  void (traceChanged ? openTrace() : apply()).catch(showError);
});

async function track<T>(work: Promise<T>): Promise<T> {
  pending++;
  updateHook();
  try { return await work; } finally { pending--; updateHook(); }
}

function showError(err: unknown): void {
  if ((err as Error).name === 'AbortError') return;
  console.error(err);
  const banner = $('error');
  banner.textContent = `Error: ${(err as Error).message}`;
  banner.hidden = false;
}

/** The trace selector: a trace the server is still reading says how far it has got, and cannot be chosen yet. */
function listTraces(): void {
  const select = $('trace') as HTMLSelectElement;
  for (const entry of traces) {
    let option = [...select.options].find((o) => o.value === String(entry.id));
    if (!option) select.add(option = new Option(entry.name, String(entry.id)));
    option.textContent = traceLabel(entry);
    option.disabled = entry.state !== 'ready';
  }
  select.value = String(state.trace);
  compareView.list(traces, state);
}

/** Opens the URL's trace, or, while the server still reads it, says how far it has got. */
async function openTrace(): Promise<void> {
  const entry = traces.find((t) => t.id === state.trace);
  if (entry && entry.state !== 'ready') {
    awaited = entry.state === 'loading' ? entry.id : null;
    $('trace-info').textContent = `${entry.format} · ${stateText(entry)}`;
    return;
  }
  awaited = null;
  await loadTrace();
  await apply();
}

/** Twice a second while the server reads a trace: the list again, the progress shown, the awaited trace opened once ready. */
async function pollTraces(): Promise<void> {
  while (traces.some((t) => t.state === 'loading')) {
    await new Promise((resolve) => window.setTimeout(resolve, 500));
    traces = await api.traces();
    listTraces();
    if (awaited !== null && awaited === state.trace) await openTrace();
  }
}

async function loadTrace(): Promise<void> {
  trace = await track(api.trace(state.trace));
  typeNames = trace.types.filter((t) => t.kind !== 'container').map((t) => t.name);
  for (const t of trace.types) for (const v of t.values ?? []) palette.declare(t.name, v.name, v.color);
  gantt.setTrace(trace);
  lineGroup = lineRank = timeOrigin = null;
  highlighted = null;
  analyses.reset();
  time.set(trace.time, trace.start);
  applied = null;
  const wall = time.clock.wallNs(trace.start);
  $('trace-info').textContent = `${trace.format} · ${time.length(trace.end - trace.start, time.exact)}`
    + `${wall !== null ? ` from ${formatWallClock(wall)} UTC` : ''} · `
    + `${trace.totals.container} containers, ${trace.totals.state} states, ${trace.totals.event} events, `
    + `${trace.totals.link} links, ${trace.totals.variable} variable points`;
  const toggle = $('clock') as HTMLButtonElement;
  toggle.hidden = !time.clock.hasWallClock;
}

/** The clock mode changed: every time on the page is written again. */
function redrawTimes(): void {
  overview.render();
  gantt.schedule();
  statsView.render();
  inspector.refresh();
  writeOverviewRange();
}

function toggleClock(): void {
  if (time.clock.hasWallClock) navigate({ clock: state.clock === 'wall' ? 'relative' : 'wall' }, true);
}

/** The model types the aggregate endpoint takes for the type and value filters. */
function modelTypes(): string[] | undefined {
  if (!trace || (!state.types.length && !state.values.length)) return undefined;
  const kept = trace.types.filter((t) => t.kind !== 'container' && (!state.types.length || state.types.includes(t.id)));
  return kept.flatMap((t) => {
    if (t.kind === 'variable' || !state.values.length) return [t.name];
    return (t.values ?? []).filter((v) => state.values.includes(v.name)).map((v) => `${t.name}:${v.name}`);
  });
}

function modelQuery() {
  const byId = new Map(trace?.containers.map((c) => [c.id, c]) ?? []);
  return {
    metric: state.metric, slices: state.slices, mode: state.mode,
    start: state.range?.[0], end: state.range?.[1], types: modelTypes(),
    containers: state.containers.length ? state.containers.map((id) => byId.get(id)?.path ?? '').filter(Boolean) : undefined,
  };
}

let modelSeq = 0;
let statsSeq = 0;

async function apply(): Promise<void> {
  if (!trace) return;
  const prev = applied;
  applied = { ...state };
  $('error').hidden = true;
  time.mode = state.clock;
  syncControls();
  if (prev && prev.clock !== state.clock) redrawTimes();
  gantt.setFilter(ganttFilter());
  queryPanel.setSql(state.sql);
  sqlFilters.set(state);
  if (state.where || state.group || state.order) ($('filters-panel') as HTMLDetailsElement).open = true;
  const changed = (...keys: (keyof ViewState)[]) => !prev || prev.trace !== state.trace || keys.some((k) => prev[k] !== state[k]);
  if (changed('sql')) void runQuery();
  if (changed('where', 'filter')) setWhere();
  if (changed('group', 'order')) void loadLines();
  const view = state.gantt ?? range();
  gantt.setView(view[0], view[1], false);
  compareView.list(traces, state);
  void compareView.apply(state, trace);
  if (changed('panel')) analyses.show(state.panel);
  else if (changed('range', 'gantt', 'containers')) analyses.viewChanged();
  if (!prev || String(prev.marks) !== String(state.marks) || prev.tid !== state.tid) analyses.marksChanged();
  if (!prev || String(prev.types) !== String(state.types) || String(prev.values) !== String(state.values) || String(prev.containers) !== String(state.containers)) {
    filters.render(trace, state);
  }
  if (!prev || String(prev.range) !== String(state.range) || String(prev.containers) !== String(state.containers) || prev.trace !== state.trace
      || String(prev.types) !== String(state.types) || String(prev.values) !== String(state.values)) {
    void loadStats();
  }
  try {
    if (!prev || !sameModel(prev, state)) await loadModel();
    else if (prev.p !== state.p) await loadAggregate(++modelSeq);
    else if (prev.view !== state.view) drawOverview();
  } catch (err) { showError(err); }
  updateHook();
}

function ganttFilter(): GanttFilter {
  return {
    types: state.types, values: state.values, containers: state.containers, collapsed: new Set(state.collapsed),
    group: lineGroup, rank: lineRank,
  };
}

/** The server's message for a filter's SQL, without a place in a statement the user did not write. */
function filterError(err: unknown): string {
  const message = (err as Error).message;
  return sqlErrorPlace(message)?.text ?? message;
}

let querySeq = 0;

/** Runs the panel's statements: the table, and the rows with a container and a time highlighted in the Gantt. */
async function runQuery(): Promise<void> {
  const seq = ++querySeq;
  resultRows = [];
  highlighted = null;
  ++highlightSeq;
  gantt.setResult([]);
  if (!state.sql) { queryPanel.clear(); return; }
  queryPanel.running();
  try {
    const result = await track(api.query(state.trace, state.sql));
    if (seq !== querySeq) return;
    const marks = resultMarks(result);
    resultRows = marks ?? [];
    gantt.setResult(resultRows);
    queryPanel.show(result, marks && marks.length, api.queryCsvUrl(state.trace, state.sql, CSV_LIMIT));
  } catch (err) {
    if (seq === querySeq) queryPanel.error((err as Error).message);
  }
  updateHook();
}

/**
 * A row of the result clicked: the Gantt zooms onto it and inspects its
 * entity — the one its integer `id` names (the query tables' id, which
 * /entity takes) when that entity is the row's (same container and start),
 * else the one the window holds at the row's place.
 */
function pickRow(row: number): void {
  const mark = resultRows.find((m) => m.row === row);
  if (!mark || !trace) return;
  const [a, b] = focusWindow(mark, (trace.end - trace.start) / 1000);
  const id = mark.id !== undefined && mark.id !== null && /^\d+$/.test(String(mark.id)) ? String(mark.id) : null;
  gantt.focus(mark, a, b, id === null && mark.id !== undefined && mark.id !== null);
  navigate({ gantt: [a, b] });
  if (id !== null) void inspectRow(mark, id, a, b);
}

async function inspectRow(mark: Mark, id: string, a: number, b: number): Promise<void> {
  const t = state.trace;
  try {
    const entity = await track(api.entity(t, id));
    const container = typeof entity.container === 'object' ? entity.container.id : entity.container;
    if (state.trace === t && container === mark.container && entity.start === mark.start && typeof entity.id === 'string') {
      void inspect(entity.id);
      return;
    }
  } catch { /* not an entity's id: the window's entity instead */ }
  if (state.trace === t) gantt.focus(mark, a, b, true);
}

/** The where filter: asked with each window of the Gantt, over its states and events. */
function setWhere(): void {
  sqlFilters.error('where', null);
  if (!state.where || !trace) { gantt.setWhere(null); return; }
  const { where, trace: t } = state;
  const whole = trace.time?.whole_ticks ?? false;
  gantt.setWhere({
    mode: state.filter,
    source: async (a, b, signal) => {
      try {
        const result = await api.query(t, filterSql(where, a, b, await origin(), whole), WHERE_LIMIT, signal);
        sqlFilters.error('where', null);
        return { marks: resultMarks(result) ?? [], truncated: result.truncated };
      } catch (err) {
        if ((err as Error).name === 'AbortError') throw err;
        sqlFilters.error('where', filterError(err));
        return null;
      }
    },
  });
}

/** What the where filter shows of the window, in the diagram's head. */
function writeGanttInfo(): void {
  const shown = state.where ? gantt.whereShown : null;
  $('gantt-info').textContent = [
    shown ? `where: ${shown.marks.length} entities in the window${shown.truncated ? ` — the first ${WHERE_LIMIT} only: zoom in for the rest` : ''}` : '',
    highlighted ? `highlighted: ${highlighted.rows} — ${highlightCaption}${highlighted.truncated ? ` (the first ${HIGHLIGHT_LIMIT})` : ''}` : '',
  ].filter(Boolean).join(' · ');
}

let linesSeq = 0;

/** The lines of group= and order=, asked of the containers table. */
async function loadLines(): Promise<void> {
  const seq = ++linesSeq;
  const ask = async <T>(field: SqlFilterField, expr: string, sql: (e: string) => string, read: (r: QueryResult) => T): Promise<T | null> => {
    sqlFilters.error(field, null);
    if (!expr) return null;
    try { return read(await track(api.query(state.trace, sql(expr), 100000))); }
    catch (err) { sqlFilters.error(field, filterError(err)); return null; }
  };
  const [group, rank] = await Promise.all([ask('group', state.group, groupSql, groupsOf), ask('order', state.order, orderSql, ranksOf)]);
  if (seq !== linesSeq) return;
  lineGroup = group;
  lineRank = rank;
  gantt.setFilter(ganttFilter());
  updateHook();
}

async function loadModel(): Promise<void> {
  const seq = ++modelSeq;
  const list = await track(api.plist(state.trace, modelQuery()));
  if (seq !== modelSeq) return;
  plist = list;
  if (state.p === null) {
    // No p asked for: the knee of the curves, written back so a reload keeps it.
    state = { ...state, p: pInside(plist.map((e) => e.p), kneeIndex(plist)) };
    history.replaceState(null, '', formatState(state));
    applied = { ...state };
  }
  await loadAggregate(seq);
}

async function loadAggregate(seq: number): Promise<void> {
  const result = await track(api.aggregate(state.trace, modelQuery(), state.p ?? 0.5));
  if (seq !== modelSeq) return;
  agg = result;
  drawOverview();
}

function drawOverview(): void {
  if (!agg) return;
  overview.set({ agg, view: state.view, mode: state.mode, metric: state.metric, colorOf });
  curves.set(plist, state.p ?? 0);
  renderLegend($('legend'), agg.types, typeNames, colorOf, recolour);
  writeOverviewRange();
  $('p-value').textContent = `p = ${formatNumber(state.p ?? 0)}`;
  renders++;
  updateHook();
}

function writeOverviewRange(): void {
  if (!agg) return;
  const [b, e] = agg.range ?? range();
  const resolution = time.pixel(e - b, $('overview').clientWidth);
  $('overview-range').textContent = `${time.range(b, e, resolution)} · ${agg.slices} slices · ${agg.parts.length} parts`;
}

async function loadStats(): Promise<void> {
  const seq = ++statsSeq;
  const [a, b] = range();
  try {
    const stats = await track(api.stats(state.trace, a, b, state.containers));
    // The endpoint has no type or value filter: the rows are narrowed here.
    const kept = new Set(trace?.types.filter((t) => state.types.includes(t.id)).map((t) => t.name));
    stats.rows = stats.rows.filter((r) => (!kept.size || kept.has(r.type)) && (!state.values.length || state.values.includes(r.value)));
    if (seq === statsSeq) statsView.set(stats);
  } catch (err) { showError(err); }
}

async function inspect(id: string): Promise<void> {
  inspected = id;
  gantt.markInspected(id);
  try {
    const entity = await track(api.entity(state.trace, id));
    if (inspected !== id) return;
    const typeName = typeof entity.type === 'object' ? entity.type.name : '';
    inspector.show(id, entity, entity.value ? palette.color(typeName, String(entity.value)) : null);
  } catch (err) { inspector.error((err as Error).message); }
  updateHook();
}

function stepP(delta: number): void {
  if (!plist.length || state.p === null) return;
  const ps = plist.map((e) => e.p);
  const k = entryAt(ps, state.p) + delta;
  if (k >= 0 && k < ps.length) navigate({ p: pInside(ps, k) });
}

function syncControls(): void {
  ($('view') as HTMLSelectElement).value = state.view;
  ($('mode') as HTMLSelectElement).value = state.mode;
  ($('metric') as HTMLSelectElement).value = state.metric;
  const slices = $('slices') as HTMLSelectElement;
  if (![...slices.options].some((o) => o.value === String(state.slices))) slices.add(new Option(String(state.slices), String(state.slices)));
  slices.value = String(state.slices);
  ($('trace') as HTMLSelectElement).value = String(state.trace);
  const toggle = $('clock') as HTMLButtonElement;
  toggle.setAttribute('aria-pressed', String(time.mode === 'wall'));
  // In the spatiotemporal view, "stacked" colours by amplitude.
  ($('view') as HTMLSelectElement).options[1].textContent = state.mode === 'spatiotemporal' ? 'amplitude' : 'stacked';
}

function canvasOrigin(id: string): [number, number] {
  const r = $(id).getBoundingClientRect();
  return [r.left, r.top];
}

function updateHook(): void {
  const [cx, cy] = canvasOrigin('curves');
  const [gx, gy] = canvasOrigin('gantt');
  const [ox, oy] = canvasOrigin('overview');
  const ps = plist.map((e) => e.p);
  const loading = pending > 0 || gantt.stats.loading || analyses.busy || compareView.loading;
  $('busy').hidden = !loading;
  Object.assign(hook, {
    ready: agg !== null,
    loading,
    url: location.search,
    trace: state.trace,
    p: state.p,
    parts: agg?.parts.length ?? 0,
    plistParts: plist.length && state.p !== null ? plist[entryAt(ps, state.p)].parts : null,
    range: agg?.range ?? null,
    slices: state.slices, metric: state.metric, mode: state.mode, view: state.view,
    clock: time.mode,
    wallClock: time.clock.hasWallClock,
    overview: { ...overview.drawn, marks: overview.mergedMarks().map((m) => ({ ...m, x: m.x + ox, y: m.y + oy })) },
    gantt: {
      start: gantt.viewRange[0], end: gantt.viewRange[1], ...gantt.stats, ruler: gantt.rulerDrawn,
      sample: gantt.sample.map((s) => ({ ...s, x: s.x + gx, y: s.y + gy })),
      lines: gantt.lineLabels.slice(0, 200), lineCount: gantt.lineLabels.length, lineBoxes: gantt.lineBoxes.slice(0, 200),
      marks: gantt.marksDrawn,
      overlay: gantt.overlayDrawn,
      where: gantt.whereShown && { rows: gantt.whereShown.marks.length, truncated: gantt.whereShown.truncated, mode: state.filter },
    },
    query: queryPanel.drawn,
    analysis: analyses.hook(),
    compare: compareView.hook(),
    highlighted,
    curvePoints: curves.points.map((pt) => ({ index: pt.index, p: pt.p, parts: pt.parts, x: pt.x + cx, y: pt.yGain + cy })),
    inspected,
    renders,
  });
}

function setupControls(): void {
  const metric = $('metric') as HTMLSelectElement;
  for (const m of METRICS) metric.add(new Option(m, m));
  const slices = $('slices') as HTMLSelectElement;
  for (const n of [10, 20, 30, 50, 100, 200, 500]) slices.add(new Option(String(n), String(n)));
  metric.addEventListener('change', () => navigate({ metric: metric.value as ViewState['metric'], p: null }));
  slices.addEventListener('change', () => navigate({ slices: Number(slices.value), p: null }));
  const mode = $('mode') as HTMLSelectElement;
  mode.addEventListener('change', () => {
    // The spatiotemporal cut is cubic in the slices: start it at a size that answers quickly.
    const st = mode.value === 'spatiotemporal';
    navigate({ mode: mode.value as ViewState['mode'], p: null, slices: st && state.slices > 50 ? 30 : state.slices });
  });
  const view = $('view') as HTMLSelectElement;
  view.addEventListener('change', () => navigate({ view: view.value as ViewState['view'] }));
  $('p-plus').addEventListener('click', () => stepP(1));
  $('p-minus').addEventListener('click', () => stepP(-1));
  $('back').addEventListener('click', () => history.back());
  $('forward').addEventListener('click', () => history.forward());
  $('reset').addEventListener('click', () => navigate({ range: null, gantt: null, containers: [] }));
  $('clock').addEventListener('click', () => toggleClock());
  $('kernel-latency-shortcut').addEventListener('click', () => navigate({ panel: 'latency' }, true));
  // W switches between times from the start and wall-clock times (not while typing).
  window.addEventListener('keydown', (e) => {
    const typing = (e.target as Element | null)?.closest?.('input, select, textarea');
    if (e.key.toLowerCase() === 'w' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing) toggleClock();
  });
  const select = $('trace') as HTMLSelectElement;
  select.addEventListener('change', () => {
    // The panel's statements stay: they may ask the next trace the same.
    state = { ...DEFAULT_STATE, token: state.token, clock: state.clock, sql: state.sql, panel: state.panel, trace: Number(select.value) };
    history.pushState(null, '', formatState(state) || location.pathname);
    void openTrace().catch(showError);
  });
  new ResizeObserver(() => { overview.render(); curves.render(); updateHook(); }).observe($('overview'));
}

async function main(): Promise<void> {
  setupControls();
  try {
    traces = await track(api.traces());
    if (!traces.some((t) => t.id === state.trace)) state = { ...state, trace: traces[0]?.id ?? 0 };
    listTraces();
    void pollTraces().catch(showError);
    await openTrace();
  } catch (err) { showError(err); }
}

void main();
