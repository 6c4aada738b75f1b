"""`waits` against independent computations of Scalasca's patterns made here:
on the shared OTF2 ping-pong from the ENTER/LEAVE and MPI_SEND/MPI_RECV
records `otf2-print` prints (ticks summed in integers, rounded once to ns),
and on a trace SimGrid's SMPI records here (data/smpi_waits.c, whose waits
are known by construction) from pj_dump's states and links (decimals summed
exactly). The definitions (docs/waits.md): Late Sender, a blocking receive
entered before the send call of its message (until that send's start);
Late Receiver, a blocking send entered before its message's receive call
and left after that started; Wait at N x N / Barrier, the k-th call of a
collective on each rank, waiting until the last one's entry."""

import collections
import fractions
import re
import subprocess

import pytest

from conftest import BINARY, command_csv, shared_file, smpi_record
from test_profile import ENTER_LEAVE, GROUP, RATE, ns, rank_and_thread

RECEIVES = {"RECV", "MRECV", "SENDRECV", "SENDRECV_REPLACE", "WAIT", "WAITALL", "WAITANY", "WAITSOME", "PROBE",
            "MPROBE"}
SENDS = {"SEND", "SSEND", "RSEND"}
NXN = {"ALLREDUCE", "ALLTOALL", "ALLTOALLV", "ALLTOALLW", "ALLGATHER", "ALLGATHERV", "REDUCE_SCATTER",
       "REDUCE_SCATTER_BLOCK"}


def mpi_name(function):
    """The function's name after MPI_ (or SMPI's PMPI_), in capitals; None if not MPI."""
    m = re.match(r"^P?MPI_(.+)$", function, re.IGNORECASE)
    return m.group(1).upper() if m else None


def waits(calls, messages, window=None):
    """Each wait of `calls` ({container: [(start, end, path, function)]},
    outermost MPI calls) and `messages` ([(sender, receiver, send time,
    receive time)]): [(pattern, container, call, start, end, peer)], with a
    window (a, b) its part inside it; the peer is the container waited for
    (the sender of the latest send, the receiver, the last entrant)."""
    out = []

    def wait(pattern, container, call, until, peer):
        start, end, path, _ = call
        a, b = start, min(until, end)
        if window:
            a, b = max(a, window[0]), min(b, window[1])
        if until > start and b > a:
            out.append((pattern, container, call, a, b, peer))

    def holding(container, t):
        found = [c for c in calls.get(container, []) if c[0] <= t <= c[1]]
        return found[-1] if found else None

    receives, sends = {}, {}
    for sender, receiver, sent, received in messages:
        s, r = holding(sender, sent), holding(receiver, received)
        if s is None or r is None:
            continue
        if mpi_name(r[3]) in RECEIVES and ((receiver, r) not in receives or s[0] > receives[(receiver, r)][0]):
            receives[(receiver, r)] = (s[0], sender)
        if mpi_name(s[3]) in SENDS and ((sender, s) not in sends or r[0] > sends[(sender, s)][0]):
            sends[(sender, s)] = (r[0], receiver)
    for (receiver, r), (until, sender) in receives.items():
        wait("Late Sender", receiver, r, until, sender)
    for (sender, s), (until, receiver) in sends.items():
        wait("Late Receiver", sender, s, until, receiver)
    instances = collections.defaultdict(list)
    for container, cs in calls.items():
        seen = collections.Counter()
        for c in cs:
            name = mpi_name(c[3])
            if name in NXN or name == "BARRIER":
                instances[(name, seen[name])].append((container, c))
                seen[name] += 1
    for (name, _), members in instances.items():
        last, entrant = max((c[0], container) for container, c in members)
        for container, c in members:
            wait("Wait at Barrier" if name == "BARRIER" else "Wait at N x N", container, c, last, entrant)
    return out


def patterns(calls, messages, window=None):
    """{(pattern, container, call path): [instances, time]} of the waits."""
    rows = collections.defaultdict(lambda: [0, 0])
    for pattern, container, call, a, b, _ in waits(calls, messages, window):
        row = rows[(pattern, container, call[2])]
        row[0] += 1
        row[1] += b - a
    return rows


