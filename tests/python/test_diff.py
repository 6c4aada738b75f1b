"""`macroscope diff A B` against independent computations: two SimGrid SMPI
runs of the chain program (tests/python/data/smpi_chain.c), the second on a
platform where host beta (rank 1) is ten times slower
(data/ring_platform_slow_beta.xml); their per function and per container
differences computed here from pj_dump's states of both runs
(conftest.pj_dump_profile: exact sums, rounded once). The shared Score-P
trace diffed with itself; bad input."""

import collections
import fractions
import subprocess

import numpy
import pandas
import pytest

import macroscope
from conftest import BINARY, command, command_csv, pj_dump_profile, shared_file, smpi_record, source_file

RANKS = 4
OPTIONS = ("--cfg=tracing/smpi/computing:yes",)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The two runs' traces, recorded once for the module."""
    a = smpi_record(tmp_path_factory.mktemp("run-a"), "smpi_chain", RANKS, *OPTIONS)
    b = smpi_record(tmp_path_factory.mktemp("run-b"), "smpi_chain", RANKS, *OPTIONS,
                    platform=source_file("tests", "python", "data", "ring_platform_slow_beta.xml"))
    return a, b


def ns(seconds):
    return round(seconds * 10**9)


def pushes(trace):
    """{(container, function): calls}: the PajePushState lines of the trace
    file itself, names from its header's field lists. (pj_dump leaves out
    the state a container pushes and pops at the instant it is destroyed at
    the trace's end: the last rank's zero-length PMPI_Finalize.)"""
    definitions, fields, current = {}, {}, None
    names = {"0": "0"}
    calls = collections.Counter()
    with open(trace) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] == "%EventDef":
                current = words[2]
                definitions[current] = words[1]
                fields[current] = []
            elif words[0] == "%" and current is not None:
                fields[current].append(words[1])
            elif words[0] == "%EndEventDef":
                current = None
            elif words[0] in definitions:
                kind = definitions[words[0]]
                values = dict(zip(fields[words[0]], [w.strip('"') for w in line.split(None, len(fields[words[0]]))[1:]]))
                if kind in ("PajeDefineEntityValue", "PajeCreateContainer"):
                    names[values["Alias"]] = values["Name"].strip().strip('"')
                elif kind == "PajePushState":
                    calls[(names[values["Container"]], names[values["Value"].strip()])] += 1
    return calls


def summed(profile, key):
    """pj_dump's exact profile {(container, function): [calls, incl, excl]}
    summed by key(container, function), rounded to ns once."""
    out = collections.defaultdict(lambda: [0, fractions.Fraction(0), fractions.Fraction(0)])
    for (container, function), (calls, inclusive, exclusive) in profile.items():
        row = out[key(container, function)]
        row[0] += calls
        row[1] += inclusive
        row[2] += exclusive
    return {k: [calls, ns(inclusive), ns(exclusive)] for k, (calls, inclusive, exclusive) in out.items()}


def expected_profile(trace, key):
    """The profile summed by key(container, function): calls counted from
    the file's pushes, times from pj_dump's states."""
    profile = pj_dump_profile(trace, exact=True)
    for (container, function), count in pushes(trace).items():
        profile.setdefault((container, function), [0, fractions.Fraction(0), fractions.Fraction(0)])[0] = count
    return summed(profile, key)


def check_differences(table, key_column, expected_a, expected_b):
    assert set(table[key_column]) == set(expected_a) | set(expected_b)
    for row in table.itertuples():
        a = expected_a.get(getattr(row, key_column), [0, 0, 0])
        b = expected_b.get(getattr(row, key_column), [0, 0, 0])
        for i, measure in enumerate(("calls", "inclusive", "exclusive")):
            unit = "" if measure == "calls" else "_ns"
            got = [int(getattr(row, measure + part + unit)) for part in ("_a", "_b", "_diff")]
            assert got == [a[i], b[i], b[i] - a[i]], (getattr(row, key_column), measure)
            ratio = getattr(row, measure + "_ratio")
            if a[i] == 0:
                assert pandas.isna(ratio)
            else:
                assert float(ratio) == pytest.approx(b[i] / a[i], rel=1e-15)


def test_function_differences_are_pj_dumps(runs):
    a, b = runs
    table = command_csv("diff", a, b)
    key = lambda container, function: function
    expected_a, expected_b = expected_profile(a, key), expected_profile(b, key)
    check_differences(table, "function", expected_a, expected_b)
    # Sorted by the absolute inclusive difference, largest first.
    differences = [abs(int(d)) for d in table.inclusive_diff_ns]
    assert differences == sorted(differences, reverse=True)
    # The computation's difference is rank 1's alone, from the platforms'
    # speeds: 10^8 flops at 200 Mflop/s instead of 2 Gflop/s.
    computing = table[table.function == "computing"].iloc[0]
    assert int(computing.inclusive_diff_ns) == ns(fractions.Fraction(10**8, 2 * 10**8) - fractions.Fraction(10**8, 2 * 10**9))


def test_container_differences_are_pj_dumps(runs):
    a, b = runs
    table = command_csv("diff", a, b, "--by", "container")
    assert table.container_b.isna().all()  # the same paths in both runs
    # A container's calls and exclusive time: its functions summed; its
    # inclusive time: that of its outermost states (level 0).
    for run, side in ((a, "a"), (b, "b")):
        per_container = expected_profile(run, lambda container, function: container)
        outermost = collections.defaultdict(fractions.Fraction)
        dump = subprocess.run(["pj_dump", run], capture_output=True, text=True, check=True).stdout
        for line in dump.splitlines():
            f = [x.strip() for x in line.split(",")]
            if f[0] == "State" and int(float(f[6])) == 0:
                outermost[f[1]] += fractions.Fraction(f[4]) - fractions.Fraction(f[3])
        containers = {path.split("/")[-1]: path for path in table.container}
        assert set(containers) == set(per_container)
        for name, (calls, _, exclusive) in per_container.items():
            row = table[table.container == containers[name]].iloc[0]
            assert int(row["calls_" + side]) == calls
            assert int(row["exclusive_%s_ns" % side]) == exclusive
            assert int(row["inclusive_%s_ns" % side]) == ns(outermost[name])
    # The slowed rank's computation shows in its own container: rank 1's
    # exclusive difference includes the 450 ms it computes longer.
    rank1 = table[table.container.str.endswith("rank-1")].iloc[0]
    assert int(rank1.exclusive_diff_ns) >= 450000000


