"""Shared fixtures: the built command, the source tree's traces, the shared
test data (skipped without it), and the command's CSV as a DataFrame. The
command's default catalog lives in a scratch folder of the session's own:
no test reads or writes the user's catalog."""

import collections
import fractions
import io
import os
import shutil
import subprocess

import pandas
import pytest

SOURCE = os.environ.get("MACROSCOPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("MACROSCOPE_BINARY", "macroscope")
SHARED = os.path.join(SOURCE, "..", "shared", "testdata")


@pytest.fixture(autouse=True, scope="session")
def own_catalog(tmp_path_factory):
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))


def source_file(*parts):
    return os.path.join(SOURCE, *parts)


def shared_file(*parts):
    path = os.path.join(SHARED, *parts)
    if not os.path.exists(path):
        pytest.skip("no shared test data at %s (real traces of other tools; CI checks it out beside the clone)"
                    % SHARED)
    return path


def command(*arguments):
    """The command's standard output; fails the test on a non-zero exit."""
    run = subprocess.run([BINARY, *arguments], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


def command_csv(*arguments, format_option=True):
    """The command's CSV (--format csv, unless it asks for it otherwise) as a
    DataFrame, texts kept as texts."""
    more = ["--format", "csv"] if format_option else []
    return pandas.read_csv(io.StringIO(command(*arguments, *more)), keep_default_na=False, na_values=[""], dtype=str)


def pj_dump_profile(path, start=None, end=None):
    """`profile`'s rows computed from pj_dump's states of a Pajé trace (their
    nesting level), clipped to [start, end] (Fractions of seconds):
    {(container, function): [calls, inclusive ns, exclusive ns]}, times summed
    exactly as the decimals pj_dump prints, rounded once. Inclusive time
    counts a recursion once; exclusive is inclusive less the calls one level
    down."""
    dump = subprocess.run(["pj_dump", path], capture_output=True, text=True, check=True).stdout
    states = []
    for line in dump.splitlines():
        f = [x.strip() for x in line.split(",")]
        if f[0] == "State":
            states.append((f[1], fractions.Fraction(f[3]), fractions.Fraction(f[4]), int(float(f[6])), f[7]))
    states.sort(key=lambda s: (s[0], s[1], s[3]))
    rows = collections.defaultdict(lambda: [0, 0, 0])
    stacks = collections.defaultdict(list)
    for container, a, b, level, function in states:
        stack = stacks[container]
        del stack[level:]
        if (start is not None and b < start) or (end is not None and a > end):
            continue
        length = max(0, min(b, end if end is not None else b) - max(a, start if start is not None else a))
        row = rows[(container, function)]
        row[0] += 1
        if all(frame != function for frame in stack):
            row[1] += length
        row[2] += length
        if stack:
            rows[(container, stack[-1])][2] -= length
        stack.append(function)
    return {key: [calls, round(inclusive * 10**9), round(exclusive * 10**9)]
            for key, (calls, inclusive, exclusive) in rows.items()}


def smpi_record(work, program, ranks, *options, platform=None):
    """The Pajé trace SimGrid's SMPI records of data/PROGRAM.c, compiled with
    smpicc and run by smpirun in folder `work` on the SimGrid tests'
    platform (or the file `platform`, with the same hosts), ranks on alpha,
    beta, gamma, alpha… (1, 2 and 0.5 Gflop/s), with smpirun's `options`;
    skipped without SimGrid."""
    if shutil.which("smpicc") is None or shutil.which("smpirun") is None:
        pytest.skip("no smpicc/smpirun (Debian's libsimgrid-dev)")
    binary = str(work / program)
    subprocess.run(["smpicc", "-O1", source_file("tests", "python", "data", program + ".c"), "-o", binary],
                   check=True, capture_output=True)
    hosts = work / "hosts"
    hosts.write_text("".join(["alpha", "beta", "gamma"][r % 3] + "\n" for r in range(ranks)))
    trace = str(work / (program + ".trace"))
    subprocess.run(["smpirun", "-np", str(ranks), "-platform",
                    platform or source_file("tests", "paje", "simgrid", "ring_platform.xml"), "-hostfile", str(hosts),
                    "-trace", *options, "-trace-file", trace, binary],
                   check=True, capture_output=True, cwd=str(work))
    return trace
