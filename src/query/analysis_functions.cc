#include "query/analysis_functions.h"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "analysis/aggregation_table.h"
#include "analysis/anomalies.h"
#include "analysis/communication.h"
#include "analysis/compare/alignment.h"
#include "analysis/compare/differential_overview.h"
#include "analysis/compare/run_diff.h"
#include "analysis/correlation.h"
#include "analysis/critical_path.h"
#include "analysis/entity_selection.h"
#include "analysis/kernel/latency.h"
#include "analysis/kernel/memory_table.h"
#include "analysis/kernel/processes_report.h"
#include "analysis/kernel/subsystems.h"
#include "analysis/kernel/thread_critical_path.h"
#include "analysis/make_aggregation.h"
#include "analysis/model_csv.h"
#include "analysis/p_list.h"
#include "analysis/profile.h"
#include "analysis/state_statistics.h"
#include "analysis/trace_model.h"
#include "analysis/wait_states.h"
#include "loops/find_model.h"
#include "loops/model_table.h"
#include "loops/trace_series.h"
#include "query/clock.h"
#include "util/error.h"

namespace macroscope::query {

namespace {

constexpr std::array kFunctions{
    FunctionDoc{"stats(start, end)",
                "per kind, type and value: count, total and mean state time, share of the window [start, end] "
                "(times as ts; default the whole trace), as `stats --format csv`"},
    FunctionDoc{"profile(start, end, container)",
                "per container and function: calls, inclusive_ns, exclusive_ns of the states inside [start, end] "
                "(times as ts; default the whole trace) of a container's subtree (default all), as `profile "
                "--format csv`"},
    FunctionDoc{"profile_total(start, end, container)",
                "per function over the containers: calls, containers, inclusive and exclusive sums, mean, min, "
                "max, imbalance, as `profile --total`"},
    FunctionDoc{"call_tree(start, end, container)",
                "the calling context tree: id, parent, depth, function, path, calls, inclusive_ns, exclusive_ns, "
                "as `profile --tree`"},
    FunctionDoc{"wait_states(start, end, container)",
                "Scalasca's MPI wait states per pattern (Late Sender, Late Receiver, Wait at N x N, Wait at Barrier), "
                "container and call path of the waiting call: instances, time_ns inside [start, end] (times as ts), "
                "as `waits --format csv`"},
    FunctionDoc{"idle_time(start, end, container)",
                "per container: span_ns, in_states_ns, idle_ns, mpi_ns, mpi_wait_ns inside [start, end], as "
                "`waits --idle --format csv`"},
    FunctionDoc{"wait_instances(start, end, container)",
                "each wait of wait_states(), its part inside [start, end]: container, start, end (relative to the "
                "trace's start), pattern, peer (the container waited for), wait_ns, as `waits --instances`"},
    FunctionDoc{"critical_path()",
                "the critical path of a message-passing trace, one row per segment in time order: container, "
                "start, end (times as ts), function, length_ns, as `critical-path`"},
    FunctionDoc{"critical_path_by(what)",
                "the path's time per function or container (what 'function' or 'container'): name, length_ns, "
                "share, as `critical-path --by WHAT`"},
    FunctionDoc{"thread_critical_path(tid, end)",
                "a kernel trace's thread's critical path up to end (as ts; default the thread's end), one row per "
                "segment in time order: container, tid, start, end (times as critical_path()'s), state (running, "
                "runnable, preempted, interrupt, timer, blocked), detail, length_ns, as `critical-path --thread TID`"},
    FunctionDoc{"thread_critical_path_by(tid, what, end)",
                "its time per state or thread (what 'state' or 'container'): name, length_ns, share, as "
                "`critical-path --thread TID --by WHAT`"},
    FunctionDoc{"kernel_processes(pid)", "per thread: running, user, kernel, waiting… time (pid: that process's "
                                         "subtree only), as `kernel processes --format csv`"},
    FunctionDoc{"kernel_cpus(pid)", "per CPU and thread: its time, idle and unknown, as `kernel processes --cpus`"},
    FunctionDoc{"kernel_subsystems()", "events and time per kernel subsystem and per owner, as `kernel subsystems` "
                                       "(of the trace's entities)"},
    FunctionDoc{"kernel_memory()", "libc memory per process (LTTng-UST's libc wrapper), as `kernel memory`"},
    FunctionDoc{"kernel_latency(kind)",
                "per syscall, IRQ/softirq or thread (kind 'syscall', 'irq' or 'sched'): count, min, mean, max, "
                "stddev and nearest-rank p50, p90, p99 of the durations or wakeup-to-run latencies in ns, as "
                "`kernel latency --kind K`"},
    FunctionDoc{"kernel_latency_histogram(kind, bins, name)",
                "their distribution over bins (default 20) equal integer bins, all rows or those of one name or "
                "id: bin_start, bin_end, count (ns), as `kernel latency --kind K --histogram`"},
    FunctionDoc{"anomalies(selection, metric)",
                "entities outside mean ± 3σ/√n: selection TYPE or TYPE=VALUE, metric 'duration' (default) or "
                "'interarrival', as `anomalies`"},
    FunctionDoc{"correlation(a, b, delta)",
                "Pearson's r of the counts of two selections over regular bins, or ±delta (ticks) around the "
                "smaller series' points, as `correlate`"},
    FunctionDoc{"aggregation(p, slices, mode, start, end)",
                "the parts of the optimal aggregation of the state-time model: start_slice, end_slice, node "
                "(spatiotemporal), gain, loss; p default the overview's (the knee of the quality curves), 100 "
                "slices, mode 'temporal' or 'spatiotemporal', times as ts; as `aggregate --p P --format csv`"},
    FunctionDoc{"plist(slices, mode, start, end)",
                "the significant p values: p, gain, loss, parts of the partition optimal from p to the next; as "
                "`aggregate --plist --format csv`"},
    FunctionDoc{"differential_overview(other, p, slices, mode, align)",
                "where the trace (A) and the trace `other` (B: a file; in the workbench, a served trace's index or "
                "name) differ in time: the parts of the optimal aggregation of their state-time difference model "
                "over the span both cover, aligned as `diff --align` aligns them (align 'start' (default), 'end', "
                "'event:NAME', 'none'), largest difference first: rank, part, start, end (s from the start of the "
                "span both cover), node, difference_rate, a_rate, b_rate, and per part the types whose share "
                "changed most: type, a_share, b_share, share_change; p default the overview's, 100 slices, mode "
                "'temporal' or 'spatiotemporal'"},
    FunctionDoc{"profile_diff(other, by, align)",
                "the trace (A) against the trace `other` (B), as `diff A B --by BY --format csv` (by 'function' "
                "(default), 'container', 'thread' or 'unmatched'; align as differential_overview's): the columns of "
                "the four views, each view filling its own (the others NULL), rows by the largest difference"},
    FunctionDoc{"loops(container, type, series, unit)",
                "the loop nests that regenerate one series of a container's entities of a type (series 'start' "
                "(default), 'end', 'duration', 'value' or 'interarrival'; unit 's', 'ms', 'us', 'ns', default the "
                "coarsest exact one): one row per phase, its range, period, intervals, depth, size and nest; as "
                "`loops --from TRACE … --emit csv`"},
    FunctionDoc{"comm(level, start, end)",
                "per sender and receiver (container paths; at that depth of the container tree, default the "
                "messages' ends): messages and bytes of the links sent in [start, end] (times as ts), as `comm`"},
    FunctionDoc{"comm_histogram(bins, start, end)",
                "the histogram of the messages' sizes (numpy.histogram; 20 bins by default): bin_start, bin_end, "
                "messages, as `comm --histogram`"},
    FunctionDoc{"comm_over_time(bins, start, end)",
                "messages and bytes per time bin of [start, end] (default the trace's span, 100 bins; start and "
                "end relative to the trace's start), as `comm --over-time`"},
};

using analysis::Cancellation;

// Every chunk of the trace, store after store; stops with
// analysis::Cancelled between chunks once `cancel` is set.
template <class F>
void ForEveryChunk(const EntitySource& source, const Cancellation* cancel, F&& f) {
  for (uint32_t k = 0; k < source.trace().stores().size(); ++k) {
    source.ForEachChunk(k, [&](const EntityChunk& c) {
      analysis::ThrowIfCancelled(cancel);
      f(c);
    });
  }
}

std::optional<int64_t> OptionalInteger(const analysis::Cell& cell, const char* what) {
  if (std::holds_alternative<std::monostate>(cell)) return std::nullopt;
  if (const auto* i = std::get_if<int64_t>(&cell)) return *i;
  throw UserError(std::string(what) + ": an integer");
}

std::optional<std::string> OptionalText(const analysis::Cell& cell, const char* what) {
  if (std::holds_alternative<std::monostate>(cell)) return std::nullopt;
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  throw UserError(std::string(what) + ": a text");
}

std::string Text(const analysis::Cell& cell, const char* what) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  throw UserError(std::string(what) + ": a text (TYPE or TYPE=VALUE)");
}

std::optional<double> OptionalNumber(const analysis::Cell& cell, const char* what) {
  if (std::holds_alternative<std::monostate>(cell)) return std::nullopt;
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  throw UserError(std::string(what) + ": a number");
}

// A time as the tables give it (ts), as a model time.
std::optional<double> OptionalTime(const Clock& clock, const analysis::Cell& cell, const char* what) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return clock.ModelTime(*i);
  const std::optional<double> t = OptionalNumber(cell, what);
  if (t) return clock.ModelTime(*t);
  return t;
}

