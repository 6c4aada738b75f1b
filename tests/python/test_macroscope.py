"""`import macroscope`: DataFrames of NumPy columns, the same rows as the
command's CSV, exact times, the analyses, errors."""

import numpy
import pandas
import pytest

import macroscope
from conftest import command_csv, shared_file, source_file


def as_text(frame):
    """A DataFrame's cells as the CSV writer writes them (ints plainly,
    reals in their shortest form, NULL and empty texts empty), for
    comparing with the CSV."""
    def cell(value):
        # CSV writes an empty text as it writes NULL.
        if value is None or value is pandas.NA or (isinstance(value, float) and numpy.isnan(value)) or value == "":
            return numpy.nan
        if isinstance(value, (float, numpy.floating)):
            return repr(float(value)).removesuffix(".0") if float(value).is_integer() else repr(float(value))
        return str(value)
    return frame.astype(object).apply(lambda column: column.map(cell)).astype(object)


def expect_same_as_csv(frame, csv):
    assert list(frame.columns) == list(csv.columns)
    pandas.testing.assert_frame_equal(as_text(frame).reset_index(drop=True), csv.astype(object), check_dtype=False)


@pytest.mark.parametrize("name", ["gen.trace", "gen.v3.mstore"])
def test_tables_are_the_commands_rows(name):
    path = source_file("tests", "store", "data", name)
    t = macroscope.open(path)
    for table in ["states", "events", "links", "variables", "containers", "types"]:
        sql = "SELECT * FROM %s ORDER BY id" % table
        expect_same_as_csv(t.query(sql), command_csv("query", path, sql))


def test_columns_are_numpy_arrays():
    t = macroscope.open(source_file("tests", "store", "data", "gen.trace"))
    states = t.states()
    assert states["id"].dtype == numpy.int64
    assert states["depth"].dtype == numpy.int64
    assert states["ts"].dtype == numpy.float64  # Pajé: the text's decimal times
    # Names (a few, repeated) are Categoricals: codes into the names met.
    assert states["value"].dtype == "category"
    assert states["value"].cat.codes.dtype.kind == "i"
    assert set(states["value"].cat.categories) == set(states["value"])
    assert states["ts_ns"].dtype == "Int64" and states["ts_ns"].isna().all()  # no nanoseconds for decimal times
    assert len(states) == 186
    # A query's texts: an object array whose equal texts are one Python string.
    values = t.query("SELECT value FROM states")["value"].tolist()
    assert len({id(v) for v in values}) == len(set(values))
    # Names SQL repeats stay, in order.
    assert list(t.query("SELECT 1 AS x, 2 AS x, 'a' AS y").columns) == ["x", "x", "y"]


def test_selections_are_where_clauses():
    path = source_file("tests", "store", "data", "gen.trace")
    t = macroscope.open(path)
    frame = t.states(start=100, end=200, containers=["c1.1", 3], types=["State", "Nested"])
    sql = ("SELECT * FROM states WHERE \"end\" >= 100 AND ts <= 200 AND (container IN (3) OR container IN "
           "(SELECT id FROM containers WHERE name = 'c1.1' OR path = 'c1.1')) AND type IN ('State', 'Nested') "
           "ORDER BY id")
    expect_same_as_csv(frame, command_csv("query", path, sql))
    assert len(frame) > 0
    assert set(frame["type"]) <= {"State", "Nested"}
    assert len(t.events(start=0, end=50)) == len(t.query("SELECT id FROM events WHERE ts BETWEEN 0 AND 50"))


def test_analyses_are_the_commands_tables():
    path = source_file("tests", "store", "data", "gen.trace")
    t = macroscope.open(path)
    expect_same_as_csv(t.stats(), command_csv("stats", path))
    expect_same_as_csv(t.stats(100, 250.5), command_csv("stats", "--start", "100", "--end", "250.5", path))
    expect_same_as_csv(t.anomalies("State"), command_csv("anomalies", "--type", "State", path))
    expect_same_as_csv(t.correlation("Event", "State"), command_csv("correlate", "--a", "Event", "--b", "State", path))


def test_overview_and_loops_are_the_commands_tables(tmp_path):
    path = source_file("tests", "store", "data", "gen.trace")
    t = macroscope.open(path)
    cache = ["--cache", str(tmp_path)]
    expect_same_as_csv(t.aggregation(0.5), command_csv("aggregate", *cache, "--p", "0.5", path))
    expect_same_as_csv(t.aggregation(0.3, 20, "spatiotemporal"),
                       command_csv("aggregate", *cache, "--p", "0.3", "--slices", "20", "--mode", "spatiotemporal", path))
    expect_same_as_csv(t.plist(), command_csv("aggregate", *cache, "--plist", path))
    expect_same_as_csv(t.loops("c1.2", "Event"),
                       command_csv("loops", "--from", path, "--container", "c1.2", "--type", "Event", "--emit", "csv",
                                   format_option=False))


