import { describe, expect, it } from 'vitest';
import { formatWallClock, humanNanoseconds, humanSeconds, parseWallClock, TimeDisplay, toFixedC, TraceClock, unitFor, type TimeInfo } from './time';

// Expected texts are what the C++ HumanSeconds (src/model/time_base.cc) writes for the same arguments.
describe('humanSeconds mirrors HumanSeconds', () => {
  const cases: [number, number, boolean, string][] = [
    [2.794729, 1e-6, true, '+2.794 729 s'],
    [412.5e-6, 1e-7, true, '+412.5 µs'],
    [118e-9, 0, true, '+118 ns'],
    [118e-9, 1e-9, false, '118 ns'],
    [2.794729123, 1e-9, true, '+2.794 729 123 s'],
    [412.518e-6, 1e-9, false, '412.518 µs'],
    [0.000999999, 1e-9, false, '999.999 µs'],
    [0.5, 0.5, true, '+500 ms'],
    [1, 0.5, true, '+1.0 s'],
    [1e-3, 2e-4, true, '+1.0 ms'],
    [7.25e-4, 1e-5, true, '+725 µs'],
    [-0.25, 1e-3, true, '-250 ms'],
    [-0.0004, 1e-3, true, '-400 µs'],
    [86400.5, 1e-3, true, '+86400.500 s'],
  ];
  it.each(cases)('HumanSeconds(%s, %s, %s) = %s', (seconds, resolution, sign, text) => {
    expect(humanSeconds(seconds, resolution, sign)).toBe(text);
  });

  it('picks the unit by magnitude; for 0 by the resolution, seconds without one', () => {
    expect(unitFor(2, 1e-9)).toBe('s');
    expect(unitFor(0.999, 0)).toBe('ms');
    expect(unitFor(999e-9, 0)).toBe('ns');
    expect(unitFor(1e-12, 0)).toBe('ns');
    expect(humanSeconds(0, 0.5, true)).toBe('+0 ms');
    expect(humanSeconds(0, 2e-3, true)).toBe('+0 ms');
    expect(humanSeconds(0, 0, true)).toBe('+0 s');
    expect(humanSeconds(1e-12, 0)).toBe('0 ns');
  });

  it('without a resolution: every digit down to the ns, less trailing groups of zeros', () => {
    expect(humanSeconds(3367, 0)).toBe('3367 s');
    expect(humanSeconds(12.5, 0, true)).toBe('+12.500 s');
    expect(humanSeconds(0.1875, 0)).toBe('187.500 ms');
    expect(humanSeconds(6.0064903, 0)).toBe('6.006 490 300 s');
  });

  it('rounds exact ties to even, as printf does', () => {
    expect(humanSeconds(2.5, 1)).toBe('2 s');
    expect(humanSeconds(1.25, 0.1)).toBe('1.2 s');
    expect(humanSeconds(0.0625, 1e-3)).toBe('62 ms');
    expect(humanSeconds(1.5e-6, 1e-6)).toBe('2 µs');
    expect(toFixedC(0.5, 0)).toBe('0');
    expect(toFixedC(3.5, 0)).toBe('4');
    expect(toFixedC(-2.5, 0)).toBe('-2');
    expect(toFixedC(0.375, 2)).toBe('0.38');
    // Not ties: the nearest decimal, as toFixed.
    expect(toFixedC(2.675, 2)).toBe('2.67');
    expect(toFixedC(1.0000001, 0)).toBe('1');
  });

  it('keeps one unit when asked (axes)', () => {
    expect(humanSeconds(0.5, 0.5, true, 's')).toBe('+0.5 s');
    expect(humanSeconds(0, 0.5, true, 's')).toBe('+0.0 s');
    expect(humanSeconds(2.7947, 1e-4, true, 's')).toBe('+2.794 7 s');
  });
});