analysis::Table Stats(const EntitySource& source, const std::vector<analysis::Cell>& a) {
  const Clock clock(source.trace().time_base());
  analysis::StatisticsRequest request;
  request.start = OptionalTime(clock, a[0], "start");
  request.end = OptionalTime(clock, a[1], "end");
  return analysis::StatisticsTable(analysis::ComputeStatistics(source, request),
                                   analysis::StatisticsTimes::kModelUnits);
}

// A request of (start, end, container): a window in the tables' time (ts)
// and a container's subtree, as `profile` and `waits` take them.
template <class Request>
Request WindowAndContainer(const EntitySource& source, const std::vector<analysis::Cell>& a) {
  const Clock clock(source.trace().time_base());
  Request request;
  request.start = OptionalTime(clock, a[0], "start");
  request.end = OptionalTime(clock, a[1], "end");
  if (const std::optional<std::string> container = OptionalText(a[2], "container")) request.containers = {*container};
  return request;
}

// The profile of (start, end, container), as `profile` makes it; its
// calling context tree too when `call_paths`.
analysis::Profile Profile(const EntitySource& source, const Cancellation* cancel, const std::vector<analysis::Cell>& a,
                          bool call_paths = false) {
  analysis::ProfileRequest request = WindowAndContainer<analysis::ProfileRequest>(source, a);
  request.call_paths = call_paths;
  return analysis::ComputeProfile(source, request, cancel);
}