def test_times_of_a_clock_are_exact_ticks():
    path = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    t = macroscope.open(path)
    info = t.info()
    assert info["tick_den"] == 2095197216
    states = t.states()
    assert states["ts"].dtype == numpy.int64 and states["ts_ns"].dtype == numpy.int64
    assert (states["dur"] == states["end"] - states["ts"]).all()
    recv = t.query("SELECT dur_ns FROM states WHERE value = 'MPI_Recv' ORDER BY dur DESC LIMIT 1")
    assert recv["dur_ns"].tolist() == [813821]
    expect_same_as_csv(states, command_csv("query", path, "SELECT * FROM states ORDER BY id"))


def test_nulls_in_integers_keep_them_exact():
    t = macroscope.open(source_file("tests", "store", "data", "fields.trace"))
    frame = t.query("SELECT id, CASE WHEN id % 2 = 0 THEN 9007199254740993 END AS big FROM states ORDER BY id")
    assert str(frame["big"].dtype) == "Int64"
    assert frame["big"].tolist()[0] == 9007199254740993
    assert frame["big"].isna().tolist() == [False, True, True, False]


def test_bad_sql_and_bad_files_raise():
    t = macroscope.open(source_file("tests", "store", "data", "fields.trace"))
    with pytest.raises(macroscope.Error, match=r'SQL:1:10: near "FORM": syntax error'):
        t.query("SELECT * FORM states")
    with pytest.raises(macroscope.Error, match="no entity to measure"):
        t.anomalies("Nope")
    with pytest.raises(macroscope.Error, match="/nonexistent/trace.otf2"):
        macroscope.open("/nonexistent/trace.otf2")


def test_bounds_in_ticks_are_exact_far_from_the_clock_zero():
    # An LTTng clock counts ns since 1970: 1.4e18 ticks, where a float's
    # step is 256. An int bound selects what SQL's integer bound selects.
    t = macroscope.open(shared_file("ctf", "bug446190"))
    edges = t.query('SELECT ts, "end" FROM states ORDER BY ts LIMIT 5 OFFSET 40')
    assert int(edges["ts"].iloc[0]) > 2 ** 53
    for edge in list(edges["ts"]) + list(edges["end"]):
        for bound in (int(edge) - 1, int(edge), int(edge) + 1):
            sql = 'SELECT id FROM states WHERE "end" >= %d AND ts <= %d ORDER BY id' % (bound, bound)
            assert list(t.states(start=bound, end=bound)["id"]) == list(t.query(sql)["id"]), bound


def otf2_print_lengths(path):
    """The Length of every MPI_SEND / MPI_ISEND record, as otf2-print prints it."""
    import re
    import shutil
    import subprocess
    if shutil.which("otf2-print") is None:
        pytest.skip("no otf2-print (Debian's otf2-tools)")
    out = subprocess.run(["otf2-print", path], capture_output=True, text=True, check=True).stdout
    return [int(re.search(r"Length: (\d+)", line).group(1)) for line in out.splitlines()
            if line.split()[:1] in (["MPI_SEND"], ["MPI_ISEND"])]


@pytest.mark.parametrize("name", ["ping-pong-otf2", "ping-pong-otf2-papi"])
def test_comm_histogram_is_numpys(name):
    path = shared_file("otf2", name, "traces.otf2")
    t = macroscope.open(path)
    sizes = otf2_print_lengths(path)
    assert len(sizes) > 0
    for bins in (None, 10, 7, 1):
        counts, edges = numpy.histogram(sizes, bins=20 if bins is None else bins)  # pipit's default: 20
        frame = t.comm_histogram(bins)
        assert frame["bin_start"].tolist() == edges[:-1].tolist()
        assert frame["bin_end"].tolist() == edges[1:].tolist()
        assert frame["messages"].tolist() == counts.tolist()


def test_comm_tables_are_the_commands():
    path = shared_file("otf2", "ping-pong-otf2", "traces.otf2")
    t = macroscope.open(path)
    expect_same_as_csv(t.comm(), command_csv("comm", path))
    expect_same_as_csv(t.comm(3), command_csv("comm", "--level", "3", path))
    expect_same_as_csv(t.comm_histogram(), command_csv("comm", "--histogram", path))
    expect_same_as_csv(t.comm_over_time(12), command_csv("comm", "--over-time", "--bins", "12", path))
    assert t.comm()["messages"].sum() == len(otf2_print_lengths(path))
    with pytest.raises(macroscope.Error, match="level 9: beyond the container tree"):
        t.comm(9)


def test_kernel_latency_is_the_commands_table():
    path = shared_file("ctf", "bug446190")
    t = macroscope.open(path)
    for kind in ("syscall", "irq", "sched"):
        expect_same_as_csv(t.kernel_latency(kind), command_csv("kernel", "latency", "--kind", kind, path))
    expect_same_as_csv(t.kernel_latency_histogram("irq", 8, "TIMER"),
                       command_csv("kernel", "latency", "--kind", "irq", "--histogram", "--bins", "8", "--name", "TIMER",
                                   path))
    expect_same_as_csv(t.kernel_latency_histogram("sched", name=184),
                       command_csv("kernel", "latency", "--kind", "sched", "--histogram", "--name", "184", path))
    with pytest.raises(macroscope.Error, match="kind: syscall, irq or sched"):
        t.kernel_latency("disk")