def otf2_calls_and_messages(anchor):
    definitions = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True, check=True).stdout
    rate = int(RATE.search(definitions).group(1))
    events = subprocess.run(["otf2-print", anchor], capture_output=True, text=True, check=True).stdout
    calls = collections.defaultdict(list)
    stacks = collections.defaultdict(list)  # location -> [[region, enter time]]
    sent = collections.defaultdict(collections.deque)  # (sender, receiver, tag) -> send times
    messages = []
    send = re.compile(r"^MPI_SEND\s+(\d+)\s+(\d+)\s+Receiver: (\d+) .*Tag: (\d+)")
    receive = re.compile(r"^MPI_RECV\s+(\d+)\s+(\d+)\s+Sender: (\d+) .*Tag: (\d+)")
    for line in events.splitlines():
        m = ENTER_LEAVE.match(line)
        if m:
            kind, location, time, region = m.group(1), m.group(2), int(m.group(3)), m.group(4)
            stack = stacks[location]
            if kind == "ENTER":
                stack.append([region, time])
                continue
            name, start = stack.pop()
            assert name == region
            if mpi_name(region) and not any(mpi_name(f[0]) for f in stack):
                path = ";".join([f[0] for f in stack] + [region])
                calls[location].append((start, time, path, region))
            continue
        m = send.match(line)
        if m:
            sent[(m.group(1), m.group(3), m.group(4))].append(int(m.group(2)))
            continue
        m = receive.match(line)
        if m:
            messages.append((m.group(3), m.group(1), sent[(m.group(3), m.group(1), m.group(4))].popleft(),
                             int(m.group(2))))
    for cs in calls.values():
        cs.sort()
    names = {}
    for line in definitions.splitlines():
        m = GROUP.match(line)
        if m:
            names[m.group(1)] = m.group(3) + "/" + m.group(2)
    return calls, messages, rate, names


def test_ping_pong_patterns_are_otf2_prints():
    anchor = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    calls, messages, rate, names = otf2_calls_and_messages(anchor)
    assert len(messages) == 16
    expected = {(p, names[c], path): [n, ns(t, rate)] for (p, c, path), (n, t) in patterns(calls, messages).items()}
    got = {(r.pattern, rank_and_thread(r.container), r.call_path): [int(r.instances), int(r.time_ns)]
           for r in command_csv("waits", anchor).itertuples()}
    assert got == expected
    assert any(p == "Late Sender" for p, _, _ in got)  # the ping-pong's replies wait


def test_ping_pong_instances_are_otf2_prints():
    """wait_instances() (waits --instances): each wait of otf2-print's calls,
    its ticks from the trace's start (the clock's global offset), the
    container it waited for, its length rounded once to ns."""
    anchor = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    calls, messages, rate, names = otf2_calls_and_messages(anchor)
    clock = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True, check=True).stdout
    offset = int(re.search(r"Global Offset: (\d+)", clock).group(1))
    expected = sorted((a - offset, names[c], pattern, names[peer], b - offset, ns(b - a, rate))
                      for pattern, c, _, a, b, peer in waits(calls, messages))
    printed = command_csv("waits", "--instances", anchor)
    assert list(printed.columns) == ["container", "start", "end", "pattern", "peer", "wait_ns"]
    got = [(int(r.start), rank_and_thread(r.container), r.pattern, rank_and_thread(r.peer), int(r.end), int(r.wait_ns))
           for r in printed.itertuples()]
    assert got == sorted(got, key=lambda g: g[0])  # in time order
    assert sorted(got) == expected
    assert {g[2] for g in got} >= {"Late Sender"}


def test_ping_pong_idle_is_otf2_prints():
    anchor = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    calls, _, rate, names = otf2_calls_and_messages(anchor)
    idle = {rank_and_thread(r.container): r for r in command_csv("waits", "--idle", anchor).itertuples()}
    for location, cs in calls.items():
        row = idle[names[location]]
        assert int(row.mpi_ns) == ns(sum(e - s for s, e, _, _ in cs), rate)
        waiting = [(s, e) for s, e, _, f in cs
                   if mpi_name(f) in RECEIVES | NXN | {"BARRIER", "BCAST", "REDUCE", "GATHER", "GATHERV", "SCATTER",
                                                       "SCATTERV", "SCAN", "EXSCAN"}]
        assert int(row.mpi_wait_ns) == ns(sum(e - s for s, e in waiting), rate)
        assert int(row.in_states_ns) <= int(row.span_ns)
        assert abs(int(row.idle_ns) - (int(row.span_ns) - int(row.in_states_ns))) <= 1


@pytest.fixture(scope="module")
def smpi_trace(tmp_path_factory):
    return smpi_record(tmp_path_factory.mktemp("smpi-waits"), "smpi_waits", 4)


def pj_dump_calls_and_messages(path):
    dump = subprocess.run(["pj_dump", path], capture_output=True, text=True, check=True).stdout
    calls, messages = collections.defaultdict(list), []
    for line in dump.splitlines():
        f = [x.strip() for x in line.split(",")]
        if f[0] == "State" and mpi_name(f[7]):  # SMPI's states are its MPI calls, one level
            calls[f[1]].append((fractions.Fraction(f[3]), fractions.Fraction(f[4]), f[7], f[7]))
        elif f[0] == "Link":
            messages.append((f[7], f[8], fractions.Fraction(f[3]), fractions.Fraction(f[4])))
    for cs in calls.values():
        cs.sort()
    return calls, messages


