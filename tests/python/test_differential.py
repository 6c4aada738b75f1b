"""The differential overview (docs/compare.md, "Differential overview") of two SimGrid runs
of one program (data/smpi_steady.c: rounds of computation and a barrier):
the second run's platform slows host gamma down for a while through a
speed profile (SimGrid's `speed_file`: "date ratio" lines). The part where
the runs differ most is that while, read here from the profile file; the
runs are simulated, so their times are the platform's exactly."""

import re

import numpy
import pytest

import macroscope
from conftest import command, command_csv, smpi_record, source_file

RANKS = 3  # alpha, beta, gamma
SLICES = 40  # 0.1 s each over the undisturbed run's 4 s
# The slowed while: from this date, gamma computes at 1/4 of its speed,
# back to full speed at the next.
PROFILE = "1.5 0.25\n2.5 1\n"


def slowed_while(profile):
    """[start, end] of the profile's ratio below 1 (its dates, in s)."""
    dates = [line.split() for line in profile.splitlines() if line.strip()]
    start = next(float(d) for d, r in dates if float(r) < 1)
    end = next(float(d) for d, r in dates if float(d) > start and float(r) == 1)
    return start, end


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(undisturbed trace, slowed trace)."""
    quiet = smpi_record(tmp_path_factory.mktemp("steady"), "smpi_steady", RANKS, "--cfg=tracing/smpi/computing:yes")
    work = tmp_path_factory.mktemp("steady-slowed")
    (work / "slow.profile").write_text(PROFILE)
    with open(source_file("tests", "paje", "simgrid", "ring_platform.xml")) as f:
        platform = f.read()
    slowed_host = '<host id="gamma" speed="500Mf" speed_file="slow.profile"/>'
    platform = platform.replace('<host id="gamma" speed="500Mf"/>', slowed_host)
    assert slowed_host in platform
    (work / "slowed.xml").write_text(platform)
    slowed = smpi_record(work, "smpi_steady", RANKS, "--cfg=tracing/smpi/computing:yes",
                         platform=str(work / "slowed.xml"))
    return quiet, slowed


def test_the_part_that_differs_most_is_the_slowed_while(runs):
    quiet, slowed = runs
    start, end = slowed_while(PROFILE)
    parts = macroscope.open(quiet).differential_overview(slowed, slices=SLICES)
    first = parts[parts["rank"] == 1]
    assert len(first) >= 1, parts
    width = 4.0 / SLICES  # about a slice
    found = (first["start"].iloc[0], first["end"].iloc[0])
    assert abs(found[0] - start) <= 2 * width, (found, parts)
    assert abs(found[1] - end) <= 2 * width, (found, parts)
    # There the other ranks wait for gamma in the barrier: the barrier's
    # share grew, the computation's shrank.
    change = dict(zip(first["type"], first["share_change"]))
    barrier = [c for t, c in change.items() if "barrier" in t.lower()]
    computing = [c for t, c in change.items() if "comput" in t.lower()]
    assert barrier and barrier[0] > 0, parts
    assert computing and computing[0] < 0, parts


def test_the_command_gives_the_same_parts_and_draws_them(runs, tmp_path):
    """`diff A B --by parts` is differential_overview()'s table (both at
    their defaults: aligned at the starts over the shorter span, 100
    slices, the overview's p); `-o` draws it."""
    quiet, slowed = runs
    picture = tmp_path / "parts.svg"
    for align in ("start", "end"):
        table = command_csv("diff", quiet, slowed, "--by", "parts", "--align", align, "-o", str(picture))
        parts = macroscope.open(quiet).differential_overview(slowed, align=align)
        assert list(table.columns) == list(parts.columns)
        assert len(table) == len(parts) > 0
        for column in parts.columns:
            if parts[column].dtype.kind in "fi":
                assert numpy.allclose(table[column].astype(float), parts[column].astype(float), rtol=1e-12), column
            else:
                assert list(table[column].fillna("")) == list(parts[column].fillna("")), column
        # The parts tile the span both runs cover, from its start.
        intervals = sorted(set(zip(parts.start, parts.end)))
        assert intervals[0][0] == 0 and all(x[1] == y[0] for x, y in zip(intervals, intervals[1:])), intervals
    text = picture.read_text()
    assert text.startswith("<?xml") and "vs" in text


def test_the_summary_states_the_partition(runs):
    """`diff --by parts`' first line says at which p its partition is, of
    how many parts, and what it keeps and loses: the table has those parts
    and those figures, and the overview asked at that p gives them again."""
    quiet, slowed = runs
    first = command("diff", quiet, slowed, "--by", "parts").splitlines()[0]
    match = re.search(r"differential overview at p = ([0-9.e-]+): (\d+) parts?, ([0-9.e-]+) of the full "
                      r"aggregate's gain, ([0-9.e-]+) of its loss$", first)
    assert match, first
    p, count = float(match.group(1)), int(match.group(2))
    assert 0 < float(match.group(3)) <= 1 and 0 <= float(match.group(4)) <= 1, first
    parts = macroscope.open(quiet).differential_overview(slowed)
    assert len(set(parts.part)) == count
    # Every row of the table states the same: p, gain and loss.
    for column, stated in (("p", p), ("gain", float(match.group(3))), ("loss", float(match.group(4)))):
        assert len(set(parts[column])) == 1 and float(parts[column].iloc[0]) == pytest.approx(stated, rel=1e-3), column
    assert len(set(macroscope.open(quiet).differential_overview(slowed, p=p).part)) == count


def test_a_run_against_itself_differs_nowhere(runs):
    quiet, _ = runs
    parts = macroscope.open(quiet).differential_overview(quiet, slices=SLICES)
    assert (parts["difference_rate"] == 0).all(), parts
    assert (parts["share_change"] == 0).all(), parts


def test_bad_input_is_named(runs):
    quiet, _ = runs
    trace = macroscope.open(quiet)
    with pytest.raises(macroscope.Error, match="other"):
        trace.query("SELECT * FROM differential_overview(NULL)")
    with pytest.raises(macroscope.Error, match="p: in"):
        trace.differential_overview(quiet, p=2)
    with pytest.raises(macroscope.Error, match="no-such-file"):
        trace.differential_overview("no-such-file.trace")
