"""`profile` against an independent computation: the ENTER and LEAVE records
`otf2-print` prints of the shared OTF2 traces, paired here by a stack per
location; inclusive time counts a recursion once (the outermost call),
exclusive time is inclusive less the calls' inclusive time; ticks summed in
integers, converted to nanoseconds once, rounded to the nearest. The per
function means are pipit's flat profile (the per process sums' mean over
the processes where the function occurs)."""

import collections
import os
import fractions
import re
import subprocess

import pytest

from conftest import BINARY, command, command_csv, pj_dump_profile, shared_file

ENTER_LEAVE = re.compile(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <\d+>')
GROUP = re.compile(r'^LOCATION\s+(\d+)\s+Name: "(.*)" <\d+>, .*Group: "(.*)" <\d+>')
RATE = re.compile(r"Ticks per Seconds: (\d+)")


def otf2_profile(anchor):
    """{(location group/location name, region): [calls, inclusive ticks, exclusive ticks]}, the tick rate."""
    definitions = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True, check=True).stdout
    rate = int(RATE.search(definitions).group(1))
    names = {}
    for line in definitions.splitlines():
        m = GROUP.match(line)
        if m:
            names[m.group(1)] = m.group(3) + "/" + m.group(2)
    events = subprocess.run(["otf2-print", anchor], capture_output=True, text=True, check=True).stdout
    rows = collections.defaultdict(lambda: [0, 0, 0])
    stacks = collections.defaultdict(list)  # location -> [region, enter time, calls' time]
    for line in events.splitlines():
        m = ENTER_LEAVE.match(line)
        if not m:
            continue
        kind, location, time, region = m.group(1), m.group(2), int(m.group(3)), m.group(4)
        stack = stacks[location]
        if kind == "ENTER":
            stack.append([region, time, 0])
            continue
        name, start, callees = stack.pop()
        assert name == region
        length = time - start
        row = rows[(names[location], region)]
        row[0] += 1
        if all(frame[0] != region for frame in stack):
            row[1] += length
        row[2] += length - callees
        if stack:
            stack[-1][2] += length
    return rows, rate


def ns(ticks, rate):
    exact = fractions.Fraction(ticks * 10**9, rate)
    return int(exact + fractions.Fraction(1, 2)) if exact >= 0 else -int(-exact + fractions.Fraction(1, 2))


def rank_and_thread(path):
    return "/".join(path.split("/")[-2:])


@pytest.mark.parametrize("name", ["ping-pong-otf2", "ping-pong-otf2-papi"])
def test_profile_is_otf2_prints(name):
    anchor = shared_file("otf2", name, "traces.otf2")
    expected, rate = otf2_profile(anchor)
    profile = command_csv("profile", anchor)
    got = {(rank_and_thread(r.container), r.function): [int(r.calls), int(r.inclusive_ns), int(r.exclusive_ns)]
           for r in profile.itertuples()}
    assert got == {key: [calls, ns(inc, rate), ns(exc, rate)] for key, (calls, inc, exc) in expected.items()}
    # int main's exclusive time is its own, not its callees'
    main = [v for (place, function), v in got.items() if function.startswith("int main")]
    assert main and all(exclusive < inclusive for _, inclusive, exclusive in main)

    total = command_csv("profile", "--total", anchor)
    by_function = collections.defaultdict(list)
    for (_, region), row in expected.items():
        by_function[region].append(row)
    assert sorted(total.function) == sorted(by_function)
    for r in total.itertuples():
        rows = by_function[r.function]
        assert int(r.calls) == sum(row[0] for row in rows)
        assert int(r.containers) == len(rows)
        assert int(r.inclusive_ns) == ns(sum(row[1] for row in rows), rate)
        assert int(r.exclusive_ns) == ns(sum(row[2] for row in rows), rate)
        inclusive = [ns(row[1], rate) for row in rows]
        # pipit's flat_profile: the mean over the processes of their sums
        assert float(r.inclusive_mean_ns) == pytest.approx(sum(inclusive) / len(rows), rel=1e-12)
        assert int(r.inclusive_min_ns) == min(inclusive) and int(r.inclusive_max_ns) == max(inclusive)
        assert float(r.imbalance) == pytest.approx(max(inclusive) / (sum(inclusive) / len(rows)), rel=1e-12)