// The wait states of (start, end, container), as `waits` finds them.
analysis::WaitStatesAccumulator WaitStates(const EntitySource& source, const Cancellation* cancel,
                                           const std::vector<analysis::Cell>& a) {
  return analysis::ComputeWaitStates(source, WindowAndContainer<analysis::WaitStatesRequest>(source, a), cancel);
}

analysis::Table Processes(const EntitySource& source, const Cancellation* cancel, const std::vector<analysis::Cell>& a,
                          bool cpus) {
  analysis::kernel::ProcessesReport report(OptionalInteger(a[0], "pid"), cpus);
  const Trace& trace = source.trace();
  ForEveryChunk(source, cancel, [&](const EntityChunk& c) { report.Add(trace, c); });
  return report.ToTable(trace);
}

analysis::Table Subsystems(const EntitySource& source, const Cancellation* cancel) {
  analysis::kernel::SubsystemTally tally;
  const Trace& trace = source.trace();
  ForEveryChunk(source, cancel, [&](const EntityChunk& c) { tally.Add(trace, c); });
  return tally.ToTable(trace);
}

analysis::Table Memory(const EntitySource& source, const Cancellation* cancel) {
  analysis::kernel::MemoryTable memory;
  const Trace& trace = source.trace();
  ForEveryChunk(source, cancel, [&](const EntityChunk& c) { memory.Add(trace, c); });
  return memory.ToTable(trace.time_base());
}