describe('humanNanoseconds', () => {
  it('writes whole nanoseconds as humanSeconds does at resolution 0', () => {
    for (const ns of [0, 118, 1000, 1500, -1500, 999_999, 412_500, 398_812_345, 1_000_000_000, 2_794_729_000, -61_000_000_001])
      expect(humanNanoseconds(BigInt(ns))).toBe(humanSeconds(ns * 1e-9, 0));
    expect(humanNanoseconds(398_812_345n)).toBe('398.812 345 ms');
  });

  it('is exact beyond 2^53 ns', () => {
    expect(humanNanoseconds(9_007_199_254_740_993n)).toBe('9007199.254 740 993 s');
  });
});

describe('wall clock', () => {
  it('reads and writes UTC dates to the nanosecond', () => {
    const ns = parseWallClock('2014-10-07 08:36:01.211260539');
    expect(ns).toBe(1412670961211260539n);
    expect(formatWallClock(ns!)).toBe('2014-10-07 08:36:01.211 260 539');
    expect(formatWallClock(ns!, 3)).toBe('2014-10-07 08:36:01.211');
    expect(formatWallClock(ns!, 0, false)).toBe('08:36:01');
    expect(formatWallClock(ns! + 788_739_461n)).toBe('2014-10-07 08:36:02.000 000 000');
    expect(parseWallClock('2014-10-07T08:36:01')).toBe(1412670961000000000n);
    expect(parseWallClock('yesterday')).toBeNull();
  });

  it('rounds to the decimals asked, carrying into the seconds and the day', () => {
    expect(formatWallClock(parseWallClock('2014-10-07 23:59:59.9996')!, 3)).toBe('2014-10-08 00:00:00.000');
    expect(formatWallClock(-1n)).toBe('1969-12-31 23:59:59.999 999 999');
  });
});

const CTF: TimeInfo = {
  unit: 'ns', seconds_per_tick: [1, 1000000000], whole_ticks: true,
  clock_start: '1412670961.211260539', wall_clock_start: '2014-10-07 08:36:01.211260539',
};