def test_call_tree_is_otf2_prints():
    anchor = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    expected, rate = otf2_profile(anchor)
    tree = command_csv("profile", "--tree", anchor)
    # ping-pong calls every MPI function from main: depth 1, one path each
    paths = {r.path: r for r in tree.itertuples()}
    for region in {region for (_, region) in expected}:
        rows = [row for (_, f), row in expected.items() if f == region]
        path = region if region.startswith("int main") else "int main(int, char**);" + region
        assert int(paths[path].calls) == sum(row[0] for row in rows)
        assert int(paths[path].exclusive_ns) == ns(sum(row[2] for row in rows), rate)
    assert {int(r.depth) for r in tree.itertuples()} == {0, 1}


def test_profile_function_is_the_command(tmp_path):
    import macroscope

    anchor = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    t = macroscope.open(anchor)
    frame = t.profile()
    printed = command_csv("profile", anchor)
    assert list(frame.columns) == list(printed.columns)
    assert [str(v) for v in frame["exclusive_ns"]] == list(printed.exclusive_ns)
    assert list(t.profile_total()["function"]) == list(command_csv("profile", "--total", anchor).function)


PAJE_HEADER = """%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 2
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajePushState 3
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePopState 4
% Time date
% Type string
% Container string
%EndEventDef
0 T 0 Thread
1 S T Function
2 0 t1 T 0 t1
2 0 t2 T 0 t2
"""


def recursive_trace(path):
    """Two threads calling f, g and h, f recursively through g, at times
    that never repeat (random but seeded)."""
    import random

    rng = random.Random(7)
    lines = []
    for thread in ("t1", "t2"):
        time = rng.randint(1, 50)
        depth = 0
        stack = []
        for _ in range(400):
            time += rng.randint(1, 97)
            if stack and (depth >= 6 or rng.random() < 0.45):
                stack.pop()
                lines.append((time, "4 %d S %s" % (time, thread)))
            else:
                f = rng.choice("fgh")
                stack.append(f)
                lines.append((time, "3 %d S %s %s" % (time, thread, f)))
            depth = len(stack)
        while stack:
            time += rng.randint(1, 97)
            stack.pop()
            lines.append((time, "4 %d S %s" % (time, thread)))
    lines.sort(key=lambda x: x[0])
    with open(path, "w") as out:
        out.write(PAJE_HEADER + "".join(line + "\n" for _, line in lines))


@pytest.mark.parametrize("window", [None, ("+400", "+9000")])
def test_recursion_is_counted_once(tmp_path, window):
    trace = str(tmp_path / "recursive.trace")
    recursive_trace(trace)
    arguments = ["profile", trace] + (["--window", ",".join(window)] if window else [])
    got = {(r.container, r.function): [int(r.calls), int(r.inclusive_ns), int(r.exclusive_ns)]
           for r in command_csv(*arguments).itertuples()}
    bounds = (fractions.Fraction(window[0]), fractions.Fraction(window[1])) if window else (None, None)
    expected = pj_dump_profile(trace, *bounds)
    assert got == expected
    # f calls itself through g: its inclusive time is less than its calls' lengths summed
    assert any(v[1] < v[2] + sum(w[1] for k, w in got.items() if k[0] == c and k[1] != "f")
               for (c, f), v in got.items() if f == "f")


def test_a_store_profiles_as_its_trace(tmp_path):
    trace = str(tmp_path / "recursive.trace")
    recursive_trace(trace)
    store = str(tmp_path / "recursive.mstore")
    command("import", trace, "-o", store)
    for option in ([], ["--total"], ["--tree"], ["--window", "+400,+9000"]):
        assert command_csv("profile", store, *option).equals(command_csv("profile", trace, *option))


def test_flamegraph_draws_the_tree(tmp_path):
    trace = str(tmp_path / "recursive.trace")
    recursive_trace(trace)
    picture = str(tmp_path / "flame.svg")
    command("flamegraph", trace, "-o", picture)
    svg = open(picture).read()
    assert svg.startswith("<?xml") and "Flame graph" in svg
    bad = subprocess.run([BINARY, "flamegraph", trace, "-o", str(tmp_path / "flame.gif")], capture_output=True,
                         text=True)
    assert bad.returncode == 1 and "flame.gif: a picture's name ends in .svg or .png" in bad.stderr
    assert not os.path.exists(str(tmp_path / "flame.gif"))