analysis::Table Latency(const EntitySource& source, const Cancellation* cancel, const std::vector<analysis::Cell>& a,
                        bool histogram) {
  const analysis::kernel::LatencyKind kind =
      analysis::kernel::ParseLatencyKind(OptionalText(a[0], "kind").value_or(""), "kind");
  const int64_t bins = histogram ? OptionalInteger(a[1], "bins").value_or(20) : 0;
  if (histogram) analysis::kernel::CheckLatencyBins(bins, "bins");
  analysis::kernel::LatencyTally tally;
  const Trace& trace = source.trace();
  ForEveryChunk(source, cancel, [&](const EntityChunk& c) { tally.Add(trace, c); });
  if (!histogram) return tally.ToTable(trace, kind);
  // A name, or a thread's or IRQ's id as a number.
  std::optional<std::string> name;
  if (const auto* i = std::get_if<int64_t>(&a[2]))
    name = std::to_string(*i);
  else
    name = OptionalText(a[2], "name");
  return tally.HistogramTable(trace, kind, bins, name);
}

analysis::Table Anomalies(const EntitySource& source, const Cancellation* cancel, const std::vector<analysis::Cell>& a) {
  analysis::AnomalyRequest request;
  request.type = Text(a[0], "selection");
  const std::string metric = std::holds_alternative<std::monostate>(a[1]) ? "duration" : Text(a[1], "metric");
  if (metric != "duration" && metric != "interarrival") throw UserError("metric: duration or interarrival");
  request.metric = metric == "duration" ? analysis::AnomalyMetric::kDuration : analysis::AnomalyMetric::kInterarrival;
  analysis::AnomalyDetector detector(request, "selection");
  const Trace& trace = source.trace();
  ForEveryChunk(source, cancel, [&](const EntityChunk& c) { detector.Add(trace, c); });
  return detector.ToTable(trace);
}

analysis::Table Correlate(const EntitySource& source, const Cancellation* cancel, const std::vector<analysis::Cell>& a) {
  analysis::EntitySelection first(Text(a[0], "a"), "a"), second(Text(a[1], "b"), "b");
  const std::optional<double> delta = OptionalNumber(a[2], "delta");  // a length: ticks as dur
  if (delta && !(*delta > 0)) throw UserError("delta: a length > 0");
  analysis::Correlation correlation;
  const Trace& trace = source.trace();
  ForEveryChunk(source, cancel, [&](const EntityChunk& c) {
    first.ForEachMatch(trace, c, [&](size_t i) { correlation.AddA(c.start[i]); });
    second.ForEachMatch(trace, c, [&](size_t i) { correlation.AddB(c.start[i]); });
  });
  return correlation.ToTable(delta ? analysis::Binning::kIrregular : analysis::Binning::kRegular, delta.value_or(0));
}

// (slices, mode) of an aggregation: the slices of `request`, and whether
// the mode is spatiotemporal.
bool SlicesAndMode(const analysis::Cell& slices, const analysis::Cell& mode, analysis::ModelRequest& request) {
  const std::optional<int64_t> n = OptionalInteger(slices, "slices");
  if (n && (*n < 1 || *n > analysis::kMaxSlices)) {
    throw UserError("slices: from 1 to " + std::to_string(analysis::kMaxSlices));
  }
  request.slices = static_cast<int32_t>(n.value_or(analysis::kDefaultSlices));
  const std::string m = OptionalText(mode, "mode").value_or("temporal");
  if (m != "temporal" && m != "spatiotemporal") throw UserError("mode: temporal or spatiotemporal, not '" + m + "'");
  return m == "spatiotemporal";
}

