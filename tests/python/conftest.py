"""Shared fixtures: the built command, the source tree's traces, the shared
test data (skipped without it), and the command's CSV as a DataFrame. The
command's default catalog lives in a scratch folder of the session's own:
no test reads or writes the user's catalog."""

import io
import os
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