describe('TraceClock', () => {
  const ctf = new TraceClock(CTF, 0);

  it('writes model times from the trace start, in seconds', () => {
    expect(ctf.time(2794729123, ctf.exact)).toBe('+2.794 729 123 s');
    expect(ctf.time(412500, 1e-7)).toBe('+412.5 µs');
    expect(ctf.time(118, 0)).toBe('+118 ns');
    expect(ctf.length(6006490300, ctf.exact)).toBe('6.006 490 300 s');
    expect(ctf.range(0, 6006490300, 0.01)).toBe('+0.00 s – +6.01 s');
  });

  it('gives wall-clock times exactly, from the start plus the offset in integers', () => {
    expect(ctf.hasWallClock).toBe(true);
    expect(ctf.time(0, ctf.exact, 'wall')).toBe('2014-10-07 08:36:01.211 260 539');
    expect(ctf.time(6006490300, ctf.exact, 'wall')).toBe('2014-10-07 08:36:07.217 750 839');
    // Far from the start, where a double of epoch seconds would have lost the ns.
    expect(ctf.time(2 ** 53 - 1, ctf.exact, 'wall')).toBe(formatWallClock(1412670961211260539n + 9007199254740991n));
    expect(ctf.range(0, 1e9, 1e-3, 'wall')).toBe('2014-10-07 08:36:01.211 – 08:36:02.211');
  });

  it('reads the epoch through an odd tick as the C++ WallClock does', () => {
    const otf2 = new TraceClock({ ...CTF, unit: '1/2095197216 s', seconds_per_tick: [1, 2095197216] }, 0);
    expect(otf2.time(1, 0, 'wall')).toBe('2014-10-07 08:36:01.211 260 539');
    expect(otf2.time(3, 0, 'wall')).toBe('2014-10-07 08:36:01.211 260 540');
    expect(otf2.time(1047598608, 0, 'wall')).toBe('2014-10-07 08:36:01.711 260 539');
    expect(otf2.time(2095197216, 1e-9)).toBe('+1.000 000 000 s');
  });

  it('labels a relative axis in one unit, never with clock seconds', () => {
    const whole = ctf.axis(0, 6006490300, 1200, 80);
    expect(whole.ticks.map((x) => x.label)).toEqual(
      ['+0.0 s', '+0.5 s', '+1.0 s', '+1.5 s', '+2.0 s', '+2.5 s', '+3.0 s', '+3.5 s', '+4.0 s', '+4.5 s', '+5.0 s', '+5.5 s', '+6.0 s']);
    expect(whole.ticks[2].t).toBe(1e9);
    const ms = ctf.axis(2794000000, 2798000000, 1000, 80);
    expect(ms.ticks.map((x) => x.label)).toEqual(['+2.794 0 s', '+2.794 5 s', '+2.795 0 s', '+2.795 5 s', '+2.796 0 s',
      '+2.796 5 s', '+2.797 0 s', '+2.797 5 s', '+2.798 0 s']);
    const start = ctf.axis(0, 800000, 800, 80);
    expect(start.ticks.map((x) => x.label)).toEqual(['+0 µs', '+100 µs', '+200 µs', '+300 µs', '+400 µs', '+500 µs', '+600 µs', '+700 µs', '+800 µs']);
    expect(ctf.axis(0, 2000000, 800, 80).ticks.map((x) => x.label)).toEqual(['+0.0 ms', '+0.2 ms', '+0.4 ms', '+0.6 ms', '+0.8 ms', '+1.0 ms',
      '+1.2 ms', '+1.4 ms', '+1.6 ms', '+1.8 ms', '+2.0 ms']);
    // Never finer than a tick.
    const deep = ctf.axis(2794729100, 2794729103, 1000, 80);
    expect(deep.step).toBe(1e-9);
    expect(deep.ticks.map((x) => x.label)).toEqual(['+2.794 729 100 s', '+2.794 729 101 s', '+2.794 729 102 s', '+2.794 729 103 s']);
  });

  it('puts wall-clock ticks at round times of the day', () => {
    const axis = ctf.axis(0, 6006490300, 1200, 80, 'wall');
    expect(axis.context).toBe('2014-10-07 UTC');
    expect(axis.ticks[0].label).toBe('08:36:01.5');
    expect(axis.ticks[0].t).toBe(288739461);
    expect(axis.ticks.at(-1)!.label).toBe('08:36:07.0');
    const minutes = new TraceClock(CTF, 0).axis(0, 3600e9, 1000, 80, 'wall');
    expect(minutes.ticks[0].label).toBe('08:40:00');
    expect(minutes.step).toBe(300);
  });

  it('reads a Pajé trace as seconds from its start, without a wall clock', () => {
    const paje = new TraceClock({ unit: 's', seconds_per_tick: [1, 1], whole_ticks: false, clock_start: '10.000000000', wall_clock_start: null }, 10);
    expect(paje.hasWallClock).toBe(false);
    expect(paje.time(22.5, paje.exact)).toBe('+12.500 s');
    expect(paje.time(22.5, paje.exact, 'wall')).toBe('+12.500 s');
    expect(paje.length(0.25, 0)).toBe('250 ms');
    expect(paje.axis(10, 3377, 800, 80).ticks.slice(0, 3).map((x) => x.label)).toEqual(['+0 s', '+500 s', '+1000 s']);
  });
});

describe('TimeDisplay', () => {
  it('shows wall-clock times only for traces that have them', () => {
    const display = new TimeDisplay();
    display.mode = 'wall';
    expect(display.mode).toBe('relative');
    expect(display.time(1.5, 0)).toBe('+1.500 s');
    display.set(CTF, 0);
    expect(display.mode).toBe('wall');
    expect(display.time(0, display.exact)).toBe('2014-10-07 08:36:01.211 260 539');
    display.set(undefined, 0);
    expect(display.mode).toBe('relative');
  });
});