// The aggregation `aggregate` makes of the state-time model of (slices,
// mode, start, end): the model as the command's cache gives it, times as
// the tables give them, one bound alone keeping the trace's other.
struct Aggregated {
  analysis::MicroModel model;
  std::unique_ptr<analysis::Aggregation> aggregation;
  bool spatiotemporal = false;
};

Aggregated Aggregate(const EntitySource& source, const Cancellation* cancel, const analysis::Cell& slices,
                     const analysis::Cell& mode, const analysis::Cell& start, const analysis::Cell& end) {
  const Clock clock(source.trace().time_base());
  analysis::ModelRequest request;
  const bool spatiotemporal = SlicesAndMode(slices, mode, request);
  request.start = OptionalTime(clock, start, "start");
  request.end = OptionalTime(clock, end, "end");
  request.threads = 0;
  request.cancel = cancel;
  Aggregated out{analysis::BuildModelAsCached(source, request), nullptr, spatiotemporal};
  out.aggregation = analysis::MakeAggregation(out.model, out.spatiotemporal, false, 0, cancel);
  return out;
}

analysis::Table Aggregation(const EntitySource& source, const Cancellation* cancel, const std::vector<analysis::Cell>& a) {
  const std::optional<double> p = OptionalNumber(a[0], "p");
  if (p && !(*p >= 0 && *p <= 1)) throw UserError("p: in [0, 1]");
  const Aggregated made = Aggregate(source, cancel, a[1], a[2], a[3], a[4]);
  const double at = p ? *p
                      : analysis::KneeP(analysis::SignificantPsExact(*made.aggregation, cancel),
                                        made.aggregation->FullAggregate());
  return analysis::PartitionTable(made.model, *made.aggregation, made.aggregation->Best(at, cancel),
                                  made.spatiotemporal);
}

analysis::Table PList(const EntitySource& source, const Cancellation* cancel, const std::vector<analysis::Cell>& a) {
  const Aggregated made = Aggregate(source, cancel, a[0], a[1], a[2], a[3]);
  return analysis::PListTable(*made.aggregation, analysis::SignificantPsExact(*made.aggregation, cancel));
}

// The trace `other` names (args[0]), as the session's opener opens it.
const EntitySource& OtherTrace(const std::string& function, const TraceOpener* open_other,
                               const analysis::Cell& cell, std::string& name) {
  // A served trace may be named by its index: a number.
  const std::optional<std::string> other =
      std::holds_alternative<int64_t>(cell) ? std::to_string(std::get<int64_t>(cell)) : OptionalText(cell, "other");
  if (!other || other->empty()) throw UserError("other: the trace to compare with");
  if (open_other == nullptr || !*open_other) throw UserError(function + ": no other trace can be opened here");
  name = *other;
  return (*open_other)(*other);
}

analysis::compare::Alignment AlignmentOf(const analysis::Cell& cell) {
  return analysis::compare::ParseAlignment(OptionalText(cell, "align").value_or("start"), "align");
}

// The differential overview of the trace (A, called `name`) and the trace
// `other` (B) over the span both cover, aligned as `diff --align` aligns
// them (AlignRuns, as DiffRuns takes it).
analysis::Table Differential(const EntitySource& a, const std::string& name, const TraceOpener* open_other,
                             const Cancellation* cancel, const std::vector<analysis::Cell>& args) {
  std::string other;
  const EntitySource& b = OtherTrace("differential_overview", open_other, args[0], other);
  analysis::compare::DifferentialOptions options;
  options.p = OptionalNumber(args[1], "p");
  if (options.p && !(*options.p >= 0 && *options.p <= 1)) throw UserError("p: in [0, 1]");
  analysis::ModelRequest request;
  options.spatiotemporal = SlicesAndMode(args[2], args[3], request);
  request.threads = options.threads = 0;
  request.cancel = options.cancel = cancel;
  const analysis::compare::AlignedSpan span =
      analysis::compare::AlignRuns(a.trace(), name, b.trace(), other, AlignmentOf(args[4]));
  return analysis::compare::DifferentialOverview(a, b, span.a_start, span.b_start, span.span_ns, request, options)
      .parts;
}

