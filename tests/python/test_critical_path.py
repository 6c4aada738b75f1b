"""`critical-path` against a walk made here from other tools' output of
real traces: SimGrid's SMPI recording of a chain (data/smpi_chain.c, a rank
per host, rank 2 on the slowest one) read back by pj_dump, and Score-P's
OTF2 ping-pong read by otf2-print. The walk follows the definition of
docs/critical-path.md on those tools' states and messages: back from the
end of the last activity, to the sender at a receive that waited for its
send (Late Sender), to the last entrant at a collective, else along the
container."""

import collections
import re
import subprocess
from fractions import Fraction

import pytest

from conftest import BINARY, command_csv, shared_file, smpi_record, source_file

RANKS = 4
COLLECTIVES = {"barrier", "bcast", "reduce", "allreduce", "alltoall", "allgather", "gather", "scatter"}


def mpi_name(name):
    n = name.lower()
    if n.startswith("pmpi_"):
        n = n[1:]
    return n[4:] if n.startswith("mpi_") else None


def walk(states, messages):
    """states {container: [(start, end, name)]} (innermost calls, which these
    traces' MPI calls are), messages [(sender, receiver, sent, received)]:
    the path as [(container, start, end)] in time order."""
    jumps = collections.defaultdict(list)  # container -> [(at, to, peer)]
    for sender, receiver, sent, received in messages:
        for start, end, name in states[receiver]:
            n = mpi_name(name)
            if start < received <= end and n and ("recv" in n or n.startswith("wait")):
                if start < sent < received:
                    jumps[receiver].append((received, sent, sender))
                break
    calls = collections.defaultdict(lambda: collections.defaultdict(list))
    for c, ss in states.items():
        for start, end, name in sorted(ss):
            if mpi_name(name) in COLLECTIVES:
                calls[name][c].append((start, end))
    for per in calls.values():
        for k in range(max(len(v) for v in per.values())):
            entries = {c: v[k] for c, v in per.items() if k < len(v)}
            last = max(entries, key=lambda c: entries[c][0])
            for c, (start, end) in entries.items():
                if c != last and start < entries[last][0] < end:
                    jumps[c].append((end, entries[last][0], last))
    t, c = max((end, c) for c, ss in states.items() for _, end, _ in ss)
    path = []
    while True:
        before = [j for j in jumps[c] if j[0] <= t and j[1] < t]
        if not before:
            path.append((c, min(s for s, _, _ in states[c]), t))
            break
        at, to, peer = max(before)
        path.append((c, to, t))
        c, t = peer, to
    return path[::-1]


def stretches(segments, time):
    """The command's segments joined while on one container: [(container, start, end)]."""
    out = []
    for r in segments.itertuples():
        if out and out[-1][0] == r.container and out[-1][2] == time(r.start):
            out[-1] = (r.container, out[-1][1], time(r.end))
        else:
            out.append((r.container, time(r.start), time(r.end)))
    return out


@pytest.fixture(scope="module")
def smpi_chain(tmp_path_factory):
    # Ranks on hosts of 1, 2, 0.5 and 1 Gflop/s; computations traced as states.
    return smpi_record(tmp_path_factory.mktemp("smpi"), "smpi_chain", RANKS, "--cfg=tracing/smpi/computing:yes")


def pj_dump_walk(trace):
    dump = subprocess.run(["pj_dump", trace], capture_output=True, text=True, check=True).stdout
    states, messages = collections.defaultdict(list), []
    for line in dump.splitlines():
        f = [x.strip() for x in line.split(",")]
        if f[0] == "State":
            states[f[1]].append((Fraction(f[3]), Fraction(f[4]), f[7]))
        elif f[0] == "Link":
            messages.append((f[7], f[8], Fraction(f[3]), Fraction(f[4])))
    return walk(states, messages)


def test_smpi_chain_path_is_the_chain(smpi_chain):
    expected = pj_dump_walk(smpi_chain)
    segments = command_csv("critical-path", smpi_chain)
    got = stretches(segments, lambda x: Fraction(x))
    assert [c for c, _, _ in got] == [c for c, _, _ in expected]
    for (_, a, b), (_, x, y) in zip(got, expected):  # pj_dump prints microseconds
        assert abs(a - x) < Fraction(1, 10**6) and abs(b - y) < Fraction(1, 10**6)
    # By construction: every rank's computation in rank order, then the
    # barrier's end on the rank that left it last.
    ranks = ["rank-%d" % r for r in range(RANKS)]
    assert [c for c, _, _ in got][:RANKS] == ranks
    computing = {r.container: int(r.length_ns) for r in segments.itertuples() if r.function == "computing"}
    # 10^8 flops on 1, 2, 0.5 and 1 Gflop/s hosts.
    assert computing == {"rank-0": 100000000, "rank-1": 50000000, "rank-2": 200000000, "rank-3": 100000000}
    by_container = command_csv("critical-path", "--by", "container", smpi_chain)
    assert by_container.name.iloc[0] == "rank-2"  # the slow host's rank holds the most of the path
    by_function = command_csv("critical-path", "--by", "function", smpi_chain)
    assert by_function.name.iloc[0] == "computing"
    total = sum(int(x) for x in segments.length_ns)
    assert abs(total - (expected[-1][2] - expected[0][1]) * 10**9) <= len(segments)
    assert sum(int(x) for x in by_function.length_ns) == sum(int(x) for x in by_container.length_ns)


