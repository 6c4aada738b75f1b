// Times for people. Model times (what the API sends and the URL keeps) are
// ticks of the trace's clock; a person reads them relative to the trace
// start in seconds — "+2.794 729 s", "+412.5 µs", durations "118 ns" — with
// the unit the magnitude calls for and the decimals the resolution needs,
// by the rules of the C++ HumanSeconds (src/model/time_base.h), or as
// wall-clock dates when the trace's clock has an epoch. Pure functions,
// unit-tested (time.test.ts).

/** The `time` object of a trace summary (docs/serve.md). */
export interface TimeInfo {
  unit: string;
  seconds_per_tick: [number, number];
  whole_ticks: boolean;
  clock_start: string;
  wall_clock_start: string | null;
}

/** What a trace without a `time` object is read as: seconds from 0. */
export const PLAIN_SECONDS: TimeInfo = { unit: 's', seconds_per_tick: [1, 1], whole_ticks: false, clock_start: '0', wall_clock_start: null };

export type UnitName = 's' | 'ms' | 'µs' | 'ns';
const UNITS: { name: UnitName; scale: number; maxDecimals: number }[] = [
  { name: 's', scale: 1, maxDecimals: 9 }, { name: 'ms', scale: 1e-3, maxDecimals: 6 },
  { name: 'µs', scale: 1e-6, maxDecimals: 3 }, { name: 'ns', scale: 1e-9, maxDecimals: 0 },
];

/** The unit HumanSeconds writes `seconds` in: by its magnitude; for 0, by the resolution's (s without one). */
export function unitFor(seconds: number, resolution: number): UnitName {
  const magnitude = Math.abs(seconds) > 0 ? Math.abs(seconds) : resolution > 0 ? resolution : 1;
  let u = 0;
  while (u + 1 < UNITS.length && magnitude < UNITS[u].scale * (1 - 1e-12)) u++;
  return UNITS[u].name;
}

/**
 * x with `decimals` fraction digits as C's printf("%.*f") writes it: the
 * nearest decimal, exact ties to even (JavaScript's toFixed rounds them away
 * from zero: 2.5 -> "3" where printf gives "2").
 */
export function toFixedC(x: number, decimals: number): string {
  const text = x.toFixed(decimals);
  if (!Number.isFinite(x)) return text;
  // A tie is a dyadic fraction with at most decimals + 1 fraction bits: its
  // exact expansion ends at digit decimals + 1, a 5 (60 more digits are
  // plenty to tell it from a near tie for the magnitudes of times).
  const a = Math.abs(x);
  const longer = a.toFixed(decimals + 1);
  if (!longer.endsWith('5')) return text;
  const expansion = a.toFixed(Math.min(100, decimals + 60));
  if (!expansion.startsWith(longer) || !/^0*$/.test(expansion.slice(longer.length))) return text;
  const truncated = longer.slice(0, decimals > 0 ? -1 : -2);
  if (Number(truncated[truncated.length - 1]) % 2 === 1) return text;  // away from zero is to even here
  return (x < 0 ? '-' : '') + truncated;
}

/** "2.794729" -> "2.794 729": fraction digits in groups of three. */
function groupFraction(number: string): string {
  const point = number.indexOf('.');
  if (point < 0) return number;
  const fraction = number.slice(point + 1).match(/.{1,3}/g) ?? [];
  return `${number.slice(0, point)}.${fraction.join(' ')}`;
}

/**
 * HumanSeconds: `seconds` (from the trace start, or a length) in the unit its
 * magnitude calls for — or `unit`, to keep one unit along an axis — with the
 * decimals `resolution` (seconds) needs; resolution 0: every digit down to
 * the ns, less trailing groups of zeros. `sign`: a '+' before times from the start.
 */