def test_smpi_patterns_are_pj_dumps_and_the_programs(smpi_trace):
    calls, messages = pj_dump_calls_and_messages(smpi_trace)
    expected = {key: [n, round(t * 10**9)] for key, (n, t) in patterns(calls, messages).items()}
    got = {(r.pattern, r.container, r.call_path): [int(r.instances), int(r.time_ns)]
           for r in command_csv("waits", smpi_trace).itertuples()}
    assert got == expected
    # The program's construction: rank 0 waits for rank 1's 10^8 flops at
    # 2 Gflop/s (50 ms); rank 0, delayed by it, is the last at the barrier
    # and (4 * 10^7 flops at 1 Gflop/s after it) at the allreduce.
    late = {(c, f): row for (p, c, f), row in got.items() if p == "Late Sender"}
    assert list(late) == [("rank-0", "PMPI_Recv")]
    assert late[("rank-0", "PMPI_Recv")][1] == pytest.approx(50_000_000, abs=1000)
    for pattern, function in [("Wait at Barrier", "PMPI_Barrier"), ("Wait at N x N", "PMPI_Allreduce")]:
        assert {c for (p, c, f) in got if p == pattern and f == function} == {"rank-1", "rank-2", "rank-3"}
    # rank 3 (4 * 10^7 flops at 1 Gflop/s) reaches the barrier 40 ms in,
    # rank 0 at 50 ms + its receive's end + 10 ms
    assert got[("Wait at Barrier", "rank-3", "PMPI_Barrier")][1] == pytest.approx(20_000_000, abs=200_000)


def test_smpi_window_clips_the_waits(smpi_trace):
    calls, messages = pj_dump_calls_and_messages(smpi_trace)
    window = (fractions.Fraction("0.05"), fractions.Fraction("0.07"))
    expected = {key: [n, round(t * 10**9)] for key, (n, t) in patterns(calls, messages, window).items()}
    got = {(r.pattern, r.container, r.call_path): [int(r.instances), int(r.time_ns)]
           for r in command_csv("waits", "--window", "+0.05,+0.07", smpi_trace).itertuples()}
    assert got == expected and {p for p, _, _ in got} == {"Wait at Barrier"}  # the barrier only
    only = command_csv("waits", smpi_trace, "--containers", "rank-3")
    assert set(only.container) == {"rank-3"} and len(only) == 2


def test_smpi_idle_time_is_pj_dumps(smpi_trace):
    calls, _ = pj_dump_calls_and_messages(smpi_trace)
    idle = {r.container: r for r in command_csv("waits", "--idle", smpi_trace).itertuples()}
    for container, cs in calls.items():
        row = idle[container]
        assert int(row.in_states_ns) == int(row.mpi_ns) == round(sum(e - s for s, e, _, _ in cs) * 10**9)
        waiting = sum(e - s for s, e, _, f in cs if mpi_name(f) in RECEIVES | NXN | {"BARRIER"})
        assert int(row.mpi_wait_ns) == round(waiting * 10**9)
        assert int(row.idle_ns) == int(row.span_ns) - int(row.in_states_ns)


def test_a_trace_without_mpi_calls_is_a_user_error_but_has_idle_time():
    trace = shared_file("chrome", "x_event_trace.json")  # Chrome's slices: states, none an MPI call
    for option in [[], ["--instances"]]:
        run = subprocess.run([BINARY, "waits", *option, trace], capture_output=True, text=True)
        assert run.returncode == 1 and run.stdout == ""
        assert "no MPI call" in run.stderr and trace in run.stderr and "Segmentation" not in run.stderr
    both = subprocess.run([BINARY, "waits", "--idle", "--instances", trace], capture_output=True, text=True)
    assert both.returncode == 1 and "--idle excludes --instances" in both.stderr
    idle = command_csv("waits", "--idle", trace)
    assert len(idle) > 0 and (idle.mpi_ns.astype(int) == 0).all()
    bad = subprocess.run([BINARY, "waits", "--window", "5,1", trace], capture_output=True, text=True)
    assert bad.returncode == 1 and "--window" in bad.stderr


def test_python_methods_are_the_command():
    import macroscope

    anchor = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    t = macroscope.open(anchor)
    for frame, printed in [(t.wait_states(), command_csv("waits", anchor)),
                           (t.wait_instances(), command_csv("waits", "--instances", anchor)),
                           (t.idle_time(), command_csv("waits", "--idle", anchor))]:
        assert list(frame.columns) == list(printed.columns)
        assert [[str(v) for v in row] for row in frame.itertuples(index=False)] == \
            [list(row) for row in printed.itertuples(index=False)]