def otf2_print_walk(path):
    out = subprocess.run(["otf2-print", path], capture_output=True, text=True, check=True).stdout
    stacks = collections.defaultdict(list)
    states = collections.defaultdict(list)
    sends = collections.defaultdict(collections.deque)  # (sender, receiver, tag) -> send times
    received = []
    event = re.compile(r"^(ENTER|LEAVE|MPI_SEND|MPI_RECV)\s+(\d+)\s+(\d+)\s+(.*)$")
    for line in out.splitlines():
        m = event.match(line)
        if not m:
            continue
        kind, location, time, rest = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        if kind == "ENTER":
            stacks[location].append((time, re.search(r'Region: "([^"]*)"', rest).group(1)))
        elif kind == "LEAVE":
            start, name = stacks[location].pop()
            if name.startswith("MPI_"):  # the MPI calls: innermost in this trace
                states[location].append((start, time, name))
        else:
            peer = int(re.search(r"(?:Receiver|Sender): (\d+)", rest).group(1))
            tag = int(re.search(r"Tag: (\d+)", rest).group(1))
            if kind == "MPI_SEND":
                sends[(location, peer, tag)].append(time)
            else:
                received.append((peer, location, tag, time))
    messages = [(s, r, sends[(s, r, tag)].popleft(), t) for s, r, tag, t in received]
    return walk(states, messages)


def test_otf2_ping_pong_alternates_at_each_message():
    trace = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    expected = otf2_print_walk(trace)
    segments = command_csv("critical-path", trace)
    got = stretches(segments, int)
    ranks = {"Linux/quartz10/MPI Rank %d/Master thread" % r: r for r in range(2)}
    assert [ranks[c] for c, _, _ in got] == [c for c, _, _ in expected]
    # The ranks swap at each receive that waited (Late Sender), not at each
    # message: most of the later sends were posted before their receives.
    assert len(got) >= 5
    assert all(a[0] != b[0] for a, b in zip(got, got[1:]))
    # Relative ticks against absolute: the clock's global offset is the start.
    clock = subprocess.run(["otf2-print", "-G", trace], capture_output=True, text=True, check=True).stdout
    rate, offset = map(int, re.search(r"Ticks per Seconds: (\d+), Global Offset: (\d+)", clock).groups())
    # (The walk sees the MPI calls only: the path's ends, main's, differ.)
    assert [b + offset for _, _, b in got[:-1]] == [b for _, _, b in expected[:-1]]
    assert [a + offset for _, a, _ in got[1:]] == [a for _, a, _ in expected[1:]]
    # Each segment's ticks rounded once to ns.
    for r in segments.itertuples():
        assert int(r.length_ns) == round(Fraction(int(r.end) - int(r.start), rate) * 10**9)

def test_bad_input():
    trace = source_file("tests", "store", "data", "gen.trace")
    run = subprocess.run([BINARY, "critical-path", "--by", "thread", trace], capture_output=True, text=True)
    assert run.returncode == 1 and "--by: 'function' or 'container', not 'thread'" in run.stderr
    # States but no message and no MPI collective.
    workers = source_file("tests", "query", "data", "workers.csv")
    run = subprocess.run([BINARY, "critical-path", workers], capture_output=True, text=True)
    assert run.returncode == 1 and workers + ": no messages" in run.stderr, run.stderr


def test_python_method_is_the_command():
    import macroscope

    trace = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    t = macroscope.open(trace)
    frame = t.critical_path()
    printed = command_csv("critical-path", trace)
    assert list(frame.columns) == list(printed.columns)
    assert [str(v) for v in frame["length_ns"]] == list(printed.length_ns)
    assert [str(v) for v in frame["start"]] == list(printed.start)
    by = t.critical_path("function")
    assert list(by["name"]) == list(command_csv("critical-path", "--by", "function", trace).name)


def test_thread_method_is_the_command():
    import macroscope

    trace = shared_file("ctf", "bug446190")
    t = macroscope.open(trace)
    frame = t.thread_critical_path(403)
    printed = command_csv("critical-path", "--thread", "403", trace)
    assert list(frame.columns) == list(printed.columns)
    for column in ["tid", "start", "end", "length_ns"]:
        assert [str(v) for v in frame[column]] == list(printed[column])
    assert list(frame["state"]) == list(printed.state)
    by = t.thread_critical_path(403, "state")
    assert list(by["name"]) == list(command_csv("critical-path", "--thread", "403", "--by", "state", trace).name)
    # end= as the query's ts: the rows up to it, the last one cut there.
    end = int(t.info()["start"]) + 3 * 10**9
    cut = t.thread_critical_path(403, end=end)
    assert list(cut.start) == list(frame.start[: len(cut)])
    assert int(cut.end.iloc[-1]) == 3 * 10**9