// `diff A B --by BY`'s table (DiffRuns), its rows in the columns of every view (DiffRunsColumns).
analysis::Table ProfileDiff(const EntitySource& a, const std::string& name, const TraceOpener* open_other,
                            const Cancellation* cancel, const std::vector<analysis::Cell>& args) {
  const analysis::compare::DiffView view =
      analysis::compare::ParseDiffView(OptionalText(args[1], "by").value_or("function"), "by");
  if (view == analysis::compare::DiffView::kParts)
    throw UserError("by: function, container, thread or unmatched (the parts are differential_overview()'s)");
  std::string other;
  const EntitySource& b = OtherTrace("profile_diff", open_other, args[0], other);
  const analysis::Table table =
      analysis::compare::DiffRuns({a, name}, {b, other}, AlignmentOf(args[2]), view, false, cancel).table;
  analysis::Table out(analysis::compare::DiffRunsColumns());
  std::vector<size_t> at;
  for (const std::string& column : table.columns) {
    const auto it = std::find(out.columns.begin(), out.columns.end(), column);
    if (it == out.columns.end())
      throw std::logic_error("profile_diff: diff has a column '" + column + "' it does not declare");
    at.push_back(static_cast<size_t>(it - out.columns.begin()));
  }
  for (size_t r = 0; r < table.rows(); ++r) {
    std::vector<analysis::Cell> row(out.columns.size());
    for (size_t c = 0; c < at.size(); ++c) row[at[c]] = table.at(r, c);
    out.cells.insert(out.cells.end(), std::make_move_iterator(row.begin()), std::make_move_iterator(row.end()));
  }
  return out;
}

analysis::Table Loops(const EntitySource& source, const std::vector<analysis::Cell>& a) {
  loops::SeriesRequest request;
  request.container = OptionalText(a[0], "container").value_or("");
  request.type = OptionalText(a[1], "type").value_or("");
  if (request.container.empty()) throw UserError("container: a container's name, alias or path");
  if (request.type.empty()) throw UserError("type: an entity type's name or alias");
  request.series = OptionalText(a[2], "series").value_or(request.series);
  request.unit = OptionalText(a[3], "unit").value_or("");
  const loops::TraceSeries series = loops::ExtractSeries(source, "the trace", request);
  return loops::PhaseTable(loops::FindModel(series.values, loops::Options()), series.unit);
}

// One of the communication tables of the links sent in [start, end]
// (times as ts), `level` or `bins` its first argument.
analysis::Table Communication(const EntitySource& source, const Cancellation* cancel,
                              const std::vector<analysis::Cell>& a, analysis::CommunicationTable table) {
  const Clock clock(source.trace().time_base());
  analysis::CommunicationRequest request;
  if (table == analysis::CommunicationTable::kMatrix) request.level = OptionalInteger(a[0], "level");
  else request.bins = OptionalInteger(a[0], "bins");
  request.start = OptionalTime(clock, a[1], "start");
  request.end = OptionalTime(clock, a[2], "end");
  analysis::CommunicationAccumulator messages;
  const Trace& trace = source.trace();
  // The link stores' chunks that may hold a message sent in the window.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (uint32_t k = 0; k < trace.stores().size(); ++k) {
    if (trace.stores()[k].kind != TypeKind::kLink) continue;
    source.ForEachChunk(k, request.start.value_or(-kInf), request.end.value_or(kInf), [&](const EntityChunk& chunk) {
      analysis::ThrowIfCancelled(cancel);
      messages.Add(trace, chunk);
    });
  }
  return messages.Finish(trace, request, table);
}

