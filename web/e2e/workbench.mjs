// End-to-end test of the workbench against the real `macroscope serve`:
//   node e2e/workbench.mjs MACROSCOPE_BINARY SOURCE_DIR [ARTIFACT_DIR]
// Starts the server on examples/synthetic.trace (and, as trace 1, a small
// trace with user fields from tests/paje/traces; as trace 2, when the shared
// test data is beside the clone, a 4-CPU LTTng kernel trace; then a server
// on two runs of one program written here, compared (?compare=1); and last,
// a server whose reading waits, to see the page while it reads), drives
// Debian's Chromium through playwright-core (no browser download), checks
// what the page draws against what the API answers — times included: from
// the trace start in seconds, or on the wall clock — and saves screenshots
// into ARTIFACT_DIR, and into SOURCE_DIR/docs too when
// MACROSCOPE_DOCS_SCREENSHOTS=1.
// Closes with "N passed, M failed"; exits non-zero on any failure.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const [binary, sourceDir, artifactArg] = process.argv.slice(2);
if (!binary || !sourceDir) {
  console.error('usage: node workbench.mjs MACROSCOPE_BINARY SOURCE_DIR [ARTIFACT_DIR]');
  process.exit(2);
}
if (!existsSync(join(sourceDir, 'web', 'dist', 'index.html'))) {
  console.error('web/dist is not built: run `make web` (npm ci && npm run build in web/)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const artifacts = resolve(artifactArg ?? '.');
mkdirSync(artifacts, { recursive: true });
const toDocs = process.env.MACROSCOPE_DOCS_SCREENSHOTS === '1';
// Real traces of other tools, beside the clone (CI has them): optional.
const kernelTrace = resolve(sourceDir, '..', 'shared', 'testdata', 'ctf', 'bug446190');
const haveKernelTrace = existsSync(join(kernelTrace, 'metadata'));
const otf2Trace = resolve(sourceDir, '..', 'shared', 'testdata', 'otf2', 'ping-pong-otf2', 'traces.otf2');
const haveOtf2Trace = existsSync(otf2Trace);
/** The OTF2 trace's index: after the kernel trace when there is one. */
const otf2Index = haveKernelTrace ? 3 : 2;
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) { passed++; console.log(`ok   ${name}`); } else { failed++; console.log(`FAIL ${name} ${detail}`); }
}

/** Starts the server on `args` (traces, options) and resolves with its base URL from the start-up line. */
function startServer(args) {
  const child = spawn(binary, ['serve', '--port', '0', '--web', join(sourceDir, 'web', 'dist'), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('no start-up line within 60 s')), 60000);
    const onLine = (line) => {
      const m = /serving \d+ trace\(s\) at (http:\/\/\S+)/.exec(line);
      if (m) { clearTimeout(timer); ok(m[1]); }
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', (l) => { process.stderr.write(`server: ${l}\n`); onLine(l); });
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`server exited with ${code}`)); });
  });
  return { child, url };
}

