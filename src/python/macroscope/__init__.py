"""Traces of every format as SQL tables and pandas DataFrames (docs/python.md).

    import macroscope
    t = macroscope.open("traces.otf2")
    t.query("SELECT value, count(*) AS n FROM states GROUP BY value")
    t.states(start=..., end=..., containers=["MPI Rank 1"], types=["Region"])
    t.kernel_processes()

Every answer is a pandas DataFrame whose columns are NumPy arrays: times
are int64 ticks of the trace's clock (float64 seconds for Pajé and CSV
traces) with *_ns columns where they are exact; the tables and the
analyses are those of `macroscope query` (docs/query.md).
"""

from ._macroscope import Error, _open

__all__ = ["open", "Trace", "Error"]


def _literal(value):  # for the analyses' arguments
    """A Python value as an SQL literal (numbers exactly, texts quoted)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back to the same double
    text = str(value)
    return "'" + text.replace("'", "''") + "'"


def _call(function, *arguments):
    """`function(a, b, …)` with the arguments given, trailing Nones left out."""
    given = list(arguments)
    while given and given[-1] is None:
        given.pop()
    return "SELECT * FROM %s(%s)" % (function, ", ".join(_literal(a) for a in given))


# profile_diff()'s columns of each view of `diff --by` (docs/compare.md,
# "The tables"): its keys, then per measure A, B, B - A, B / A.
_PROFILE_MEASURES = (("calls", ""), ("inclusive", "_ns"), ("exclusive", "_ns"))
_DIFF_VIEWS = {
    "function": (("function",), _PROFILE_MEASURES),
    "container": (("container", "container_b"), _PROFILE_MEASURES),
    "thread": (("thread", "thread_b", "tid_a", "tid_b"), (("running", "_ns"), ("runnable", "_ns"), ("waiting", "_ns"))),
    "unmatched": (("run", "container"), ()),
}


class Trace:
    """A trace opened for queries: a store is read chunk by chunk as queries
    reach it; any other trace is read whole first."""

    def __init__(self, native):
        self._native = native

    def query(self, sql):
        """The rows of the last statement of `sql` that answers, as a DataFrame."""
        return self._native.query(sql)

    def _entities(self, table, start, end, containers, types):
        """The rows of `SELECT * FROM table WHERE …` for these selections
        (docs/python.md), read from the chunks into NumPy columns."""
        ids = names = None
        if containers is not None:
            ids = [c for c in containers if isinstance(c, int)]
            names = [str(c) for c in containers if not isinstance(c, int)]
        return self._native.entities(table, start, end, ids, names, None if types is None else list(types))

    def states(self, start=None, end=None, containers=None, types=None):
        """States meeting [start, end] (times as the table's ts), of these
        containers (ids, names or paths) and types (names)."""
        return self._entities("states", start, end, containers, types)

    def events(self, start=None, end=None, containers=None, types=None):
        """Events at times in [start, end]."""
        return self._entities("events", start, end, containers, types)

    def links(self, start=None, end=None, containers=None, types=None):
        """Links meeting [start, end], held by these containers."""
        return self._entities("links", start, end, containers, types)

    def variables(self, start=None, end=None, containers=None, types=None):
        """Variables' values over spans meeting [start, end]."""
        return self._entities("variables", start, end, containers, types)

    def containers(self):
        return self.query("SELECT * FROM containers ORDER BY id")

    def types(self):
        return self.query("SELECT * FROM types ORDER BY id")

    def info(self):
        """The trace's span and clock (trace_info) as a dict."""
        return self.query("SELECT * FROM trace_info").iloc[0].to_dict()

    # The analyses, as `macroscope query`'s table-valued functions.
    def stats(self, start=None, end=None):
        return self.query(_call("stats", start, end))

    def profile(self, start=None, end=None, container=None):
        return self.query(_call("profile", start, end, container))

    def profile_total(self, start=None, end=None, container=None):
        return self.query(_call("profile_total", start, end, container))

    def wait_states(self, start=None, end=None, container=None):
        return self.query(_call("wait_states", start, end, container))

    def wait_instances(self, start=None, end=None, container=None):
        return self.query(_call("wait_instances", start, end, container))

    def idle_time(self, start=None, end=None, container=None):
        return self.query(_call("idle_time", start, end, container))

    def call_tree(self, start=None, end=None, container=None):
        return self.query(_call("call_tree", start, end, container))

    def critical_path(self, by=None):
        """The critical path's segments, or its time per 'function' or 'container' (by)."""
        if by is None:
            return self.query(_call("critical_path"))
        return self.query(_call("critical_path_by", by))

    def thread_critical_path(self, tid, by=None, end=None):
        """A kernel trace's thread's critical path up to end (as ts): its segments, or its time per 'state' or
        'container' (by)."""
        if by is None:
            return self.query(_call("thread_critical_path", tid, end))
        return self.query(_call("thread_critical_path_by", tid, by, end))

    def kernel_processes(self, pid=None):
        return self.query(_call("kernel_processes", pid))

    def kernel_cpus(self, pid=None):
        return self.query(_call("kernel_cpus", pid))

    def kernel_subsystems(self):
        return self.query(_call("kernel_subsystems"))

    def kernel_memory(self):
        return self.query(_call("kernel_memory"))

    def kernel_latency(self, kind):
        """Per syscall, IRQ/softirq or thread (kind 'syscall', 'irq', 'sched'):
        count, min, mean, max, stddev, p50, p90, p99 of the durations (ns)."""
        return self.query(_call("kernel_latency", kind))

    def kernel_latency_histogram(self, kind, bins=None, name=None):
        """Their distribution: bin_start, bin_end, count (ns) over `bins`
        equal bins, of every row of the kind or of one name or id."""
        return self.query(_call("kernel_latency_histogram", kind, bins, name))

    def anomalies(self, selection, metric=None):
        return self.query(_call("anomalies", selection, metric))

    def correlation(self, a, b, delta=None):
        return self.query(_call("correlation", a, b, delta))

    def comm(self, level=None, start=None, end=None):
        """Messages and bytes per sender and receiver (at a level of the container tree)."""
        return self.query(_call("comm", level, start, end))

    def comm_histogram(self, bins=None, start=None, end=None):
        """The histogram of the messages' sizes, as numpy.histogram bins them."""
        return self.query(_call("comm_histogram", bins, start, end))

    def comm_over_time(self, bins=None, start=None, end=None):
        """Messages and bytes per time bin."""
        return self.query(_call("comm_over_time", bins, start, end))

    def aggregation(self, p=None, slices=None, mode=None, start=None, end=None):
        """The overview's parts at p (default: the quality curves' knee)."""
        return self.query(_call("aggregation", p, slices, mode, start, end))

    def plist(self, slices=None, mode=None, start=None, end=None):
        """The significant p values and their qualities."""
        return self.query(_call("plist", slices, mode, start, end))

    def differential_overview(self, other, p=None, slices=None, mode=None, align=None):
        """Where this run (A) and the trace in file `other` (B) differ in
        time: the parts of the differential overview, largest difference
        first, as differential_overview() (docs/compare.md#differential-overview);
        align: 'start' (default), 'end', 'event:NAME' or 'none'."""
        return self.query(_call("differential_overview", other, p, slices, mode, align))

    def profile_diff(self, other, by="function", align=None):
        """This run (A) against the trace in file `other` (B), as `macroscope
        diff A B --by BY`: by 'function', 'container', 'thread' or
        'unmatched', the view's columns only (docs/compare.md)."""
        sql = _call("profile_diff", other, by, align)
        if by in _DIFF_VIEWS:  # else the function says what `by` may be
            keys, measures = _DIFF_VIEWS[by]
            columns = list(keys)
            for name, unit in measures:
                columns += [name + "_a" + unit, name + "_b" + unit, name + "_diff" + unit, name + "_ratio"]
            if by == "unmatched":
                columns += ["calls", "inclusive_ns", "exclusive_ns"]
            sql = sql.replace("SELECT *", "SELECT " + ", ".join(columns), 1)
        return self.query(sql)

    def loops(self, container, type, series=None, unit=None):  # noqa: A002 (the command's word)
        """The loop-nest phases of one series of a container's entities of a type."""
        return self.query(_call("loops", container, type, series, unit))


def open(path, threads=0, sort=False, no_strict=False, memory=None):  # noqa: A001 (the module's verb, as in open(file))
    """Opens a trace: a path or a list of paths read as one trace (any format
    `macroscope formats` lists, or a store). Reader options as the
    command's: threads, sort (Pajé lines out of time order), no_strict;
    memory: the bytes a store keeps decoded for the next queries (the
    command's --memory; default a sixteenth of the machine's memory)."""
    files = [path] if isinstance(path, str) else [str(p) for p in path]
    return Trace(_open(files, threads=threads, sort=sort, no_strict=no_strict, memory=memory))