// A kernel thread's critical path (tid, end) or (tid, what, end).
analysis::Table ThreadCriticalPath(const EntitySource& source, const Cancellation* cancel,
                                   const std::vector<analysis::Cell>& a, bool by) {
  const std::optional<int64_t> tid = OptionalInteger(a[0], "tid");
  if (!tid) throw UserError("tid: the tid of the thread whose critical path to follow");
  const analysis::kernel::ThreadPathBy what =
      by ? analysis::kernel::ParseThreadPathBy(OptionalText(a[1], "what").value_or(""), "what")
         : analysis::kernel::ThreadPathBy::kSegments;
  const std::optional<double> end = OptionalTime(Clock(source.trace().time_base()), a[by ? 2 : 1], "end");
  return analysis::kernel::ThreadCriticalPathTable(
      source.trace(), analysis::kernel::ComputeThreadCriticalPath(source, *tid, end, "tid", cancel), what);
}

// Its columns: the names of the table the analysis makes of nothing.
std::vector<std::string> ColumnsOf(const analysis::Table& empty) {
  std::vector<std::string> columns;
  for (const std::string& name : empty.columns) columns.push_back('"' + name + '"');
  return columns;
}

}  // namespace

std::span<const FunctionDoc> AnalysisFunctions() { return kFunctions; }