async function api(base, path) {
  const response = await fetch(new URL(`api/${path}`, base));
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The trace list once the server has read every trace (polled for at most 60 s: it serves while it reads). */
async function allRead(base) {
  const deadline = Date.now() + 60000;
  for (;;) {
    const list = await api(base, 'traces');
    if (list.every((t) => t.state === 'ready') || Date.now() > deadline) return list;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the page has drawn and nothing is loading, then returns the hook. */
async function settled(page, predicate = 'true') {
  await page.waitForFunction(`(() => { const m = window.__macroscope; return m && m.ready && !m.loading && (${predicate}); })()`,
    null, { timeout: 30000 });
  // One more frame so the Gantt's requestAnimationFrame has drawn.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => JSON.parse(JSON.stringify(window.__macroscope)));
}

async function shot(page, name, clip) {
  const options = { animations: 'disabled', ...(clip ? { clip } : {}) };
  await page.screenshot({ ...options, path: join(artifacts, name) });
  if (toDocs) await page.screenshot({ ...options, path: join(sourceDir, 'docs', name) });
}

function modelQuery(h) {
  return `slices=${h.slices}&bins=1&metric=${h.metric}&mode=${h.mode}`;
}

/** Axis labels of times from the trace start: "+0 s", "+19.5 ms", "+2.794 729 s". */
const RELATIVE = /^\+\d+(\.\d{1,3}( \d{1,3})*)? (s|ms|µs|ns)$/;
/** What the axis showed before times had a unit: the clock's own seconds, "1,412,670,961.2". */
const CLOCK_SECONDS = /\d{10}|\d,\d{3},\d{3},\d{3}/;

/** `ns` (a BigInt) from the trace start to the ns, in the unit of its magnitude: "+20.404 123 ms". */
function exactFromStart(ns) {
  const [unit, scale] = ns >= 1000000000n ? ['s', 1000000000n] : ns >= 1000000n ? ['ms', 1000000n] : ns >= 1000n ? ['µs', 1000n] : ['ns', 1n];
  const digits = (ns % scale).toString().padStart(scale.toString().length - 1, '0').match(/.{1,3}/g);
  return `+${ns / scale}${scale > 1n ? `.${digits.join(' ')}` : ''} ${unit}`;
}

/** `ns` (a BigInt) since 1970 as the workbench writes it: "2014-10-07 08:36:01.211 260 539". */
function wallClock(ns) {
  const date = new Date(Number(ns / 1000000000n) * 1000).toISOString();
  const fraction = (ns % 1000000000n).toString().padStart(9, '0');
  return `${date.slice(0, 10)} ${date.slice(11, 19)}.${fraction.slice(0, 3)} ${fraction.slice(3, 6)} ${fraction.slice(6)}`;
}


/** The profile tab of trace `t`: the flame graph against call_tree(), the flat profile against profile_total(), a frame clicked. */
async function checkProfile(t, label, picture) {
  await page.goto(withQuery(`trace=${t}&panel=profile`));
  let h = await settled(page, `window.__macroscope.trace === ${t} && window.__macroscope.analysis.flame.length > 0 && window.__macroscope.analysis.profileRows > 0`);
  const [lo, hi] = h.analysis.window;
  const sqlOf = async (statement) => api(base, `traces/${t}/query?limit=100000&sql=${encodeURIComponent(statement)}`);
  const tree = await sqlOf(`SELECT * FROM call_tree(${lo}, ${hi}, NULL)`);
  const roots = tree.rows.filter((r) => r[1] === null);
  const rootSum = roots.reduce((a, r) => a + r[6], 0);
  const flameBox = await page.locator('[data-testid=flame]').boundingBox();
  const drawnRoots = h.analysis.flame.filter((f) => f.row === 0);
  check(`${label}: the flame graph's roots are the tree's, as wide as their share of its inclusive time`,
    drawnRoots.length === roots.length && roots.every((r) => {
      const f = drawnRoots.find((d) => d.fn === r[3]);
      return f && Math.abs(f.w - (flameBox.width * r[6]) / rootSum) < 1;
    }), `${JSON.stringify(drawnRoots.map((f) => [f.fn, f.w]))} vs ${JSON.stringify(roots.map((r) => [r[3], r[6]]))} of ${flameBox.width}`);
  // Independently: the outermost states' time in the view, per value (a root is a function called at depth 0), to the ns.
  const summary = await api(base, `traces/${t}`);
  const [num, den] = summary.time?.seconds_per_tick ?? [1, 1];
  const outermost = await sqlOf(`SELECT value, sum(min("end", ${hi}) - max(ts, ${lo})) FROM states WHERE depth = 0 AND ts < ${hi} AND "end" > ${lo} GROUP BY value`);
  const ns = Object.fromEntries(outermost.rows.map(([v, d]) => [v, (Number(d) * num * 1e9) / den]));
  check(`${label}: each root's inclusive time is the time of its function's outermost states in the view`,
    roots.length > 0 && Object.keys(ns).length === roots.length && roots.every((r) => Math.abs(r[6] - ns[r[3]]) <= 1 + 1e-9 * r[6]),
    `${JSON.stringify(roots.map((r) => [r[3], r[6]]))} vs ${JSON.stringify(ns)}`);
  const total = await sqlOf(`SELECT * FROM profile_total(${lo}, ${hi}, NULL)`);
  const fnCol = total.columns.indexOf('function'), callsCol = total.columns.indexOf('calls');
  const profileCells = () => page.locator('[data-testid=profile-table] tbody tr').evaluateAll((rows, c) => rows.map((r) => r.cells[c].textContent), fnCol);
  check(`${label}: the flat profile lists profile_total()'s rows`, JSON.stringify(await profileCells()) === JSON.stringify(total.rows.map((r) => String(r[fnCol]))),
    `${await profileCells()} vs ${total.rows.map((r) => r[fnCol])}`);
  await page.click(`[data-testid=profile-table] th[data-col="${callsCol}"]`);
  const byCalls = total.rows.map((r, i) => [r, i]).sort((x, y) => x[0][callsCol] - y[0][callsCol] || x[1] - y[1]).map(([r]) => String(r[fnCol]));
  check(`${label}: the flat profile sorts on a header`, JSON.stringify(await profileCells()) === JSON.stringify(byCalls), `${await profileCells()} vs ${byCalls}`);
  // A frame clicked (the widest of the deepest row): its subtree fills the width, its function's states in the view are highlighted.
  const deepest = Math.max(...h.analysis.flame.map((f) => f.row));
  const frame = h.analysis.flame.filter((f) => f.row === deepest).reduce((a, b) => (b.w > a.w ? b : a));
  const node = tree.rows.find((r) => r[0] === frame.id);
  const [fx, fy] = [flameBox.x + frame.x + frame.w / 2, flameBox.y + frame.row * 18 + 9];
  await page.mouse.move(fx, fy);
  await page.locator('[data-testid=tooltip]').waitFor({ state: 'visible', timeout: 5000 });
  const frameTip = await page.locator('[data-testid=tooltip]').innerText();
  check(`${label}: a frame's tooltip gives its calls, inclusive and exclusive time`,
    frameTip.includes(frame.fn) && new RegExp(`calls\\s*${node[5]}\\b`).test(frameTip) && frameTip.includes(`(${node[6]} ns)`) && frameTip.includes(`(${node[7]} ns)`), frameTip);
  await page.mouse.click(fx, fy);
  h = await settled(page, `window.__macroscope.highlighted !== null && window.__macroscope.analysis.focus === ${frame.id}`);
  const occurrences = await sqlOf(`SELECT count(*) FROM states WHERE value = '${frame.fn.replaceAll("'", "''")}' AND ts <= ${hi} AND "end" >= ${lo}`);
  const zoomed = h.analysis.flame.find((f) => f.id === frame.id);
  check(`${label}: clicking a frame zooms onto it`, Math.abs(zoomed.x) < 0.5 && Math.abs(zoomed.w - flameBox.width) < 1
    && h.analysis.flame.filter((f) => f.ancestor).length === frame.row, JSON.stringify(zoomed));
  check(`${label}: clicking a frame highlights its function's states in the diagram`, h.highlighted.rows === occurrences.rows[0][0]
    && h.gantt.marks.result > 0 && (await page.locator('[data-testid=gantt-info]').innerText()).includes(`highlighted: ${occurrences.rows[0][0]}`),
  `${JSON.stringify(h.highlighted)} ${JSON.stringify(h.gantt.marks)} vs ${occurrences.rows[0][0]}`);
  {
    // The diagram zoomed onto the stretch where the most called function runs: the flame graph follows.
    const busiest = total.rows.reduce((a, b) => (b[callsCol] > a[callsCol] ? b : a))[fnCol];
    const span = await sqlOf(`SELECT min(ts), max("end") FROM states WHERE value = '${busiest.replaceAll("'", "''")}'`);
    const [a, b] = span.rows[0].map((c) => (Number.isInteger(c) || /^-?\d+$/.test(c) ? Number(BigInt(c) - BigInt(span.time_origin)) : c - Number(span.time_origin)));
    // Inside the trace, and narrower than it.
    const [ra, rb] = [Math.max(summary.start, a - (b - a) / 20), Math.min(summary.end, b + (b - a) / 20)];
    const [za, zb] = rb - ra > 0.8 * (summary.end - summary.start) ? [ra + 0.1 * (rb - ra), rb - 0.1 * (rb - ra)] : [ra, rb];
    await page.goto(withQuery(`trace=${t}&panel=profile&range=${za},${zb}`));
    h = await settled(page, `window.__macroscope.trace === ${t} && window.__macroscope.analysis.flame.some((f) => f.fn === ${JSON.stringify(busiest)})`);
    const target = h.analysis.flame.find((f) => f.fn === busiest);
    const [zlo, zhi] = h.analysis.window;
    const zoomedTree = await sqlOf(`SELECT sum(inclusive_ns) FROM call_tree(${zlo}, ${zhi}, NULL) WHERE parent IS NULL`);
    check(`${label}: the flame graph follows the diagram's range`, Number(zlo) > Number(lo) && Number(zhi) < Number(hi)
      && h.analysis.rootTotal === zoomedTree.rows[0][0] && zoomedTree.rows[0][0] < rootSum, `${zlo}..${zhi}: ${h.analysis.rootTotal} vs ${zoomedTree.rows[0][0]}`);
    // A row of the flat profile highlights its function too, the flame graph left whole.
    await page.locator('[data-testid=profile-table] tbody tr').filter({ hasText: busiest }).first().click();
    h = await settled(page, 'window.__macroscope.highlighted !== null');
    const inView = await sqlOf(`SELECT count(*) FROM states WHERE value = '${busiest.replaceAll("'", "''")}' AND ts <= ${h.analysis.window[1]} AND "end" >= ${h.analysis.window[0]}`);
    check(`${label}: a row of the flat profile highlights its function's states`, h.highlighted.rows === inView.rows[0][0] && h.analysis.focus === null,
      `${JSON.stringify(h.highlighted)} vs ${inView.rows[0][0]}`);
    await page.mouse.move(flameBox.x + target.x + target.w / 2, flameBox.y + target.row * 18 + 9);
    if (picture) await shot(page, picture);
  }
}

/** The communication tab of trace `t`: the matrix against comm(), a cell hovered and clicked. */
async function checkComm(t, label, picture) {
  await page.goto(withQuery(`trace=${t}&panel=comm`));
  const h0 = await settled(page, `window.__macroscope.trace === ${t} && window.__macroscope.analysis.comm.cells.length > 0`);
  const sqlOf = async (statement) => api(base, `traces/${t}/query?limit=100000&sql=${encodeURIComponent(statement)}`);
  const comm = await sqlOf(`SELECT * FROM comm(NULL, ${h0.analysis.window[0]}, ${h0.analysis.window[1]})`);
  const cellKey = (c) => JSON.stringify([c.sender, c.receiver, c.messages, c.bytes]);
  check(`${label}: the matrix's cells are comm()'s rows`,
    JSON.stringify(h0.analysis.comm.cells.map(cellKey).sort()) === JSON.stringify(comm.rows.map(([sender, receiver, messages, bytes]) => cellKey({ sender, receiver, messages, bytes })).sort()),
    `${h0.analysis.comm.cells.map(cellKey)} vs ${JSON.stringify(comm.rows)}`);
  const commBox = await page.locator('[data-testid=comm]').boundingBox();
  const busiest = h0.analysis.comm.cells.reduce((a, b) => (b.messages > a.messages ? b : a));
  await page.mouse.move(commBox.x + busiest.x, commBox.y + busiest.y);
  await page.locator('[data-testid=tooltip]').waitFor({ state: 'visible', timeout: 5000 });
  const cellTip = await page.locator('[data-testid=tooltip]').innerText();
  check(`${label}: hovering a cell gives its numbers`, cellTip.includes(busiest.sender) && cellTip.includes(busiest.receiver)
    && new RegExp(`messages\\s*${busiest.messages}\\b`).test(cellTip) && cellTip.includes(busiest.bytes === null ? '(no size)' : String(busiest.bytes)), cellTip);
  await page.mouse.click(commBox.x + busiest.x, commBox.y + busiest.y);
  const h = await settled(page, 'window.__macroscope.highlighted !== null');
  // Without a level the ends are the containers themselves.
  const atPath = (path) => `(SELECT id FROM containers WHERE path = '${path}')`;
  const between = await sqlOf(`SELECT count(*) FROM links WHERE src IN ${atPath(busiest.sender)} AND dst IN ${atPath(busiest.receiver)}`);
  check(`${label}: clicking a cell highlights the messages between its containers`, h.highlighted.rows === busiest.messages
    && between.rows[0][0] === busiest.messages && h.gantt.marks.result > 0, `${JSON.stringify(h.highlighted)} vs ${busiest.messages}, ${between.rows[0][0]}`);
  if (picture) {
    await page.mouse.move(commBox.x + busiest.x, commBox.y + busiest.y + 1);
    await shot(page, picture);
  }
}

/**
 * The critical path and the waits of trace `t` drawn over the diagram
 * (overlaytabs.ts): a mark per critical_path() segment on its container, a
 * connector per change of container, a segment clicked zoomed onto; a
 * mark per wait_instances() row of the view, a mark hovered naming its
 * pattern, the container waited for and its length.
 */
async function checkOverlays(t, label) {
  const sqlOf = async (statement) => api(base, `traces/${t}/query?limit=100000&sql=${encodeURIComponent(statement)}`);
  const info = await api(base, `traces/${t}`);
  const pathOf = new Map(info.containers.map((c) => [c.id, c.path]));
  const hover = async (r) => {
    const ganttBox = await page.locator('[data-testid=gantt]').boundingBox();
    await page.mouse.move(ganttBox.x + r.x + r.w / 2, ganttBox.y + r.y + r.h / 2);
    await page.locator('[data-testid=tooltip]').waitFor({ state: 'visible', timeout: 5000 });
    return page.locator('[data-testid=tooltip]').innerText();
  };

  await page.goto(withQuery(`trace=${t}&panel=path&marks=path`));
  let h = await settled(page, `window.__macroscope.trace === ${t} && window.__macroscope.analysis.path.segments > 0 && !!window.__macroscope.gantt.overlay.path`);
  const path = await sqlOf('SELECT * FROM critical_path()');
  const drawn = h.gantt.overlay.path.rects;
  check(`${label}: a path mark per critical_path() segment, on its container`, drawn.length === path.rows.length
    && drawn.every((r, i) => r.row === i && pathOf.get(r.container) === path.rows[i][0]),
  `${drawn.length} marks vs ${path.rows.length} rows: ${JSON.stringify(drawn.slice(0, 4).map((r) => pathOf.get(r.container)))}`);
  const jumps = path.rows.filter((r, i) => i > 0 && r[0] !== path.rows[i - 1][0]).length;
  check(`${label}: a connector at each jump between containers`, jumps > 0 && h.gantt.overlay.path.connectors === jumps,
    `${h.gantt.overlay.path.connectors} vs ${jumps}`);
  const [byFunction, byContainer] = await Promise.all([sqlOf("SELECT * FROM critical_path_by('function')"), sqlOf("SELECT * FROM critical_path_by('container')")]);
  const rowsOf = (id) => page.locator(`[data-testid=${id}] tbody tr`).count();
  check(`${label}: the segments and the shares per function and container beside them`, await rowsOf('path-table') === path.rows.length
    && await rowsOf('path-functions') === byFunction.rows.length && await rowsOf('path-containers') === byContainer.rows.length);
  const lengthCol = path.columns.indexOf('length_ns');
  const longest = path.rows.reduce((a, r, i) => (r[lengthCol] > path.rows[a][lengthCol] ? i : a), 0);
  const tip = await hover(drawn[longest]);
  check(`${label}: a path mark's tooltip names its function and length`, tip.includes('critical path') && tip.includes(`(${path.rows[longest][lengthCol]} ns)`), tip);
  /** The picture: the view zoomed onto the span of some rows (relative ticks), the widest mark drawn then hovered. */
  const picture = async (panel, from, to, kind, name) => {
    const pad = (to - from) / 20;
    await page.goto(withQuery(`trace=${t}&panel=${panel}&marks=${kind}&gantt=${info.start + from - pad},${info.start + to + pad}`));
    const z = await settled(page, `window.__macroscope.trace === ${t} && (window.__macroscope.gantt.overlay.${kind}?.rects.length ?? 0) > 0`);
    const rects = z.gantt.overlay[kind].rects;
    await hover(rects.reduce((a, r) => (r.w > a.w ? r : a)));
    await shot(page, name);
  };
  // A segment clicked: the diagram zoomed onto it (its span and a quarter of it each side).
  const short = path.rows.reduce((a, r, i) => (r[lengthCol] > 0 && r[lengthCol] < path.rows[a][lengthCol] ? i : a), longest);
  await page.locator('[data-testid=path-table] tbody tr').nth(short).click();
  h = await settled(page, `window.__macroscope.gantt.end - window.__macroscope.gantt.start < ${(info.end - info.start) / 2}`);
  const [sa, sb] = [info.start + Number(path.rows[short][1]), info.start + Number(path.rows[short][2])];
  const pad = (sb - sa) / 4;
  check(`${label}: clicking a segment zooms onto it`, Math.abs(h.gantt.start - (sa - pad)) <= 1e-9 * Math.abs(sa) + 1e-6
    && Math.abs(h.gantt.end - (sb + pad)) <= 1e-9 * Math.abs(sb) + 1e-6, `${h.gantt.start}..${h.gantt.end} vs ${sa}..${sb}`);
  // The path after its longest stretch (MPI_Init, on this trace): the ping-pong.
  await picture('path', Number(path.rows[longest][2]), Number(path.rows[path.rows.length - 1][2]), 'path', 'web-critical-path.png');

  await page.goto(withQuery(`trace=${t}&panel=waits&marks=waits`));
  h = await settled(page, `window.__macroscope.trace === ${t} && window.__macroscope.analysis.waits.instances > 0 && !!window.__macroscope.gantt.overlay.waits`);
  const [lo, hi] = h.analysis.window;
  const instances = await sqlOf(`SELECT * FROM wait_instances(${lo}, ${hi}, NULL)`);
  const waits = h.gantt.overlay.waits.rects;
  check(`${label}: a wait mark per wait_instances() row of the view, on its container`, waits.length === instances.rows.length
    && waits.every((r, i) => r.row === i && pathOf.get(r.container) === instances.rows[i][0]),
  `${waits.length} marks vs ${instances.rows.length} rows`);
  const [patterns, idle] = await Promise.all([sqlOf(`SELECT * FROM wait_states(${lo}, ${hi}, NULL)`), sqlOf(`SELECT * FROM idle_time(${lo}, ${hi}, NULL)`)]);
  check(`${label}: the waits tab lists wait_states() and idle_time()`, await rowsOf('waits-table') === patterns.rows.length
    && await rowsOf('idle-table') === idle.rows.length && h.analysis.waits.patterns === patterns.rows.length);
  const col = (name) => instances.columns.indexOf(name);
  const widest = waits.reduce((a, r, i) => (r.w > waits[a].w ? i : a), 0);
  const waitTip = await hover(waits[widest]);
  // Marks a few pixels wide overlap at this zoom: the one drawn last under the pointer is named.
  const [px, py] = [waits[widest].x + waits[widest].w / 2, waits[widest].y + waits[widest].h / 2];
  const under = waits.findLastIndex((r) => px >= r.x - 1 && px <= r.x + r.w + 1 && py >= r.y && py <= r.y + r.h);
  const row = instances.rows[under];
  check(`${label}: a wait mark's tooltip names its pattern, the container waited for and its length`,
    waitTip.includes(row[col('pattern')]) && waitTip.includes(row[col('peer')]) && waitTip.includes(`(${row[col('wait_ns')]} ns)`), waitTip);
  const times = instances.rows.flatMap((r) => [Number(r[col('start')]), Number(r[col('end')])]);
  await picture('waits', Math.min(...times), Math.max(...times), 'waits', 'web-waits.png');
}

/**
 * A run of a 4-rank program as a Pajé trace: each rank computes, then waits,
 * 60 times; with `slow`, rank 1 computes four times longer in iterations
 * 20 to 34 and the others wait as long for it — a second run that differs
 * from the first in one stretch of time.
 */
function chainRun(slow) {
  const header = [
    '%EventDef PajeDefineContainerType 0', '% Alias string', '% Type string', '% Name string', '%EndEventDef',
    '%EventDef PajeDefineStateType 1', '% Alias string', '% Type string', '% Name string', '%EndEventDef',
    '%EventDef PajeCreateContainer 2', '% Time date', '% Alias string', '% Type string', '% Container string', '% Name string', '%EndEventDef',
    '%EventDef PajePushState 3', '% Time date', '% Type string', '% Container string', '% Value string', '%EndEventDef',
    '%EventDef PajePopState 4', '% Time date', '% Type string', '% Container string', '%EndEventDef',
    '0 P 0 Program', '0 R P Rank', '1 F R Function', '2 0 p P 0 program',
  ];
  const events = [];
  for (let k = 0; k < 4; k++) {
    header.push(`2 0 r${k} R p rank-${k}`);
    let t = 0;
    for (let i = 0; i < 60; i++) {
      const late = slow && i >= 20 && i < 35;
      const compute = 0.01 * (1 + ((i * 7 + k * 3) % 5) / 10) * (late && k === 1 ? 4 : 1);
      const wait = 0.004 + (late && k !== 1 ? 0.03 : 0) + (i % 3) * 0.001;
      events.push([t, `3 ${t.toFixed(6)} F r${k} compute`], [t + compute, `4 ${(t + compute).toFixed(6)} F r${k}`]);
      events.push([t + compute, `3 ${(t + compute).toFixed(6)} F r${k} MPI_Wait`], [t + compute + wait, `4 ${(t + compute + wait).toFixed(6)} F r${k}`]);
      t += compute + wait;
    }
  }
  // Time order; at one time, a pop before the push that follows it (the order written).
  events.forEach((e, i) => e.push(i));
  events.sort((x, y) => Number(x[1].split(' ')[1]) - Number(y[1].split(' ')[1]) || x[2] - y[2]);
  return `${[...header, ...events.map((e) => e[1])].join('\n')}\n`;
}

/**
 * The compare mode (?trace=0&compare=1) on two runs of chainRun(): both
 * diagrams with both names, one aligned window for both, the strip's parts
 * those of differential_overview(), the table profile_diff()'s rows, a row
 * clicked highlighting its function in both, a reload giving the same view.
 */
async function checkCompare(base) {
  const withBase = (query) => `${base}${base.includes('?') ? '&' : '?'}${query}`;
  const sqlOf = async (statement) => api(base, `traces/0/query?limit=100000&sql=${encodeURIComponent(statement)}`);
  const [a, b] = await Promise.all([api(base, 'traces/0'), api(base, 'traces/1')]);
  const spt = (t) => (t.time ? t.time.seconds_per_tick[0] / t.time.seconds_per_tick[1] : 1);
  const aligned = (t, x) => (x - t.start) * spt(t);
  const sameWindow = (h) => Math.abs(aligned(a, h.compare.a.start) - aligned(b, h.compare.b.start)) < 1e-9
    && Math.abs(aligned(a, h.compare.a.end) - aligned(b, h.compare.b.end)) < 1e-9;
  const ready = "window.__macroscope.compare && !window.__macroscope.compare.busy && window.__macroscope.compare.rows > 0"
    + " && window.__macroscope.compare.a.items > 0 && window.__macroscope.compare.b.items > 0";
  // The way in: "compare with…" beside the trace selector; and out: "Stop comparing".
  await page.goto(base);
  let h = await settled(page);
  await page.selectOption('[data-testid=compare-select]', '1');
  h = await settled(page, ready);
  const opened = /[?&]compare=1\b/.test(h.url) && await page.locator('[data-testid=compare-panel]').isVisible();
  await page.click('[data-testid=compare-close]');
  h = await settled(page, 'window.__macroscope.compare === null');
  const plain = await page.locator('.panel h2').evaluateAll((hs) => hs.every((h) => h.dataset.of === undefined));
  check('compare: "compare with…" opens the comparison, "Stop comparing" closes it', opened && !/compare=/.test(h.url)
    && await page.locator('[data-testid=gantt]').isVisible() && !(await page.locator('[data-testid=compare-panel]').isVisible()) && plain, h.url);

  await page.goto(withBase('compare=1'));
  h = await settled(page, ready);
  check('compare: the URL names both traces', /[?&]compare=1\b/.test(h.url) && !/[?&]trace=/.test(h.url), h.url);
  const labels = [await page.locator('[data-testid=compare-label-a]').innerText(), await page.locator('[data-testid=compare-label-b]').innerText()];
  check('compare: two diagrams, each with its trace\'s name', labels[0] === `A: ${a.name}` && labels[1] === `B: ${b.name}`
    && h.compare.a.lines > 0 && h.compare.b.lines > 0 && await page.locator('[data-testid=compare-gantt-b]').isVisible()
    && !(await page.locator('[data-testid=gantt]').isVisible()), JSON.stringify(labels));
  // The panels beside the comparison are A's, and say so; closed, they no longer do.
  const headings = () => page.locator('.panel:not(.compare-panel) h2').evaluateAll((hs) => hs.filter((h) => h.offsetParent !== null)
    .map((h) => [getComputedStyle(h, '::after').content, h.title]));
  const besides = await headings();
  check('compare: the overview, curves, query and statistics headings say they are A\'s', besides.length >= 4
    && besides.every(([c, title]) => c === '" · A"' && title === `Of A: ${a.name}`), JSON.stringify(besides));
  check('compare: both diagrams show one aligned window, both runs whole', sameWindow(h) && h.compare.a.start === a.start
    && aligned(a, h.compare.a.end) >= Math.max(aligned(a, a.end), aligned(b, b.end)) - 1e-9, JSON.stringify([h.compare.a, h.compare.b]));
  // The strip: a mark per part of differential_overview(B), at its interval.
  const overview = await sqlOf("SELECT * FROM differential_overview('1')");
  const col = (name) => overview.columns.indexOf(name);
  const parts = [...new Map(overview.rows.map((r) => [r[col('part')], [r[col('part')], r[col('start')], r[col('end')]]])).values()].sort((x, y) => x[1] - y[1]);
  check('compare: the strip has a part per part of differential_overview()', parts.length > 1 && h.compare.parts.length === parts.length
    && h.compare.strip.length === parts.length && h.compare.parts.every((p, i) => p.part === parts[i][0] && p.start === parts[i][1] && p.end === parts[i][2]),
  `${JSON.stringify(h.compare.parts)} vs ${JSON.stringify(parts)}`);
  const facts = await page.locator('[data-testid=compare-facts]').innerText();
  const p = Number(overview.rows[0][col('p')]);
  check('compare: the head states the partition: differential_overview()\'s p and parts', overview.rows.every((r) => r[col('p')] === p)
    && facts.startsWith(`p = ${Number(p.toPrecision(4))} · ${parts.length} parts · gain `) && facts.includes('%, loss '), facts);
  const stripBox = await page.locator('[data-testid=compare-strip]').boundingBox();
  const plot = stripBox.width - 180 - 4;
  const [w0, w1] = [h.compare.a.start, h.compare.a.end];
  const atX = (s) => stripBox.x + 180 + ((a.start + s / spt(a) - w0) / (w1 - w0)) * plot;
  check('compare: each part drawn at its interval', h.compare.strip.every((m, i) => Math.abs(m.x - atX(parts[i][1])) < 1 && Math.abs(m.x + m.w - atX(parts[i][2])) < 1),
    JSON.stringify(h.compare.strip));
  // The table: profile_diff(B, 'function')'s rows, in its order.
  const profile = await sqlOf("SELECT function, inclusive_a_ns, inclusive_b_ns, inclusive_diff_ns, inclusive_ratio FROM profile_diff('1', 'function')");
  const cells = await page.locator('[data-testid=compare-table] tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.dataset.value ?? c.textContent)));
  check('compare: the table is profile_diff()\'s rows', profile.rows.length > 1
    && JSON.stringify(cells) === JSON.stringify(profile.rows.map((r) => r.map((c) => (c === null ? 'NULL' : String(c))))),
  `${JSON.stringify(cells)} vs ${JSON.stringify(profile.rows)}`);
  // Its times for people: A's inclusive time of the first row as a duration, the value in its title.
  const shown = await page.locator('[data-testid=compare-table] tbody tr').first().locator('td').nth(1).evaluate((c) => [c.textContent, c.title]);
  const ns = BigInt(profile.rows[0][1]);
  const unit = ns >= 1000000000n ? 's' : ns >= 1000000n ? 'ms' : ns >= 1000n ? 'µs' : 'ns';
  check('compare: the table gives times as durations, exact in their titles', shown[1] === `${profile.rows[0][1]} ns`
    && shown[0].endsWith(` ${unit}`) && shown[0].replace(/[^0-9]/g, '').replace(/0+$/, '') === String(ns).replace(/0+$/, ''),
  JSON.stringify(shown));

  // A wheel on B zooms both onto the same aligned window; the URL keeps it.
  const bBox = await page.locator('[data-testid=compare-gantt-b]').boundingBox();
  const width0 = h.compare.a.end - h.compare.a.start;
  await page.mouse.move(bBox.x + bBox.width * 0.5, bBox.y + bBox.height / 2);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction(() => /[?&]gantt=/.test(location.search), null, { timeout: 5000 });
  h = await settled(page, ready);
  const search = await page.evaluate(() => location.search);
  check('compare: a zoom on one diagram moves the other to the same aligned window', h.compare.a.end - h.compare.a.start < 0.9 * width0
    && sameWindow(h) && search.includes(`gantt=${h.compare.a.start}%2C${h.compare.a.end}`), JSON.stringify([h.compare.a, h.compare.b, search]));

  // A part clicked: both diagrams onto it (the part where the runs differ most).
  const top = overview.rows.find((r) => r[col('rank')] === 1);
  await page.goto(withBase('compare=1'));
  h = await settled(page, ready);
  const mark = h.compare.strip.find((m) => m.part === top[col('part')]);
  await page.mouse.click(mark.x + mark.w / 2, mark.y);
  h = await settled(page, `${ready} && window.__macroscope.compare.a.end - window.__macroscope.compare.a.start < ${0.9 * width0}`);
  check('compare: clicking a part zooms both diagrams onto it', Math.abs(aligned(a, h.compare.a.start) - top[col('start')]) < 1e-9
    && Math.abs(aligned(a, h.compare.a.end) - top[col('end')]) < 1e-9 && sameWindow(h), JSON.stringify([h.compare.a, top]));

  // A row clicked: its function's states highlighted in both diagrams.
  const fn = profile.rows[0][0];
  await page.locator('[data-testid=compare-table] tbody tr').first().click();
  h = await settled(page, `${ready} && window.__macroscope.compare.highlighted === ${JSON.stringify(fn)}`);
  const count = async (t) => (await api(base, `traces/${t}/query?sql=${encodeURIComponent(`SELECT count(*) FROM states WHERE value = '${fn}'`)}`)).rows[0][0];
  const [na, nb] = [await count(0), await count(1)];
  check('compare: a row clicked highlights its function in both diagrams', h.compare.a.highlighted === na && h.compare.b.highlighted === nb
    && h.compare.a.marks > 0 && h.compare.b.marks > 0, `${JSON.stringify([h.compare.a, h.compare.b])} vs ${na}, ${nb}`);

  // A reload of the URL: the same view.
  const before = h;
  await page.reload();
  h = await settled(page, ready);
  check('compare: a reload gives the same view', h.url === before.url && h.compare.a.start === before.compare.a.start
    && h.compare.a.end === before.compare.a.end && h.compare.b.start === before.compare.b.start && h.compare.b.end === before.compare.b.end
    && h.compare.parts.length === before.compare.parts.length && h.compare.rows === before.compare.rows, JSON.stringify([h.compare, before.compare]));

  // The picture: both runs whole, the part where they differ most hovered, its function highlighted.
  await page.goto(withBase('compare=1'));
  h = await settled(page, ready);
  await page.locator('[data-testid=compare-table] tbody tr').filter({ hasText: 'compute' }).first().click();
  h = await settled(page, `${ready} && window.__macroscope.compare.highlighted === 'compute'`);
  const topMark = h.compare.strip.find((m) => m.part === top[col('part')]);
  await page.mouse.move(topMark.x + topMark.w / 2, topMark.y);
  await page.locator('[data-testid=tooltip]').waitFor({ state: 'visible', timeout: 5000 });
  const tip = await page.locator('[data-testid=tooltip]').innerText();
  check('compare: a part\'s tooltip gives its interval and the types whose share changed', tip.includes('interval')
    && tip.includes(String(overview.rows.find((r) => r[col('part')] === top[col('part')])[col('type')])), tip);
  await shot(page, 'web-compare.png');
}

const userDir = mkdtempSync(join(tmpdir(), 'macroscope-e2e-'));
const gateDir = mkdtempSync(join(tmpdir(), 'macroscope-e2e-gate-'));
const runsDir = mkdtempSync(join(tmpdir(), 'macroscope-e2e-runs-'));
const example = join(sourceDir, 'examples', 'synthetic.trace');
const server = startServer([example, join(sourceDir, 'tests', 'paje', 'traces', 'user_fields.trace'),
  ...(haveKernelTrace ? [kernelTrace] : []), ...(haveOtf2Trace ? [otf2Trace] : [])]);
/** The page, the server's URL and a URL of it with a query (set once the server is up), for the check functions. */
let page, base, withQuery;
let reading, comparing;
let context;
try {
  base = await server.url;
  check('server prints its URL', /^http:\/\/[^/]+\/$/.test(base) || base.includes('?token='), base);
  context = await chromium.launchPersistentContext(userDir, {
    executablePath: chromiumPath, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1600, height: 980 }, deviceScaleFactor: 1,
  });
  page = context.pages()[0] ?? await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(base);
  let h = await settled(page);

  // The example loads; the server reads the other traces meanwhile, and the selector offers each once read.
  const traces = await allRead(base);
  check('every trace is read', traces.every((t) => t.state === 'ready'), JSON.stringify(traces.map((t) => t.state)));
  const offered = await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid=trace-select] option')].every((o) => !o.disabled && !o.textContent.includes('reading')),
    null, { timeout: 5000 }).then(() => true, () => false);
  check('the selector offers every trace once read', offered);
  withQuery = (query) => `${base}${base.includes('?') ? '&' : '?'}${query}`;
  check('the example is listed', (await page.locator('[data-testid=trace-select]').innerText()).includes(traces[0].name));
  check('the overview has parts', h.parts > 0, JSON.stringify(h.parts));
  check('p is chosen and in the URL', h.p !== null && h.url.includes(`p=${h.p}`), h.url);
  // A Pajé trace's times are seconds: the axes read them from its start, and there is no wall clock to show.
  check('the axes read seconds from the trace start',
    h.gantt.ruler.labels.length > 2 && h.gantt.ruler.labels.every((l) => RELATIVE.test(l) && l.endsWith(' s'))
      && h.overview.ticks.length > 2 && h.overview.ticks.every((l) => RELATIVE.test(l)),
    JSON.stringify([h.gantt.ruler.labels, h.overview.ticks]));
  check('no wall-clock toggle without a wall clock', !h.wallClock && !(await page.locator('[data-testid=clock-toggle]').isVisible()));

  // The overview shows as many parts as the API gives for that p.
  let agg = await api(base, `traces/0/aggregate?${modelQuery(h)}&p=${h.p}`);
  check('overview parts = API parts', h.parts === agg.parts.length, `${h.parts} vs ${agg.parts.length}`);
  check('overview draws every part', h.overview.parts === agg.parts.length, JSON.stringify(h.overview));
  check('quality curves are drawn', h.curvePoints.length > 1, String(h.curvePoints.length));
  // Visual aggregation: a merged mark's tooltip names the types it hides.
  const mark = h.overview.marks.find((m) => m.hidden.length > 0);
  check('types too small to draw are merged', h.overview.merged > 0 && mark !== undefined, JSON.stringify(h.overview));
  if (mark) {
    await page.mouse.move(mark.x, mark.y);
    const tip = page.locator('[data-testid=tooltip]');
    await tip.waitFor({ state: 'visible', timeout: 5000 });
    const text = await tip.innerText();
    check('the merged mark lists the hidden types', mark.hidden.every((t) => text.includes(t)), `${text} vs ${mark.hidden}`);
    await page.mouse.move(5, 5);
  }
  await shot(page, 'web-overview.png');

  // Clicking a curve point changes p and the parts.
  const target = h.curvePoints.find((pt) => pt.parts !== h.parts && pt.parts > 1 && pt.parts < 40)
    ?? h.curvePoints.find((pt) => pt.parts !== h.parts);
  const before = h;
  await page.mouse.click(target.x, target.y);
  h = await settled(page, `window.__macroscope.p !== ${before.p}`);
  agg = await api(base, `traces/0/aggregate?${modelQuery(h)}&p=${h.p}`);
  check('clicking a curve point changes p', h.p !== before.p, `${before.p} -> ${h.p}`);
  check('p is strictly inside the point\'s range',
    h.p > target.p && h.p < (h.curvePoints[target.index + 1]?.p ?? 1), `${target.p} < ${h.p}`);
  check('the parts follow the clicked point', h.parts === agg.parts.length && h.parts === target.parts,
    `${h.parts} drawn, ${agg.parts.length} from API, ${target.parts} on the curve`);

  // p+ / p- move to the neighbouring significant p.
  const pAfterClick = h.p;
  await page.click('[data-testid=p-plus]');
  h = await settled(page, `window.__macroscope.p !== ${pAfterClick}`);
  check('p+ moves to the next significant p', h.plistParts === h.curvePoints[target.index + 1]?.parts, `${h.plistParts}`);
  await page.click('[data-testid=p-minus]');
  h = await settled(page, `window.__macroscope.p !== ${h.p}`);
  check('p- comes back', h.parts === target.parts, `${h.parts}`);

  // Selecting a time range on the ruler zooms both views.
  const ruler = await page.locator('[data-testid=ruler]').boundingBox();
  const full = h.range;
  const rangeBefore = JSON.stringify(h.range);
  const x0 = ruler.x + 180 + (ruler.width - 184) * 0.30;
  const x1 = ruler.x + 180 + (ruler.width - 184) * 0.45;
  await page.mouse.move(x0, ruler.y + 12);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, ruler.y + 12, { steps: 4 });
  await page.mouse.move(x1, ruler.y + 12, { steps: 4 });
  await page.mouse.up();
  h = await settled(page, `JSON.stringify(window.__macroscope.range) !== '${rangeBefore}'`);
  const span = full[1] - full[0];
  check('the overview is re-aggregated over the range',
    Math.abs(h.range[0] - (full[0] + 0.30 * span)) < span * 0.01 && Math.abs(h.range[1] - (full[0] + 0.45 * span)) < span * 0.01,
    JSON.stringify(h.range));
  agg = await api(base, `traces/0/aggregate?${modelQuery(h)}&p=${h.p}&start=${h.range[0]}&end=${h.range[1]}`);
  // The overview's slices are the trace's bins: its range is the selection
  // widened to whole bins, by less than a slice each side.
  const binWidth = (h.range[1] - h.range[0]) / agg.slices;
  check('the Gantt shows the range', h.gantt.start >= h.range[0] - 1e-9 * span && h.gantt.start - h.range[0] < binWidth &&
    h.gantt.end <= h.range[1] + 1e-9 * span && h.range[1] - h.gantt.end < binWidth,
    `${h.gantt.start}..${h.gantt.end} in ${h.range[0]}..${h.range[1]}`);
  check('zoomed overview parts = API parts', h.parts === agg.parts.length, `${h.parts} vs ${agg.parts.length}`);
  check('the URL carries the range', h.url.includes('range='), h.url);

  // Browser back returns to the whole trace, forward to the zoom.
  await page.goBack();
  h = await settled(page, `JSON.stringify(window.__macroscope.range) === '${rangeBefore}'`);
  check('browser back restores the previous range', JSON.stringify(h.range) === rangeBefore, JSON.stringify(h.range));
  await page.goForward();
  h = await settled(page, `JSON.stringify(window.__macroscope.range) !== '${rangeBefore}'`);
  check('browser forward restores the zoom', h.range[0] > full[0], JSON.stringify(h.range));

  // Hovering a state shows its tooltip with the right value.
  check('the Gantt draws states', h.gantt.items > 0 && h.gantt.sample.length > 0, JSON.stringify(h.gantt));
  const sample = h.gantt.sample[0];
  const entity = await api(base, `traces/0/entity/${sample.id}`);
  await page.mouse.move(sample.x, sample.y);
  const tooltip = page.locator('[data-testid=tooltip]');
  await tooltip.waitFor({ state: 'visible', timeout: 5000 });
  const tipText = await tooltip.innerText();
  check('hovering a state shows its value', tipText.includes(entity.value) && tipText.includes(sample.value), tipText);
  check('the tooltip gives times from the trace start', /start\s*\+\d/.test(tipText) && /duration\s*\d/.test(tipText), tipText);

  // Clicking opens the inspector with every field of the entity.
  await page.mouse.click(sample.x, sample.y);
  const inspectorPanel = page.locator('[data-testid=inspector]');
  await inspectorPanel.waitFor({ state: 'visible', timeout: 5000 });
  await settled(page);
  const fieldNames = await inspectorPanel.locator('tr[data-field]').evaluateAll((rows) => rows.map((r) => r.dataset.field));
  const expected = Object.keys(entity).filter((k) => entity[k] !== undefined && k !== 'fields' && k !== 'id')
    .concat((entity.fields ?? []).map((f) => f.name));
  check('the inspector lists every field', expected.every((k) => fieldNames.includes(k)), `${fieldNames} vs ${expected}`);
  check('the inspector shows the value', (await inspectorPanel.innerText()).includes(entity.value));
  await page.mouse.move(10, 10);
  await shot(page, 'web-inspector.png');

  // The wheel zooms the Gantt alone; the URL follows without a history entry.
  const gbox = await page.locator('[data-testid=gantt]').boundingBox();
  const zoomedRange = JSON.stringify(h.range);
  const width0 = h.gantt.end - h.gantt.start;
  await page.mouse.move(gbox.x + gbox.width * 0.6, gbox.y + 40);
  await page.mouse.wheel(0, -200);
  await page.waitForFunction(() => /[?&]gantt=/.test(location.search), null, { timeout: 5000 });
  h = await settled(page);
  check('the wheel zooms the Gantt in', h.gantt.end - h.gantt.start < width0 * 0.9, `${h.gantt.end - h.gantt.start} vs ${width0}`);
  check('the wheel leaves the overview range', JSON.stringify(h.range) === zoomedRange, JSON.stringify(h.range));

  // A colour picked in the legend is used everywhere and kept across reloads.
  const chip = page.locator('[data-testid=legend] input[type=color]').first();
  const chipTitle = await chip.getAttribute('title');
  await chip.fill('#ff00aa');
  const saved = await page.evaluate(() => localStorage.getItem('macroscope.colors') ?? '');
  check('a picked colour is saved', saved.includes('#ff00aa'), saved);

  // Reloading the URL gives the same view.
  const view = { p: h.p, range: h.range, parts: h.parts, gantt: [h.gantt.start, h.gantt.end] };
  await page.reload();
  h = await settled(page);
  check('reload keeps p, range, parts and the Gantt window',
    h.p === view.p && JSON.stringify(h.range) === JSON.stringify(view.range) && h.parts === view.parts
      && h.gantt.start === view.gantt[0] && h.gantt.end === view.gantt[1],
    `${JSON.stringify(view)} vs ${JSON.stringify({ p: h.p, range: h.range, parts: h.parts, gantt: [h.gantt.start, h.gantt.end] })}`);
  check('the picked colour survives the reload',
    (await page.locator(`[data-testid=legend] input[title="${chipTitle}"]`).inputValue()) === '#ff00aa');
  // Back to the trace's colours for the pictures.
  await page.evaluate(() => localStorage.removeItem('macroscope.colors'));
  await page.reload();
  h = await settled(page);

  // The Gantt zoomed on a burst: the densest part of the whole-trace overview.
  await page.click('[data-testid=reset]');
  h = await settled(page, 'window.__macroscope.range[0] === ' + full[0] + ' && window.__macroscope.range[1] === ' + full[1]);
  const whole = await api(base, `traces/0/aggregate?${modelQuery(h)}&p=${h.p}`);
  const density = (p) => p.values.reduce((a, v) => a + v, 0) / (p.end_slice - p.start_slice + 1);
  const dense = whole.parts.reduce((a, b) => (density(b) > density(a) ? b : a));
  const slice = span / whole.slices;
  // Six slices from the start of the densest part: enough to see states one by one.
  const first = Math.min(dense.start_slice, whole.slices - 6);
  const burst = [full[0] + first * slice, full[0] + (first + 6) * slice];
  await page.goto(`${base}${base.includes('?') ? '&' : '?'}p=${h.p}&range=${burst.join(',')}`);
  h = await settled(page);
  check('a shared URL opens the same range', Math.abs(h.range[0] - burst[0]) < 1e-6 && Math.abs(h.range[1] - burst[1]) < 1e-6,
    JSON.stringify(h.range));
  await page.mouse.move(h.gantt.sample[0]?.x ?? 900, h.gantt.sample[0]?.y ?? 600);
  await page.locator('[data-testid=tooltip]').waitFor({ state: 'visible', timeout: 5000 }).catch(() => {});
  await shot(page, 'web-gantt-burst.png');

  // The spatiotemporal mode: hierarchy × time, same parts as the API.
  await page.selectOption('[data-testid=mode-select]', 'spatiotemporal');
  h = await settled(page, "window.__macroscope.mode === 'spatiotemporal'");
  agg = await api(base, `traces/0/aggregate?${modelQuery(h)}&p=${h.p}&start=${h.range[0]}&end=${h.range[1]}`);
  check('spatiotemporal parts = API parts', h.parts === agg.parts.length && h.overview.parts === agg.parts.length,
    `${h.parts} vs ${agg.parts.length}`);
  check('spatiotemporal parts sit on hierarchy nodes', agg.parts.some((p) => p.node !== ''), '');

  // The query panel: a statement typed and run with Ctrl+Enter, its table against the API's answer.
  const queryStarted = Date.now();
  await page.goto(withQuery(`p=${h.p}`));
  h = await settled(page);
  const sql = 'SELECT id, container, ts, "end", value, type FROM states WHERE dur >= 90 ORDER BY ts';
  await page.fill('[data-testid=query-sql]', sql);
  await page.press('[data-testid=query-sql]', 'Control+Enter');
  h = await settled(page, 'window.__macroscope.query.rows > 0');
  const answer = await api(base, `traces/0/query?sql=${encodeURIComponent(sql)}`);
  const tableIds = () => page.locator('[data-testid=query-table] tbody tr').evaluateAll((rows) => rows.map((r) => r.cells[0].textContent));
  check('the query panel shows the rows of the API', h.query.rows === answer.rows.length && h.url.includes('sql=')
    && JSON.stringify(await tableIds()) === JSON.stringify(answer.rows.map((r) => String(r[0]))),
  `${h.query.rows} vs ${answer.rows.length}`);
  check('a result with container, ts and end is highlighted in the Gantt', h.gantt.marks.result > 0 && h.query.marks === answer.rows.length,
    JSON.stringify([h.gantt.marks, h.query.marks]));
  // A second click on a header reverses: "end" descending, ties in the answer's order.
  await page.click('[data-testid=query-table] th[data-col="3"]');
  await page.click('[data-testid=query-table] th[data-col="3"]');
  const byEnd = answer.rows.map((r, i) => [r, i]).sort((x, y) => y[0][3] - x[0][3] || x[1] - y[1]).map(([r]) => String(r[0]));
  check('a second click on a header sorts descending', JSON.stringify(await tableIds()) === JSON.stringify(byEnd),
    `${(await tableIds()).slice(0, 5)} vs ${byEnd.slice(0, 5)}`);
  // The CSV link gives the same rows.
  const csvHref = await page.locator('[data-testid=query-csv]').evaluate((a) => a.href);
  const csv = (await (await fetch(csvHref)).text()).trim().split(/\r?\n/);
  check('the CSV download answers the same rows', csv[0] === answer.columns.join(',') && csv.length === answer.rows.length + 1
    && csv[1].startsWith(`${answer.rows[0][0]},${answer.rows[0][1]},`), `${csv.length} lines: ${csv.slice(0, 2)}`);
  // A row clicked: the Gantt zooms onto that state (a quarter of its span each side) and inspects it.
  const pickedRow = page.locator('[data-testid=query-table] tbody tr').nth(2);
  const picked = answer.rows[Number(await pickedRow.getAttribute('data-row'))];
  await pickedRow.click();
  const [pa, pb] = [picked[2] - (picked[3] - picked[2]) / 4, picked[3] + (picked[3] - picked[2]) / 4];
  h = await settled(page, `window.__macroscope.inspected !== null && Math.abs(window.__macroscope.gantt.start - ${pa}) < 1e-6`);
  const pickedEntity = await api(base, `traces/0/entity/${h.inspected}`);
  check('clicking a row zooms the Gantt onto it and inspects it',
    Math.abs(h.gantt.end - pb) < 1e-6 && pickedEntity.start === picked[2] && pickedEntity.end === picked[3] && pickedEntity.value === picked[4],
    `${h.gantt.start}..${h.gantt.end} vs ${pa}..${pb}; ${JSON.stringify(pickedEntity)}`);
  // The entity the row's id names (/entity takes the query's ids) is the one inspected.
  const named = await api(base, `traces/0/entity/${picked[0]}`);
  check('the inspected entity is the one the row\'s id names', named.id === h.inspected, `${named.id} vs ${h.inspected}`);
  await shot(page, 'web-query.png');
  await page.fill('[data-testid=query-sql]', 'SELECT * FORM states');
  await page.click('[data-testid=query-run]');
  await page.locator('[data-testid=query-error]').waitFor({ state: 'visible', timeout: 5000 });
  check('an SQL error is shown with its place', (await page.locator('[data-testid=query-error]').innerText()).startsWith('line 1, column 10: near "FORM"'));

  // Pajé's filters as SQL in the URL: where= dims or hides the rest, group= merges lines, order= orders them.
  const where = "value = 'value 1' OR type = 'Event'";
  const count = await api(base, `traces/0/query?sql=${encodeURIComponent(`SELECT (SELECT count(*) FROM states WHERE ${where}) + (SELECT count(*) FROM events WHERE ${where})`)}`);
  await page.goto(withQuery(`p=${h.p}&where=${encodeURIComponent(where)}`));
  h = await settled(page, 'window.__macroscope.gantt.where !== null');
  check('where= highlights the entities it selects, the others dimmed', h.gantt.where.rows === count.rows[0][0] && h.gantt.marks.where > 0
    && h.gantt.items > 0 && (await page.locator('[data-testid=gantt-info]').innerText()).includes(`${count.rows[0][0]} entities`),
  `${JSON.stringify(h.gantt.where)} vs ${count.rows[0][0]}`);
  await page.selectOption('[data-testid=filter-mode]', 'hide');
  h = await settled(page, "window.__macroscope.url.includes('filter=hide') && window.__macroscope.gantt.where !== null");
  check('filter=hide shows them alone', h.gantt.items === 0 && h.gantt.marks.where > 0, JSON.stringify([h.gantt.items, h.gantt.marks]));
  const lineCount = h.gantt.lineCount;
  await page.fill('[data-testid=group-input]', "substr(path, 1, instr(path || '/', '/') - 1)");
  await page.fill('[data-testid=order-input]', 'name DESC');
  await page.press('[data-testid=group-input]', 'Enter');
  h = await settled(page, 'window.__macroscope.gantt.lineCount < ' + lineCount);
  check('group= puts containers of one value on one line, order= orders the lines',
    JSON.stringify(h.gantt.lines) === JSON.stringify(['c3', 'c2', 'c1', 'c0']) && h.url.includes('group=substr') && h.url.includes('order=name+DESC'),
    `${lineCount} -> ${JSON.stringify(h.gantt.lines)} ${h.url}`);
  await page.fill('[data-testid=order-input]', 'nope');
  await page.press('[data-testid=order-input]', 'Enter');
  await page.locator('[data-testid=order-error]').waitFor({ state: 'visible', timeout: 5000 });
  check('a filter the server refuses says why', (await page.locator('[data-testid=order-error]').innerText()).includes('no such column: nope'));
  console.log(`(query and filter checks: ${((Date.now() - queryStarted) / 1000).toFixed(1)} s)`);

  // The flame graph and the flat profile, the communication matrix (analyses.ts), on the example and on a real OTF2 trace.
  const analysisStarted = Date.now();
  await checkProfile(0, 'the example');
  await checkComm(0, 'the example');
  if (haveOtf2Trace) {
    await checkProfile(otf2Index, 'an OTF2 trace', 'web-flamegraph.png');
    await checkComm(otf2Index, 'an OTF2 trace', 'web-comm-matrix.png');
    await checkOverlays(otf2Index, 'an OTF2 trace');
  } else {
    console.log(`skip the OTF2 trace's profile, matrix, waits and critical path: no ${otf2Trace} (the shared test data)`);
  }
  console.log(`(analysis panel checks: ${((Date.now() - analysisStarted) / 1000).toFixed(1)} s)`);

  // User fields reach the inspector (trace 1 carries some on its states).
  await page.goto(`${base}${base.includes('?') ? '&' : '?'}trace=1`);
  h = await settled(page, 'window.__macroscope.gantt.sample.length > 0');
  const withFields = h.gantt.sample[0];
  const fielded = await api(base, `traces/1/entity/${withFields.id}`);
  await page.mouse.click(withFields.x, withFields.y);
  await page.waitForFunction((id) => window.__macroscope.inspected === id && !window.__macroscope.loading, withFields.id, { timeout: 5000 });
  const userText = await page.locator('[data-testid=inspector]').innerText();
  check('the inspector lists the user fields', (fielded.fields ?? []).length > 0
    && fielded.fields.every((f) => userText.includes(f.name) && userText.includes(String(f.value))), userText);

  // A kernel trace: nanosecond ticks from its first event, and a wall clock.
  if (!haveKernelTrace) {
    console.log(`skip the kernel trace checks: no ${kernelTrace} (the shared test data; CI has it beside the clone)`);
  } else {
    const summary = (await api(base, 'traces'))[2];
    check('the kernel trace starts at model time 0, in ns, with a wall clock',
      summary.start === 0 && summary.time?.unit === 'ns' && summary.time?.wall_clock_start === '2014-10-07 08:36:01.211260539',
      JSON.stringify(summary));
    await page.goto(withQuery('trace=2'));
    h = await settled(page, 'window.__macroscope.trace === 2');
    const labels = (x) => [...x.gantt.ruler.labels, ...x.overview.ticks];
    check('kernel trace: the axes read seconds from the start, not the clock\'s seconds',
      labels(h).length > 6 && labels(h).every((l) => RELATIVE.test(l) && !CLOCK_SECONDS.test(l))
        && h.overview.ticks.includes('+1.0 s') && h.overview.ticks.includes('+6.0 s'),
      JSON.stringify(labels(h)));
    const header = await page.locator('[data-testid=trace-info]').innerText();
    check('the header gives the length and the wall-clock start', header.includes('6.006 490 300 s from 2014-10-07 08:36:01.211 260 539 UTC'), header);

    // A few milliseconds of the busiest stretch (the state dump): millisecond labels.
    await page.goto(withQuery('trace=2&range=19000000,23000000'));
    h = await settled(page, 'window.__macroscope.trace === 2 && window.__macroscope.gantt.sample.length > 0');
    check('zoomed to 4 ms: millisecond labels from the trace start',
      labels(h).every((l) => RELATIVE.test(l) && l.endsWith(' ms')) && h.gantt.ruler.labels.includes('+20.0 ms')
        && h.overview.ticks.includes('+19.0 ms') && h.overview.ticks.includes('+23.0 ms'),
      JSON.stringify(labels(h)));
    const kernelSample = h.gantt.sample[0];
    await page.mouse.move(kernelSample.x, kernelSample.y);
    await page.locator('[data-testid=tooltip]').waitFor({ state: 'visible', timeout: 5000 });
    const kernelTip = await page.locator('[data-testid=tooltip]').innerText();
    check('the kernel tooltip gives times in ms from the start', /start\s*\+\d+\.\d+ ms/.test(kernelTip) && !CLOCK_SECONDS.test(kernelTip), kernelTip);
    await shot(page, 'web-ctf-relative-axis.png');

    // The wheel zooms further: finer decimals, still from the start.
    const kbox = await page.locator('[data-testid=gantt]').boundingBox();
    await page.mouse.move(kbox.x + 180 + (kbox.width - 184) / 2, kbox.y + 30);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -300);
    await page.waitForFunction(() => window.__macroscope.gantt.end - window.__macroscope.gantt.start < 200000, null, { timeout: 5000 });
    h = await settled(page);
    check('zoomed to tens of µs: labels to the µs from the start',
      h.gantt.ruler.labels.length > 2 && h.gantt.ruler.labels.every((l) => /^\+\d+\.\d{3}( \d{1,3})? ms$/.test(l)),
      JSON.stringify(h.gantt.ruler.labels));

    // The inspector gives times to the nanosecond, from the start.
    const picked = h.gantt.sample[0] ?? kernelSample;
    const kernelEntity = await api(base, `traces/2/entity/${picked.id}`);
    await page.mouse.click(picked.x, picked.y);
    await page.waitForFunction((id) => window.__macroscope.inspected === id && !window.__macroscope.loading, picked.id, { timeout: 5000 });
    const startCell = () => page.locator('[data-testid=inspector] tr[data-field=start] td').nth(1).innerText();
    const ns = BigInt(kernelEntity.start);
    const exact = exactFromStart(ns);
    check('the inspector gives the start to the ns', (await startCell()) === exact, `${await startCell()} vs ${exact}`);

    // One click away: wall-clock times, exact to the ns (integers, not a double of epoch seconds).
    await page.click('[data-testid=clock-toggle]');
    h = await settled(page, "window.__macroscope.clock === 'wall'");
    check('the toggle switches the axes to the wall clock',
      h.gantt.ruler.labels.length > 2 && h.gantt.ruler.labels.every((l) => /^08:36:01\.\d{3}( \d{1,3})*$/.test(l))
        && h.gantt.ruler.caption.startsWith('2014-10-07 UTC') && h.overview.ticks.every((l) => /^08:36:01\.\d/.test(l))
        && h.url.includes('clock=wall'),
      JSON.stringify([h.gantt.ruler, h.overview.ticks, h.url]));
    const wall = wallClock(1412670961211260539n + ns);
    check('the inspector gives the wall-clock start to the ns', (await startCell()) === wall, `${await startCell()} vs ${wall}`);
    await page.mouse.move(kernelSample.x, kernelSample.y + 1);
    await page.locator('[data-testid=tooltip]').waitFor({ state: 'visible', timeout: 5000 }).catch(() => {});
    check('the tooltip follows the wall clock', (await page.locator('[data-testid=tooltip]').innerText()).includes('08:36:01.'));
    await page.mouse.move(5, 5);
    await page.keyboard.press('w');
    h = await settled(page, "window.__macroscope.clock === 'relative'");
    check('W switches back to times from the start', h.gantt.ruler.labels.every((l) => RELATIVE.test(l)) && !h.url.includes('clock='),
      JSON.stringify([h.gantt.ruler.labels, h.url]));

    // The process tree: processes with their threads (collapsible), a
    // thread's line from its fork to its end: the dead task's last switch,
    // 82.7 µs after its exit (named at its first sight).
    const info = await api(base, 'traces/2');
    const typeAlias = Object.fromEntries(info.types.map((t) => [t.id, t.alias]));
    const find = (name, alias) => info.containers.find((c) => c.name === name && typeAlias[c.type] === alias);
    const cpus = info.containers.filter((c) => typeAlias[c.type] === 'ctf.cpu');
    const ls = find('sh 525', 'ctf.thread');
    const lsProcess = find('sh 525', 'ctf.process');
    check('sh forks 525, which execs ls: its thread lives from the fork to its last switch after the exit',
      ls && lsProcess && ls.parent === lsProcess.id && ls.start === 1989875800 && ls.end === 1995107500, JSON.stringify(ls));
    const shown = [...cpus, find('sshd 403', 'ctf.process'), find('sh 407', 'ctf.process'), lsProcess];
    await page.goto(withQuery(`trace=2&range=1989500000,1995500000&containers=${shown.map((c) => c.id).join(',')}`));
    h = await settled(page, 'window.__macroscope.trace === 2 && window.__macroscope.gantt.sample.length > 0');
    check('the process tree shows the CPUs and the processes with their threads', h.gantt.rows >= cpus.length + 3,
      JSON.stringify(h.gantt));
    await shot(page, 'web-kernel-processes.png');

    // The lines as Trace Compass orders them: the CPUs first, in the numeric order of their numbers, then the process tree.
    await page.goto(withQuery('trace=2'));
    h = await settled(page, 'window.__macroscope.trace === 2 && window.__macroscope.gantt.lineCount > 0');
    // Under the machine's line, the CPUs by their number, then the machine's first process in the trace's order.
    const cpuNames = cpus.map((c) => c.name).sort((a, b) => Number(/\d+/.exec(a)[0]) - Number(/\d+/.exec(b)[0]));
    const machine = info.containers.find((c) => c.id === cpus[0].parent);
    const processFirst = info.containers.find((c) => typeAlias[c.type] === 'ctf.process' && c.parent === cpus[0].parent);
    const expectedLines = [...(machine ? [machine.name] : []), ...cpuNames, processFirst?.name];
    check('a kernel trace\'s first lines are its CPUs in numeric order, then a process',
      cpuNames.length === 4 && cpus.every((c) => c.parent === cpus[0].parent)
        && JSON.stringify(h.gantt.lines.slice(0, expectedLines.length)) === JSON.stringify(expectedLines),
      `${JSON.stringify(h.gantt.lines.slice(0, 8))} vs ${JSON.stringify(expectedLines)}`);

    // Kernel latencies, one click from the lines: kernel_latency()'s rows, and a row's histogram.
    await page.click('[data-testid=kernel-latency-shortcut]');
    h = await settled(page, "window.__macroscope.analysis.panel === 'latency' && window.__macroscope.analysis.latency.rows.length > 0");
    const latency = await api(base, `traces/2/query?sql=${encodeURIComponent("SELECT * FROM kernel_latency('syscall')")}`);
    const latencyCells = await page.locator('[data-testid=latency-table] tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.dataset.value ?? c.textContent)));
    check('the latency table is kernel_latency()\'s rows', latency.rows.length > 0 && h.url.includes('panel=latency')
      && JSON.stringify(latencyCells) === JSON.stringify(latency.rows.map((r) => r.map((c) => (c === null ? 'NULL' : String(c))))),
    `${latencyCells.length} rows vs ${latency.rows.length}: ${JSON.stringify(latencyCells[0])} vs ${JSON.stringify(latency.rows[0])}`);
    const countCol = latency.columns.indexOf('count');
    await page.click(`[data-testid=latency-table] th[data-col="${countCol}"]`);
    await page.click(`[data-testid=latency-table] th[data-col="${countCol}"]`);
    await page.locator('[data-testid=latency-table] tbody tr').first().click();
    h = await settled(page, 'window.__macroscope.analysis.latency.histogram.length > 0');
    const mostCalled = latency.rows.reduce((a, b) => (b[countCol] > a[countCol] ? b : a));
    const histogram = await api(base, `traces/2/query?sql=${encodeURIComponent(`SELECT * FROM kernel_latency_histogram('syscall', 30, '${mostCalled[1]}')`)}`);
    check('a row clicked gives its histogram', h.analysis.latency.name === mostCalled[1]
      && JSON.stringify(h.analysis.latency.histogram) === JSON.stringify(histogram.rows)
      && histogram.rows.reduce((a, r) => a + r[2], 0) === mostCalled[countCol], `${h.analysis.latency.name}: ${JSON.stringify(h.analysis.latency.histogram)}`);
    await shot(page, 'web-kernel-latency.png');

    // A thread's critical path: thread_critical_path(tid) drawn coloured by state, or, on a server without it, a message saying so.
    const busiest = await api(base, `traces/2/query?sql=${encodeURIComponent('SELECT tid FROM kernel_processes() ORDER BY running_ns DESC, tid LIMIT 1')}`);
    const tid = busiest.rows[0][0];
    await page.goto(withQuery(`trace=2&panel=path&marks=path&tid=${tid}`));
    h = await settled(page, `window.__macroscope.trace === 2 && window.__macroscope.analysis.path.tid === ${tid} && (window.__macroscope.analysis.path.segments > 0 || window.__macroscope.analysis.path.message !== '' || window.__macroscope.analysis.error !== '')`);
    const threadPath = await fetch(new URL(`api/traces/2/query?sql=${encodeURIComponent(`SELECT * FROM thread_critical_path(${tid})`)}`, base));
    if (threadPath.ok) {
      const rows = (await threadPath.json()).rows;
      const pathOf = new Map(info.containers.map((c) => [c.id, c.path]));
      const marks = h.gantt.overlay.path?.rects ?? [];
      check('a thread\'s critical path is drawn, a mark per segment on its thread', marks.length === rows.length && rows.length > 0
        && marks.every((r, i) => r.row === i && pathOf.get(r.container) === rows[i][0]), `${marks.length} vs ${rows.length}`);
    } else {
      check('without thread_critical_path() the tab says so', h.analysis.path.message.includes('thread_critical_path') && h.analysis.error === ''
        && await page.locator('[data-testid=path-message]').isVisible(), JSON.stringify(h.analysis.path));
    }
    // One click from the thread's line: a right click on its name opens its path.
    const thread = info.containers.find((c) => typeAlias[c.type] === 'ctf.thread' && c.name.endsWith(` ${tid}`));
    await page.goto(withQuery(`trace=2&containers=${thread.id}`));
    h = await settled(page, `window.__macroscope.trace === 2 && window.__macroscope.gantt.lineBoxes.some((l) => l.container === ${thread.id})`);
    const box = h.gantt.lineBoxes.find((l) => l.container === thread.id);
    const kernelGantt = await page.locator('[data-testid=gantt]').boundingBox();
    await page.mouse.click(kernelGantt.x + 40, kernelGantt.y + box.y + 6, { button: 'right' });
    h = await settled(page, `window.__macroscope.analysis.panel === 'path' && window.__macroscope.analysis.path.tid === ${tid}`);
    check('a right click on a thread\'s name opens its critical path', h.url.includes(`tid=${tid}`) && h.url.includes('marks=path'), h.url);

    // The query panel on a clock beyond 2^53: ticks shown exactly, a row's model time exact to the ns.
    const ksql = "SELECT id, container, ts, \"end\", value, type FROM states WHERE type = 'Syscall' ORDER BY dur DESC LIMIT 3";
    const kanswer = await api(base, `traces/2/query?sql=${encodeURIComponent(ksql)}`);
    await page.goto(withQuery(`trace=2&sql=${encodeURIComponent(ksql)}`));
    h = await settled(page, 'window.__macroscope.trace === 2 && window.__macroscope.query.rows > 0');
    const firstRow = page.locator('[data-testid=query-table] tbody tr').first();
    const cells = await firstRow.locator('td').allInnerTexts();
    check('the table gives the ticks as the query does', typeof kanswer.rows[0][2] === 'string' && cells[2] === kanswer.rows[0][2],
      `${cells} vs ${kanswer.rows[0]}`);
    await firstRow.click();
    h = await settled(page, 'window.__macroscope.inspected !== null');
    const [kts, kend] = [BigInt(kanswer.rows[0][2]) - BigInt(kanswer.time_origin), BigInt(kanswer.rows[0][3]) - BigInt(kanswer.time_origin)];
    const kentity = await api(base, `traces/2/entity/${h.inspected}`);
    check('clicking a row of a kernel trace inspects that state', BigInt(kentity.start) === kts && BigInt(kentity.end) === kend
      && Math.abs(h.gantt.start - (Number(kts) - Number(kend - kts) / 4)) < 1, `${JSON.stringify(kentity)} vs ${kts}..${kend}`);
  }

  // Two runs compared: a server on two runs of one program, the second slowed for a while.
  writeFileSync(join(runsDir, 'run-a.paje'), chainRun(false));
  writeFileSync(join(runsDir, 'run-b.paje'), chainRun(true));
  comparing = startServer([join(runsDir, 'run-a.paje'), join(runsDir, 'run-b.paje')]);
  const compareBase = await comparing.url;
  await allRead(compareBase);
  await checkCompare(compareBase);

  // A trace the server is still reading (the hidden --read-after holds the
  // reading back until its file exists): the page says so, then opens it.
  const gate = join(gateDir, 'gate');
  reading = startServer([example, '--read-after', gate]);
  await page.goto(await reading.url);
  const traceInfo = page.locator('[data-testid=trace-info]');
  const firstOption = page.locator('[data-testid=trace-select] option').first();
  await page.waitForFunction(() => document.querySelector('[data-testid=trace-info]').textContent.includes('reading'), null, { timeout: 10000 })
    .catch(() => {});
  const waiting = [await traceInfo.innerText(), await firstOption.innerText(), await firstOption.isDisabled()];
  check('a trace being read says so', JSON.stringify(waiting) === JSON.stringify(['paje · reading…', 'synthetic.trace — reading…', true]),
    JSON.stringify(waiting));
  writeFileSync(gate, '');
  h = await settled(page);
  check('the page opens it once read', h.parts > 0 && (await firstOption.innerText()) === 'synthetic.trace' && !(await firstOption.isDisabled()),
    `${h.parts} parts, ${await firstOption.innerText()}`);

  check('no error on the page', pageErrors.length === 0 && !(await page.locator('[data-testid=error]').isVisible()), pageErrors.join('; '));
} catch (err) {
  failed++;
  console.log(`FAIL ${err.stack ?? err}`);
} finally {
  await context?.close().catch(() => {});
  server.child.kill('SIGTERM');
  reading?.child.kill('SIGTERM');
  comparing?.child.kill('SIGTERM');
  rmSync(userDir, { recursive: true, force: true });
  rmSync(gateDir, { recursive: true, force: true });
  rmSync(runsDir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
