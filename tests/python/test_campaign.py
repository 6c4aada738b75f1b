"""`macroscope campaign RUNS…` against independent computations: eight
SimGrid SMPI runs of the chain program (tests/python/data/smpi_chain.c),
seven on the SimGrid tests' platform and one on a platform where host beta
(rank 1) is ten times slower (data/ring_platform_slow_beta.xml). From
pj_dump's states of the eight runs, computed here: the per-function
quartiles (numpy's default linear interpolation, which the box plots draw),
each run's distance on profiles and on models, and the seed's band
(mean ± 3σ/√n): the slowed run is flagged, and only it. Catalog groups;
bad input."""

import collections
import fractions
import json
import os
import subprocess

import numpy
import pytest

from conftest import BINARY, command, command_csv, pj_dump_profile, shared_file, smpi_record, source_file

RANKS = 4
OPTIONS = ("--cfg=tracing/smpi/computing:yes",)
NORMAL = 7
SLICES = 100


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Eight traces, recorded once for the module: the slowed one fifth, so
    that it is neither first (the matching's reference) nor last."""
    traces = []
    for i in range(NORMAL + 1):
        platform = source_file("tests", "python", "data", "ring_platform_slow_beta.xml") if i == 4 else None
        traces.append(smpi_record(tmp_path_factory.mktemp("run-%d" % i), "smpi_chain", RANKS, *OPTIONS,
                                  platform=platform))
    return traces


def states(trace):
    """pj_dump's states: (container, value, start, end), Fractions of seconds;
    and the trace's span (the root container's end)."""
    dump = subprocess.run(["pj_dump", trace], capture_output=True, text=True, check=True).stdout
    out, end = [], None
    for line in dump.splitlines():
        f = [x.strip() for x in line.split(",")]
        if f[0] == "State":
            out.append((f[1], f[7], fractions.Fraction(f[3]), fractions.Fraction(f[4])))
        elif f[0] == "Container" and f[1] == "0" and f[2] == "0":
            end = fractions.Fraction(f[4])
    return out, end


def per_function(trace, measure):
    """{function: ns} of `measure` (1: inclusive, 2: exclusive) summed over
    the containers, exact, rounded once."""
    sums = collections.defaultdict(fractions.Fraction)
    for (container, function), row in pj_dump_profile(trace, exact=True).items():
        sums[function] += row[measure]
    return {function: round(t * 10**9) for function, t in sums.items()}


def normalised_l1(vectors):
    """Each vector's Σ|x - m| / Σ m, m the coordinates' medians."""
    matrix = numpy.array(vectors, dtype=float)
    median = numpy.median(matrix, axis=0)
    return [float(numpy.abs(row - median).sum() / median.sum()) for row in matrix]


def model_vector(trace, keys):
    """The state time (ns) of each (container, value) in each of SLICES equal
    slices of [0, the trace's end], over `keys` (added as met)."""
    cells = collections.defaultdict(lambda: [0.0] * SLICES)
    found, end = states(trace)
    width = end / SLICES
    for container, value, a, b in found:
        series = cells[(container, value)]
        for s in range(int(a / width), min(SLICES, int(b / width) + 1)):
            lo, hi = max(a, s * width), min(b, (s + 1) * width)
            if hi > lo:
                series[s] += float((hi - lo) * 10**9)
    for key in cells:
        keys.setdefault(key, len(keys))
    return cells


def band(values):
    n = len(values)
    mean = sum(values) / n
    sigma = (sum((v - mean) ** 2 for v in values) / n) ** 0.5
    return mean - 3 * sigma / n ** 0.5, mean + 3 * sigma / n ** 0.5


def test_quartiles_are_pj_dumps(runs):
    table = command_csv("campaign", *runs)
    inclusive = [per_function(trace, 1) for trace in runs]
    functions = set().union(*inclusive)
    assert set(table.function) == functions
    for row in table.itertuples():
        values = [run.get(row.function, 0) for run in inclusive]
        assert int(row.runs) == sum(1 for run in inclusive if row.function in run)
        assert int(row.min_ns) == min(values) and int(row.max_ns) == max(values)
        for column, q in (("q1_ns", 25), ("median_ns", 50), ("q3_ns", 75)):
            assert float(getattr(row, column)) == pytest.approx(numpy.percentile(values, q), abs=1e-6), row.function
        assert float(row.mean_ns) == pytest.approx(numpy.mean(values), rel=1e-12)
    medians = [float(m) for m in table.median_ns]
    assert medians == sorted(medians, reverse=True)


def test_distances_and_the_flagged_run(runs):
    table = command_csv("campaign", *runs, "--by", "run")
    assert [int(r) for r in table.run] == list(range(1, len(runs) + 1))
    exclusive = [per_function(trace, 2) for trace in runs]
    functions = sorted(set().union(*exclusive))
    profile = normalised_l1([[run.get(f, 0) for f in functions] for run in exclusive])
    keys = {}
    cells = [model_vector(trace, keys) for trace in runs]
    model = normalised_l1([sum((c.get(k, [0.0] * SLICES) for k in keys), []) for c in cells])
    for i, row in enumerate(table.itertuples()):
        assert int(row.exclusive_ns) == sum(exclusive[i].values())
        assert float(row.profile_distance) == pytest.approx(profile[i], abs=1e-12)
        assert float(row.model_distance) == pytest.approx(model[i], rel=1e-6, abs=1e-12)
    # The seed's rule, above the band: the slowed run only, on both.
    for distances, name in ((profile, "profile"), (model, "model")):
        upper = band(distances)[1]
        assert [i for i, d in enumerate(distances) if d > upper] == [4], name
    assert list(table.flagged.fillna("")) == ["", "", "", "", "profile model", "", "", ""]


def test_stores_give_the_files_tables(runs, tmp_path):
    """The runs imported as stores (read as the tables reach their chunks,
    whatever their size) give the files' tables, their names aside."""
    stores = []
    for i, trace in enumerate(runs):
        stores.append(str(tmp_path / ("run%d.mstore" % i)))
        subprocess.run([BINARY, "import", "-q", "-o", stores[-1], trace], check=True)
    for by in ("function", "run"):
        ours, files = command_csv("campaign", *stores, "--by", by), command_csv("campaign", *runs, "--by", by)
        if by == "run":
            assert list(ours.trace) == [store + " (store)" for store in stores]
            ours, files = ours.drop(columns="trace"), files.drop(columns="trace")
        assert ours.equals(files), by


def test_text_shows_the_flagged_runs_diff(runs):
    out = command("campaign", *runs, "--diff-rows", "3")
    assert "flagged: 5 (%s (paje))" % runs[4] in out
    # Its diff against the median run (the lower middle of the distances:
    # the seven identical runs' 0, then the slowed run's; by number, run 4),
    # the largest inclusive difference first, from pj_dump's states.
    diff = out[out.index("against the median run 4 (%s (paje))" % runs[3]):].splitlines()
    assert len(diff) == 1 + 1 + 3, diff
    median, flagged = per_function(runs[3], 1), per_function(runs[4], 1)
    rows = [(f, median[f], flagged[f], flagged[f] - median[f]) for f in median]
    rows.sort(key=lambda r: (-abs(r[3]), r[0]))
    for line, expected in zip(diff[2:], rows):
        words = line.split()
        assert (words[0], int(words[5]), int(words[6]), int(words[7])) == expected, line
    assert rows[0][0] == "PMPI_Recv"  # ranks 2 and 3 wait 450 ms longer each for the slowed rank 1


def test_folder_group_and_box_plots(runs, tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    for i, trace in enumerate(runs):
        os.symlink(trace, folder / ("run-%d.trace" % i))
    (folder / "notes.txt").write_text("not a trace\n")
    by_folder = command_csv("campaign", str(folder), "--by", "run")
    assert [os.path.basename(t.split(" (")[0]) for t in by_folder.trace] == ["run-%d.trace" % i for i in range(8)]
    assert list(by_folder.flagged.fillna("")) == ["", "", "", "", "profile model", "", "", ""]

    catalog = str(tmp_path / "catalog.sqlite")
    command("catalog", "group", "add", "chain", *runs[:4], "--catalog", catalog)
    command("catalog", "group", "add", "chain", *runs[3:], "--catalog", catalog)  # runs[3] is kept once
    assert command("catalog", "group", "show", "chain", "--catalog", catalog).split() == runs
    assert json.loads(command("catalog", "group", "list", "--json", "--catalog", catalog)) == [
        {"name": "chain", "traces": 8}]
    by_group = command_csv("campaign", "--group", "chain", "--catalog", catalog, "--by", "run")
    assert list(by_group.profile_distance) == list(by_folder.profile_distance)

    picture = tmp_path / "boxes.svg"
    command("campaign", *runs, "-o", str(picture))
    svg = picture.read_text()
    assert "PMPI_Recv" in svg and "computing" in svg


def refused(*arguments):
    run = subprocess.run([BINARY, *arguments], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert run.stderr.count("\n") == 1, run.stderr
    return run.stderr


def test_bad_input(runs, tmp_path):
    assert "at least 3 runs (2 given)" in refused("campaign", *runs[:2])
    # Three runs, the slowed one among them: measured, but the seed's band
    # cannot flag one of three (√2 σ from the mean at most, 3σ/√3 needed).
    three = [runs[0], runs[1], runs[4]]
    assert "no run flagged (with 3 runs none can lie above the band: it takes 4)" in command("campaign", *three)
    profile = list(command_csv("campaign", *three, "--by", "run").profile_distance.astype(float))
    assert profile[2] > 0 and profile[2] < band(profile)[1]
    catalog = str(tmp_path / "catalog.sqlite")
    assert "no group 'nope'" in refused("campaign", "--group", "nope", "--catalog", catalog)
    assert "no group 'nope'" in refused("catalog", "group", "show", "nope", "--catalog", catalog)
    assert "no such file" in refused("catalog", "group", "add", "g", str(tmp_path / "absent"), "--catalog", catalog)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no trace in this folder" in refused("campaign", str(empty))
    assert "not a view" in refused("campaign", *runs[:3], "--by", "thread")


def test_runs_of_different_kinds_are_refused(runs):
    kernel = shared_file("ctf", "perf-taskset2")
    err = refused("campaign", *runs[:3], kernel)
    assert "is a kernel trace" in err and "different kinds" in err and kernel in err, err