def test_profile_diff_is_the_commands_table(runs):
    """SQL's profile_diff() (Python's t.profile_diff()) is `diff --by BY`'s
    table, row for row, and per function pj_dump's profiles' difference."""
    a, b = runs
    trace = macroscope.open(a)
    for by in ("function", "container", "unmatched"):
        ours = trace.profile_diff(b, by=by)
        table = command_csv("diff", a, b, "--by", by)
        assert list(ours.columns) == list(table.columns), by
        assert len(ours) == len(table) and (by == "unmatched" or len(ours) > 1), by
        for column in table.columns:
            if column.endswith("_ratio"):
                assert numpy.allclose(ours[column].astype(float), table[column].astype(float), rtol=0, equal_nan=True), column
            else:
                assert list(ours[column].map(lambda v: "" if v is None or v != v else str(v))) == \
                    list(table[column].fillna("")), (by, column)
    key = lambda container, function: function
    check_differences(trace.profile_diff(b), "function", expected_profile(a, key), expected_profile(b, key))
    with pytest.raises(macroscope.Error, match="differential_overview"):
        trace.profile_diff(b, by="parts")


def test_stores_give_the_files_tables(runs, tmp_path):
    """The runs imported as stores (which diff reads as its tables reach
    their chunks, whatever their size) give the files' tables, every view."""
    stores = []
    for i, trace in enumerate(runs):
        store = str(tmp_path / ("run%d.mstore" % i))
        subprocess.run([BINARY, "import", "-q", "-o", store, trace], check=True)
        stores.append(store)
    for by in ("function", "container", "unmatched", "parts"):
        assert command("diff", *stores, "--by", by, "--format", "csv") == \
            command("diff", *runs, "--by", by, "--format", "csv"), by


def test_summary_names_the_matching(runs):
    a, b = runs
    dump = subprocess.run(["pj_dump", a], capture_output=True, text=True, check=True).stdout
    containers = sum(1 for line in dump.splitlines() if line.startswith("Container,")) - 1  # not the root
    first = command("diff", a, b).splitlines()[0]
    assert first.startswith("%d containers matched; none only in A; none only in B; aligned at the start, common span "
                            % containers), first


SCOREP = ("otf2", "ping-pong-otf2", "traces.otf2")


def test_a_trace_against_itself_differs_nowhere():
    trace = shared_file(*SCOREP)
    for by, key in (("function", "function"), ("container", "container")):
        table = command_csv("diff", trace, trace, "--by", by)
        assert len(table) > 0
        for column in table.columns:
            if column.endswith("_diff") or column.endswith("_diff_ns"):
                assert (table[column].astype(int) == 0).all(), (by, column)
            if column.endswith("_ratio"):
                assert ((table[column].astype(float) == 1.0) | table[column].isna()).all(), (by, column)
    unmatched = command_csv("diff", trace, trace, "--by", "unmatched")
    assert len(unmatched) == 0
    assert "; none only in A; none only in B; aligned at the start" in command("diff", trace, trace).splitlines()[0]


def test_kernel_threads_against_themselves():
    trace = shared_file("ctf", "perf-taskset2")
    table = command_csv("diff", trace, trace, "--by", "thread")
    threads = command_csv("kernel", "processes", trace)
    assert len(table) == len(threads)
    assert (table.tid_a == table.tid_b).all()
    for measure in ("running", "runnable", "waiting"):
        assert (table[measure + "_diff_ns"].astype(int) == 0).all()
        by_tid = dict(zip(threads.tid, threads[measure + "_ns"]))
        assert all(by_tid[t] == v for t, v in zip(table.tid_a, table[measure + "_a_ns"]))


def failure(*arguments):
    run = subprocess.run([BINARY, *arguments], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert run.stdout == ""
    return run.stderr


def test_a_kernel_trace_against_an_mpi_trace_is_refused():
    kernel_trace, otf2 = shared_file("ctf", "perf-taskset2"), shared_file(*SCOREP)
    err = failure("diff", kernel_trace, otf2)
    assert "is a kernel trace" in err and "is a user-space trace" in err, err
    assert kernel_trace in err and otf2 in err, err


def test_an_absent_alignment_event_names_its_trace(runs):
    a, b = runs
    err = failure("diff", a, b, "--align", "event:NOPE")
    assert "--align event:NOPE: " + a in err and "has no event or state named 'NOPE'" in err, err
    assert "event:" in failure("diff", a, b, "--align", "middle")
    assert "the thread view: " + a + " (paje) has no kernel threads" in failure("diff", a, b, "--by", "thread")
    assert "unmatched" in failure("diff", a, b, "--by", "rank")


def test_a_picture_is_svg_or_png(runs, tmp_path):
    a, b = runs
    assert ".svg or .png" in failure("diff", a, b, "-o", str(tmp_path / "d.txt"))
    assert not (tmp_path / "d.txt").exists()


def test_a_missing_file_is_named(tmp_path):
    missing = str(tmp_path / "nothing.otf2")
    err = failure("diff", missing, missing)
    assert missing in err, err