export function humanSeconds(seconds: number, resolution: number, sign = false, unit?: UnitName): string {
  if (Object.is(seconds, -0)) seconds = 0;
  const u = UNITS.findIndex((x) => x.name === (unit ?? unitFor(seconds, resolution)));
  const { name, scale, maxDecimals } = UNITS[u];
  let decimals = maxDecimals;
  if (resolution > 0 && Number.isFinite(resolution)) {
    decimals = Math.min(maxDecimals, Math.max(0, Math.ceil(Math.log10(scale / resolution) - 1e-9)));
  }
  let number = toFixedC(seconds / scale, decimals);
  if (!(resolution > 0)) {
    while (decimals >= 3 && number.endsWith('000')) { number = number.slice(0, -3); decimals -= 3; }
    if (decimals === 0 && number.endsWith('.')) number = number.slice(0, -1);
  }
  return `${sign && seconds >= 0 ? '+' : ''}${groupFraction(number)} ${name}`;
}

const NS_PER_S = 1_000_000_000n;

/**
 * A length of `ns` whole nanoseconds as humanSeconds writes it at resolution
 * 0 ("398.812 345 ms", "-1.500 µs", "118 ns"), from the integer: exact at any
 * size, no double in between.
 */
export function humanNanoseconds(ns: bigint): string {
  const a = ns < 0n ? -ns : ns;
  const u = a === 0n || a >= 1_000_000_000n ? 0 : a >= 1_000_000n ? 1 : a >= 1_000n ? 2 : 3;
  const digits = UNITS[u].maxDecimals;  // the fraction digits down to the ns
  const scale = 10n ** BigInt(digits);
  let fraction = digits > 0 ? (a % scale).toString().padStart(digits, '0') : '';
  while (fraction.endsWith('000')) fraction = fraction.slice(0, -3);
  const number = `${ns < 0n ? '-' : ''}${a / scale}${fraction ? `.${fraction}` : ''}`;
  return `${groupFraction(number)} ${UNITS[u].name}`;
}
const NS_PER_DAY = 86_400n * NS_PER_S;

/** a / b rounded to nearest, ties away from zero (b > 0), as the C++ DivRound. */
function divRound(a: bigint, b: bigint): bigint {
  const q = a / b, r = a % b;
  const twice = 2n * (r < 0n ? -r : r);
  return twice >= b ? q + (a < 0n ? -1n : 1n) : q;
}

/** "2014-10-07 08:36:01.211260539" (UTC) -> nanoseconds since 1970, or null. */
export function parseWallClock(text: string): bigint | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?$/.exec(text.trim());
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (!Number.isFinite(ms)) return null;
  return BigInt(ms) * 1_000_000n + BigInt((m[7] ?? '').padEnd(9, '0'));
}

/**
 * Nanoseconds since 1970 as "2014-10-07 08:36:01.211 260 539" (UTC), rounded
 * to `decimals` fraction digits; `date` false leaves the day out.
 */
export function formatWallClock(ns: bigint, decimals = 9, date = true): string {
  const unit = 10n ** BigInt(9 - decimals);
  const rounded = divRound(ns, unit) * unit;
  let seconds = rounded / NS_PER_S, fraction = rounded % NS_PER_S;
  if (fraction < 0n) { fraction += NS_PER_S; seconds -= 1n; }
  const iso = new Date(Number(seconds) * 1000).toISOString();  // YYYY-MM-DDTHH:MM:SS.000Z
  const digits = fraction.toString().padStart(9, '0').slice(0, decimals);
  const text = `${date ? `${iso.slice(0, 10)} ` : ''}${iso.slice(11, 19)}`;
  return decimals > 0 ? `${text}.${groupFraction(`0.${digits}`).slice(2)}` : text;
}

export type ClockMode = 'relative' | 'wall';

export interface AxisTick { t: number; label: string }
export interface Axis {
  ticks: AxisTick[];
  /** Seconds between ticks. */
  step: number;
  /** What the labels leave out: the day, for wall-clock labels. */
  context: string;
}

/** Decimals that write a multiple of `step` seconds exactly (at most 9). */
function decimalsOf(step: number): number { return Math.min(9, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9))); }

/** Steps of 1, 2 or 5 times a power of ten (seconds), the smallest at least `raw`. */
function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((v) => v >= raw * (1 - 1e-12)) ?? 10 * magnitude;
}