void RegisterAnalysisFunctions(sqlite3* db, const EntitySource& source, const std::string& name,
                               const Cancellation* const* cancel, const TraceOpener* open_other) {
  const EntitySource* s = &source;
  const Trace& trace = source.trace();
  using Args = std::vector<analysis::Cell>;
  auto add = [&](std::string name, const analysis::Table& empty, std::vector<std::string> arguments,
                 std::function<analysis::Table(const Args&)> rows) {
    RegisterRowsTable(db, {std::move(name), ColumnsOf(empty), arguments, Args(arguments.size()), std::move(rows)});
  };
  // The cancellation as it is when the function runs (the session's guard
  // may set it after the registration).
  const auto c = [cancel] { return *cancel; };
  add("stats", analysis::StatisticsTable({}, analysis::StatisticsTimes::kModelUnits), {"start", "end"},
      [s](const Args& a) { return Stats(*s, a); });
  const std::vector<std::string> window{"start", "end", "container"};
  add("profile", analysis::ProfileTable(trace, {}), window,
      [s, c](const Args& a) { return analysis::ProfileTable(s->trace(), Profile(*s, c(), a)); });
  add("profile_total", analysis::ProfileTotalTable(trace, {}), window,
      [s, c](const Args& a) { return analysis::ProfileTotalTable(s->trace(), Profile(*s, c(), a)); });
  add("call_tree", analysis::CallTreeTable(trace, {}), window,
      [s, c](const Args& a) { return analysis::CallTreeTable(s->trace(), Profile(*s, c(), a, true).tree); });
  add("wait_states", analysis::WaitStatesAccumulator::PatternColumns(), window,
      [s, c](const Args& a) { return WaitStates(*s, c(), a).Patterns(); });
  add("idle_time", analysis::WaitStatesAccumulator::IdleColumns(), window,
      [s, c](const Args& a) { return WaitStates(*s, c(), a).Idle(); });
  add("wait_instances", analysis::WaitStatesAccumulator::InstanceColumns(), window,
      [s, c](const Args& a) { return WaitStates(*s, c(), a).Instances(); });
  add("critical_path", analysis::CriticalPathTable(trace, {}, analysis::CriticalPathBy::kSegments), {},
      [s, c](const Args&) {
        return analysis::CriticalPathTable(s->trace(), analysis::ComputeCriticalPath(*s, c()),
                                           analysis::CriticalPathBy::kSegments);
      });
  add("critical_path_by", analysis::CriticalPathTable(trace, {}, analysis::CriticalPathBy::kFunction), {"what"},
      [s, c](const Args& a) {
        const analysis::CriticalPathBy by =
            analysis::ParseCriticalPathBy(OptionalText(a[0], "what").value_or(""), "what");
        return analysis::CriticalPathTable(s->trace(), analysis::ComputeCriticalPath(*s, c()), by);
      });
  add("thread_critical_path",
      analysis::kernel::ThreadCriticalPathTable(trace, {}, analysis::kernel::ThreadPathBy::kSegments), {"tid", "end"},
      [s, c](const Args& a) { return ThreadCriticalPath(*s, c(), a, false); });
  add("thread_critical_path_by",
      analysis::kernel::ThreadCriticalPathTable(trace, {}, analysis::kernel::ThreadPathBy::kState),
      {"tid", "what", "end"}, [s, c](const Args& a) { return ThreadCriticalPath(*s, c(), a, true); });
  add("kernel_processes", analysis::kernel::ProcessesReport(std::nullopt, false).ToTable(trace), {"pid"},
      [s, c](const Args& a) { return Processes(*s, c(), a, false); });
  add("kernel_cpus", analysis::kernel::ProcessesReport(std::nullopt, true).ToTable(trace), {"pid"},
      [s, c](const Args& a) { return Processes(*s, c(), a, true); });
  add("kernel_subsystems", analysis::kernel::SubsystemTally().ToTable(trace), {},
      [s, c](const Args&) { return Subsystems(*s, c()); });
  add("kernel_memory", analysis::kernel::MemoryTable().ToTable(trace.time_base()), {},
      [s, c](const Args&) { return Memory(*s, c()); });
  add("kernel_latency", analysis::kernel::LatencyColumns(), {"kind"},
      [s, c](const Args& a) { return Latency(*s, c(), a, false); });
  add("kernel_latency_histogram", analysis::kernel::LatencyHistogramColumns(), {"kind", "bins", "name"},
      [s, c](const Args& a) { return Latency(*s, c(), a, true); });
  add("anomalies", analysis::AnomaliesTable({}), {"selection", "metric"},
      [s, c](const Args& a) { return Anomalies(*s, c(), a); });
  add("correlation", analysis::CorrelationTable(analysis::Binning::kRegular, {}), {"a", "b", "delta"},
      [s, c](const Args& a) { return Correlate(*s, c(), a); });
  add("aggregation", analysis::PartitionTable(false), {"p", "slices", "mode", "start", "end"},
      [s, c](const Args& a) { return Aggregation(*s, c(), a); });
  add("plist", analysis::PListTable(false), {"slices", "mode", "start", "end"},
      [s, c](const Args& a) { return PList(*s, c(), a); });
  for (const auto& [name, kind] : {std::pair{"comm", analysis::CommunicationTable::kMatrix},
                                   std::pair{"comm_histogram", analysis::CommunicationTable::kHistogram},
                                   std::pair{"comm_over_time", analysis::CommunicationTable::kOverTime}}) {
    const analysis::CommunicationTable table = kind;  // a lambda captures a variable, not a binding (clang 14)
    add(name, analysis::CommunicationColumns(table),
        {table == analysis::CommunicationTable::kMatrix ? "level" : "bins", "start", "end"},
        [s, c, table](const Args& a) { return Communication(*s, c(), a, table); });
  }
  add("differential_overview", analysis::compare::DifferencePartsTable(), {"other", "p", "slices", "mode", "align"},
      [s, name, c, open_other](const Args& a) { return Differential(*s, name, open_other, c(), a); });
  add("profile_diff", analysis::Table(analysis::compare::DiffRunsColumns()), {"other", "by", "align"},
      [s, name, c, open_other](const Args& a) { return ProfileDiff(*s, name, open_other, c(), a); });
  add("loops", loops::PhaseTable({}, ""), {"container", "type", "series", "unit"},
      [s](const Args& a) { return Loops(*s, a); });
}

}  // namespace macroscope::query