/** Wall-clock steps: decimal below ten seconds, then minutes and hours, then days. */
function wallStep(raw: number): number {
  if (raw <= 10) return niceStep(raw);
  const steps = [15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
  return steps.find((s) => s >= raw) ?? 86400 * niceStep(raw / 86400);
}

/**
 * A trace's times for people: model times -> seconds from the trace start
 * (`start`, a model time) through `seconds_per_tick`, or wall-clock time from
 * `wall_clock_start` (the wall clock at `start`) plus the exact offset.
 */
export class TraceClock {
  readonly secondsPerTick: number;
  private readonly numerator: number;
  private readonly denominator: number;
  private readonly num: bigint;
  private readonly den: bigint;
  private readonly wallStart: bigint | null;

  constructor(readonly info: TimeInfo, readonly start: number) {
    const [num, den] = info.seconds_per_tick;
    this.secondsPerTick = num / den;
    this.numerator = num;
    this.denominator = den;
    this.num = BigInt(num);
    this.den = BigInt(den);
    this.wallStart = info.whole_ticks && info.wall_clock_start ? parseWallClock(info.wall_clock_start) : null;
  }

  get hasWallClock(): boolean { return this.wallStart !== null; }

  /** A length in model units, in seconds (as TimeBase::Seconds: 1/1e9 is not a double, 1e9 is). */
  seconds(ticks: number): number { return (ticks / this.denominator) * this.numerator; }
  /** Seconds from the trace start. */
  fromStart(t: number): number { return this.seconds(t - this.start); }
  /** The model time `seconds` after the trace start. */
  at(seconds: number): number { return this.start + (seconds / this.numerator) * this.denominator; }

  /** Resolution (seconds) that shows every tick: one tick for integer clocks; 0 (all digits) otherwise. */
  get exact(): number { return this.info.whole_ticks ? this.secondsPerTick : 0; }

  /** Resolution (seconds) of one pixel when `span` model units fill `pixels`, never finer than a tick. */
  pixel(span: number, pixels: number): number {
    const r = this.seconds(span) / Math.max(1, pixels);
    return this.info.whole_ticks ? Math.max(r, this.secondsPerTick) : r;
  }

  /** Nanoseconds since 1970 at model time t (rounded to a whole tick), or null without an epoch. */
  wallNs(t: number): bigint | null {
    if (this.wallStart === null) return null;
    const ticks = BigInt(Math.round(t - this.start));
    return this.wallStart + divRound(ticks * this.num * NS_PER_S, this.den);
  }

  /** Model time t for people, at `resolution` seconds (0: exact). */
  time(t: number, resolution: number, mode: ClockMode = 'relative'): string {
    const wall = mode === 'wall' ? this.wallNs(t) : null;
    if (wall !== null) return formatWallClock(wall, resolution > 0 ? decimalsOf(resolution) : 9);
    return humanSeconds(this.fromStart(t), resolution, true);
  }

  /** A length in model units for people. */
  length(d: number, resolution: number): string { return humanSeconds(this.seconds(d), resolution, false); }

  /** "a – b" in one unit (the larger end's), or as wall-clock times (the day once). */
  range(a: number, b: number, resolution: number, mode: ClockMode = 'relative'): string {
    const wa = mode === 'wall' ? this.wallNs(a) : null, wb = mode === 'wall' ? this.wallNs(b) : null;
    if (wa !== null && wb !== null) {
      const d = resolution > 0 ? decimalsOf(resolution) : 9;
      const sameDay = wa / NS_PER_DAY === wb / NS_PER_DAY;
      return `${formatWallClock(wa, d)} – ${formatWallClock(wb, d, !sameDay)}`;
    }
    const sa = this.fromStart(a), sb = this.fromStart(b);
    const unit = unitFor(Math.max(Math.abs(sa), Math.abs(sb)), resolution);
    return `${humanSeconds(sa, resolution, true, unit)} – ${humanSeconds(sb, resolution, true, unit)}`;
  }

  /**
   * Ticks of an axis over the model times [t0, t1] drawn on `pixels`, at
   * least `minSpacing` pixels apart, at round seconds from the trace start
   * (labels in one unit, the larger end's, with the decimals the step
   * needs) or at round wall-clock times.
   */
  axis(t0: number, t1: number, pixels: number, minSpacing: number, mode: ClockMode = 'relative'): Axis {
    const s0 = this.fromStart(t0), s1 = this.fromStart(t1);
    if (!(s1 > s0) || !(pixels > 0)) return { ticks: [], step: 0, context: '' };
    // Never finer than one nanosecond, nor than a tick of the clock.
    const floor = Math.max(1e-9, this.info.whole_ticks ? this.secondsPerTick : 0);
    const raw = Math.max(((s1 - s0) * minSpacing) / pixels, floor);
    const wallStart = mode === 'wall' ? this.wallNs(this.start) : null;
    if (wallStart !== null) {
      // Round times of the UTC day the axis starts in: seconds of that day, exact to the ns as integers.
      const first = this.wallNs(t0)!;
      const day = (first >= 0n ? first / NS_PER_DAY : (first - NS_PER_DAY + 1n) / NS_PER_DAY) * NS_PER_DAY;
      const shift = Number(wallStart - day);  // ns from that midnight to the trace start
      const step = wallStep(raw);
      const decimals = decimalsOf(step);
      const ticks: AxisTick[] = [];
      const a = (shift + s0 * 1e9) / 1e9, b = (shift + s1 * 1e9) / 1e9;
      for (let k = Math.ceil(a / step - 1e-6); k * step <= b + step * 1e-6; k++) {
        const ns = Math.round(k * step * 1e9);
        ticks.push({ t: this.at((ns - shift) / 1e9), label: formatWallClock(day + BigInt(ns), decimals, false) });
      }
      return { ticks, step, context: `${new Date(Number(day / 1_000_000n)).toISOString().slice(0, 10)} UTC` };
    }
    const step = niceStep(raw);
    const unit = unitFor(Math.max(Math.abs(s0), Math.abs(s1)), step);
    const ticks: AxisTick[] = [];
    // k / (1 / step) for steps under a second: 3 / 5 is the double nearest 0.6, 3 * 0.2 is not.
    const inverse = step < 1 ? Math.round(1 / step) : 0;
    const value = (k: number) => (k === 0 ? 0 : inverse ? k / inverse : k * step);
    for (let k = Math.ceil(s0 / step - 1e-6); value(k) <= s1 + step * 1e-6; k++) {
      ticks.push({ t: this.at(value(k)), label: humanSeconds(value(k), step, true, unit) });
    }
    return { ticks, step, context: '' };
  }
}

/**
 * What every view formats times with: the current trace's clock and the
 * mode the person chose (wall clock only where the clock has an epoch).
 * One object, shared, so that a toggle reaches every view at once.
 */
export class TimeDisplay {
  clock = new TraceClock(PLAIN_SECONDS, 0);
  private chosen: ClockMode = 'relative';

  set(info: TimeInfo | undefined, start: number): void { this.clock = new TraceClock(info ?? PLAIN_SECONDS, start); }
  set mode(mode: ClockMode) { this.chosen = mode; }
  /** The mode in effect: relative when the trace has no wall clock, whatever was chosen. */
  get mode(): ClockMode { return this.chosen === 'wall' && this.clock.hasWallClock ? 'wall' : 'relative'; }

  time(t: number, resolution: number): string { return this.clock.time(t, resolution, this.mode); }
  range(a: number, b: number, resolution: number): string { return this.clock.range(a, b, resolution, this.mode); }
  length(d: number, resolution: number): string { return this.clock.length(d, resolution); }
  axis(t0: number, t1: number, pixels: number, minSpacing: number): Axis { return this.clock.axis(t0, t1, pixels, minSpacing, this.mode); }
  /** Seconds of one pixel when `span` model units fill `pixels`. */
  pixel(span: number, pixels: number): number { return this.clock.pixel(span, pixels); }
  get exact(): number { return this.clock.exact; }
}
