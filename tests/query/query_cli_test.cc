// `macroscope query` against a peer: the same questions asked of `sqlite3`
// over what `dump` prints of the same trace (pj_dump's lines loaded into
// native tables), on a generated trace read in memory and on its store
// read chunk by chunk; the whole tables of a trace and its store compared;
// bad SQL and statements on standard input.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

namespace macroscope::testing {
namespace {

std::vector<std::string> Split(const std::string& line, const std::string& separator) {
  std::vector<std::string> fields;
  size_t begin = 0;
  for (;;) {
    const size_t at = line.find(separator, begin);
    fields.push_back(line.substr(begin, at - begin));
    if (at == std::string::npos) return fields;
    begin = at + separator.size();
  }
}

std::string WithoutReturns(std::string text) {
  std::erase(text, '\r');
  return text;
}

// A generated trace with every kind (nested states, events, links,
// variables), its store, and dump's lines as native SQLite tables.
class QueryPeerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    trace_ = dir_->path() + "/g.trace";
    store_ = dir_->path() + "/g.mstore";
    CommandResult r = Macroscope("generate --nested --nesting 2 --punctual --links --variables --inner --events 6000 -o " +
                                 Quote(trace_));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = Macroscope("import -q " + Quote(trace_) + " -o " + Quote(store_));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = Macroscope("dump -l 9 " + Quote(trace_));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // dump's lines, by kind, as CSV files for sqlite3's .import.
    std::map<std::string, std::string> csv;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
      std::vector<std::string> f = Split(line, ", ");
      std::string& out = csv[f[0]];
      for (size_t i = 1; i < f.size(); ++i) out += (i > 1 ? "," : "") + f[i];
      out += "\n";
    }
    std::string script =
        "CREATE TABLE states(container TEXT, type TEXT, start REAL, \"end\" REAL, dur REAL, depth REAL, value TEXT);\n"
        "CREATE TABLE events(container TEXT, type TEXT, start REAL, value TEXT);\n"
        "CREATE TABLE links(container TEXT, type TEXT, start REAL, \"end\" REAL, dur REAL, value TEXT, src TEXT, "
        "dst TEXT, key TEXT);\n"
        "CREATE TABLE variables(container TEXT, type TEXT, start REAL, \"end\" REAL, dur REAL, value REAL);\n";
    for (const auto& [kind, table] : {std::pair<std::string, std::string>{"State", "states"}, {"Event", "events"},
                                      {"Link", "links"}, {"Variable", "variables"}}) {
      ASSERT_FALSE(csv[kind].empty()) << "the generated trace has no " << kind;
      WriteText(dir_->path() + "/" + table + ".csv", csv[kind]);
      script += ".import --csv " + dir_->path() + "/" + table + ".csv " + table + "\n";
    }
    database_ = dir_->path() + "/dump.sqlite";
    WriteText(dir_->path() + "/load.sql", script);
    r = RunCommand("sqlite3 " + Quote(database_) + " < " + Quote(dir_->path() + "/load.sql"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // `sql` asked of sqlite3 over dump's tables, as CSV with a header
  // (sqlite3 quotes a field with a space, where RFC 4180 does not need
  // to: the questions replace spaces in names).
  static std::string Peer(const std::string& sql) {
    CommandResult r = RunCommand("sqlite3 -csv -header " + Quote(database_) + " " + Quote(sql));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return WithoutReturns(r.out);
  }
  // `sql` asked of macroscope over `trace`, as CSV.
  static std::string Ours(const std::string& trace, const std::string& sql) {
    CommandResult r = Macroscope("query --format csv " + Quote(trace) + " " + Quote(sql));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return r.out;
  }
  // The same answer from the trace, from its store, and from the peer.
  static void ExpectSame(const std::string& ours, const std::string& peer) {
    const std::string expected = Peer(peer);
    ASSERT_NE(expected.find('\n'), expected.rfind('\n')) << "the peer's answer has no row: " << expected;
    EXPECT_EQ(Ours(trace_, ours), expected) << ours;
    EXPECT_EQ(Ours(store_, ours), expected) << ours << " (the store)";
  }

  static TempDir* dir_;
  static std::string trace_, store_, database_;
};

TempDir* QueryPeerTest::dir_ = nullptr;
std::string QueryPeerTest::trace_, QueryPeerTest::store_, QueryPeerTest::database_;

// Names with spaces ("State 1", "value 2") as sqlite3 -csv writes them
// unquoted: X is the column.
std::string Name(const std::string& column, const std::string& as) {
  return "replace(" + column + ", ' ', '_') AS " + as;
}

TEST_F(QueryPeerTest, StatesPerContainerTypeAndValue) {
  ExpectSame("SELECT c.name AS container, " + Name("s.type", "type") + ", " + Name("s.value", "value") +
                 ", count(*) AS n, sum(s.depth) AS depth, printf('%.6f', min(s.ts)) AS first, printf('%.6f', "
                 "max(s.\"end\")) AS last, printf('%.6f', max(s.dur)) AS longest FROM states s JOIN containers c ON "
                 "c.id = s.container GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
             "SELECT container, " + Name("type", "type") + ", " + Name("value", "value") +
                 ", count(*) AS n, CAST(sum(depth) AS INTEGER) AS depth, printf('%.6f', min(start)) AS first, "
                 "printf('%.6f', max(\"end\")) AS last, printf('%.6f', max(dur)) AS longest FROM states GROUP BY 1, "
                 "2, 3 ORDER BY 1, 2, 3");
}

TEST_F(QueryPeerTest, EventsPerContainerTypeAndValue) {
  ExpectSame("SELECT c.name AS container, " + Name("e.type", "type") + ", " + Name("e.value", "value") +
                 ", count(*) AS n, printf('%.6f', min(e.ts)) AS first, printf('%.6f', max(e.ts)) AS last FROM events "
                 "e JOIN containers c ON c.id = e.container GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
             "SELECT container, " + Name("type", "type") + ", " + Name("value", "value") +
                 ", count(*) AS n, printf('%.6f', min(start)) AS first, printf('%.6f', max(start)) AS last FROM "
                 "events GROUP BY 1, 2, 3 ORDER BY 1, 2, 3");
}

TEST_F(QueryPeerTest, LinksPerSenderAndReceiver) {
  ExpectSame("SELECT " + Name("l.type", "type") + ", " + Name("l.value", "value") +
                 ", a.name AS src, b.name AS dst, count(*) AS n, printf('%.6f', min(l.ts)) AS first, printf('%.6f', "
                 "max(l.\"end\")) AS last, count(DISTINCT l.key) AS keys FROM links l JOIN containers a ON a.id = "
                 "l.src JOIN containers b ON b.id = l.dst GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4",
             "SELECT " + Name("type", "type") + ", " + Name("value", "value") +
                 ", src, dst, count(*) AS n, printf('%.6f', min(start)) AS first, printf('%.6f', max(\"end\")) AS "
                 "last, count(DISTINCT key) AS keys FROM links GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4");
}

TEST_F(QueryPeerTest, VariablesPerContainerAndType) {
  ExpectSame("SELECT c.name AS container, " + Name("v.type", "type") +
                 ", count(*) AS n, printf('%.6f', min(v.value)) AS low, printf('%.6f', max(v.value)) AS high, "
                 "printf('%.6f', min(v.ts)) AS first, printf('%.6f', max(v.\"end\")) AS last FROM variables v JOIN "
                 "containers c ON c.id = v.container GROUP BY 1, 2 ORDER BY 1, 2",
             "SELECT container, " + Name("type", "type") +
                 ", count(*) AS n, printf('%.6f', min(value)) AS low, printf('%.6f', max(value)) AS high, "
                 "printf('%.6f', min(start)) AS first, printf('%.6f', max(\"end\")) AS last FROM variables GROUP BY "
                 "1, 2 ORDER BY 1, 2");
}

// A window, a container and a value: the constraints the tables use to
// read less (entity_tables.h) give the rows a full scan gives.
TEST_F(QueryPeerTest, ConstraintsGiveTheRowsOfAScan) {
  ExpectSame("SELECT " + Name("value", "value") +
                 ", depth, count(*) AS n FROM states WHERE ts < 30 AND \"end\" > 20 GROUP BY 1, 2 ORDER BY 1, 2",
             "SELECT " + Name("value", "value") +
                 ", CAST(depth AS INTEGER) AS depth, count(*) AS n FROM states WHERE start < 30 AND \"end\" > 20 "
                 "GROUP BY 1, 2 ORDER BY 1, 2");
  ExpectSame("SELECT " + Name("s.type", "type") +
                 ", printf('%.6f', s.ts) AS ts FROM states s JOIN containers c ON c.id = s.container WHERE c.name = "
                 "'c9.8.9' AND s.value = 'v5' AND s.ts >= 0 AND s.ts <= 60 ORDER BY 1, 2",
             "SELECT " + Name("type", "type") +
                 ", printf('%.6f', start) AS ts FROM states WHERE container = 'c9.8.9' AND value = 'v5' AND start >= 0 "
                 "AND start <= 60 ORDER BY 1, 2");
  ExpectSame("SELECT count(*) AS n FROM events WHERE ts = (SELECT min(ts) FROM events)",
             "SELECT count(*) AS n FROM events WHERE start = (SELECT min(start) FROM events)");
}

// Every row of every entity table, ids included, the same from the trace
// and from its store.
TEST_F(QueryPeerTest, TablesAreTheSameFromTheStore) {
  for (const char* table : {"states", "events", "links", "variables", "containers", "types"}) {
    const std::string sql = std::string("SELECT * FROM ") + table + " ORDER BY id";
    const std::string from_trace = Ours(trace_, sql);
    EXPECT_GT(std::count(from_trace.begin(), from_trace.end(), '\n'), 2) << table;
    EXPECT_EQ(Ours(store_, sql), from_trace) << table;
  }
  const std::string one = "SELECT * FROM states WHERE id = (SELECT max(id) - 1 FROM states)";
  const std::string row = Ours(trace_, one);
  EXPECT_EQ(std::count(row.begin(), row.end(), '\n'), 2) << row;
  EXPECT_EQ(Ours(store_, one), row);
}

TEST(QueryCliTest, BadSqlIsOneLineWithItsPlace) {
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/fields.trace";
  CommandResult r = Macroscope("query " + Quote(trace) + " 'SELECT *\n  FORM states'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "macroscope: SQL:2:3: near \"FORM\": syntax error\n");
  r = Macroscope("query " + Quote(trace) + " 'SELECT nope FROM states'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "macroscope: SQL:1:8: no such column: nope\n");
  r = Macroscope("query /nonexistent/trace.otf2 'SELECT 1'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/trace.otf2"), std::string::npos) << r.err;
}

// Bounds in ticks and in nanoseconds read less (a store of whole ticks)
// and select what a scan selects.
TEST(QueryCliTest, BoundsInTicksAndNanosecondsSelectWhatAScanSelects) {
  const std::string store = std::string(MACROSCOPE_SOURCE_DIR) + "/examples/gstreamer-stressed.store";
  auto csv = [&](const std::string& sql) {
    CommandResult r = Macroscope("query --format csv " + Quote(store) + " " + Quote(sql));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  const std::string rows = "SELECT id, value, dur_ns FROM states WHERE ";
  const std::string ns = "ts_ns > 2000000000 AND end_ns <= 2100000000 ORDER BY id";
  const std::string pushed = csv(rows + ns);
  EXPECT_GT(std::count(pushed.begin(), pushed.end(), '\n'), 10) << pushed;
  EXPECT_EQ(pushed, csv(rows + "ts_ns + 0 > 2000000000 AND end_ns + 0 <= 2100000000 ORDER BY id"));
  // The same window in ticks (ns ticks from the clock's zero).
  EXPECT_EQ(pushed, csv(rows + "ts > 2000000000 AND \"end\" <= 2100000000 ORDER BY id"));
  const std::string one = csv(rows + "ts_ns = 2001759118");
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 2) << one;
  EXPECT_EQ(one, csv(rows + "ts_ns + 0 = 2001759118"));
}

// Each analysis as a table gives the rows its command prints as CSV.
void ExpectSameAsCommand(const std::string& trace, const std::string& sql, const std::string& command) {
  CommandResult ours = Macroscope("query --format csv " + Quote(trace) + " " + Quote(sql));
  CommandResult theirs = Macroscope(command + " --format csv " + Quote(trace));
  ASSERT_EQ(theirs.exit_code, 0) << theirs.err;
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  EXPECT_GT(std::count(ours.out.begin(), ours.out.end(), '\n'), 1) << sql;
  EXPECT_EQ(ours.out, theirs.out) << sql << " against " << command;
}

TEST(QueryCliTest, AnalysesAreTheirCommands) {
  for (const char* file : {"gen.trace", "gen.v3.mstore"}) {
    const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/" + file;
    ExpectSameAsCommand(trace, "SELECT * FROM stats()", "stats");
    ExpectSameAsCommand(trace, "SELECT * FROM stats(100, 250.5)", "stats --start 100 --end 250.5");
    ExpectSameAsCommand(trace, "SELECT * FROM anomalies('State')", "anomalies --type State");
    ExpectSameAsCommand(trace, "SELECT * FROM anomalies('Event', 'interarrival')",
                        "anomalies --type Event --metric interarrival");
    ExpectSameAsCommand(trace, "SELECT * FROM correlation('Event', 'State')", "correlate --a Event --b State");
    ExpectSameAsCommand(trace, "SELECT * FROM correlation('Event', 'State=value 1', 5)",
                        "correlate --a Event --b 'State=value 1' --bins irregular --delta 5");
    ExpectSameAsCommand(trace, "SELECT * FROM comm()", "comm");
    ExpectSameAsCommand(trace, "SELECT * FROM comm(1, 100, 250.5)", "comm --level 1 --window 100,250.5");
    ExpectSameAsCommand(trace, "SELECT * FROM comm_histogram(6)", "comm --histogram --bins 6");
    ExpectSameAsCommand(trace, "SELECT * FROM comm_over_time(7, 100, 250.5)",
                        "comm --over-time --bins 7 --window 100,250.5");
  }
  // Two calls with other arguments in one statement each give their own rows.
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/gen.trace";
  CommandResult window = Macroscope("stats --format csv --start 100 --end 250.5 " + Quote(trace));
  CommandResult whole = Macroscope("stats --format csv " + Quote(trace));
  CommandResult both = Macroscope("query --format csv " + Quote(trace) +
                                  " 'SELECT w.*, a.* FROM stats(100, 250.5) w JOIN stats() a ON a.kind = w.kind AND "
                                  "a.type = w.type AND a.value = w.value'");
  ASSERT_EQ(both.exit_code, 0) << both.err;
  // Rows by kind, type and value (no comma in gen.trace's names).
  auto rows = [](const std::string& csv) {
    std::map<std::string, std::string> by_key;
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line);) {
      const std::vector<std::string> f = Split(line, ",");
      by_key[f[0] + "," + f[1] + "," + f[2]] = line;
    }
    return by_key;
  };
  const std::map<std::string, std::string> in_window = rows(window.out), in_whole = rows(whole.out);
  std::istringstream joined(both.out);
  size_t n = 0;
  for (std::string line; std::getline(joined, line); ++n) {
    const std::vector<std::string> f = Split(line, ",");
    ASSERT_EQ(f.size(), 14u) << line;
    const std::string key = f[0] + "," + f[1] + "," + f[2];
    EXPECT_EQ(line, in_window.at(key) + "," + in_whole.at(key));
  }
  EXPECT_GT(n, 3u);
  EXPECT_NE(window.out, whole.out);

  // A bad argument is the analysis's message.
  CommandResult r = Macroscope("query " + Quote(trace) + " \"SELECT * FROM anomalies('Nope')\"");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("macroscope: anomalies: selection 'Nope': no entity to measure", 0), 0u) << r.err;
}

// The critical path, on a trace whose messages it follows.
TEST(QueryCliTest, CriticalPathIsItsCommand) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string otf2 = SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2";
  ExpectSameAsCommand(otf2, "SELECT * FROM critical_path()", "critical-path");
  ExpectSameAsCommand(otf2, "SELECT * FROM critical_path_by('function')", "critical-path --by function");
  ExpectSameAsCommand(otf2, "SELECT * FROM critical_path_by('container')", "critical-path --by container");
  CommandResult bad = Macroscope("query " + Quote(otf2) + " \"SELECT * FROM critical_path_by('thread')\"");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("what: 'function' or 'container', not 'thread'"), std::string::npos) << bad.err;
}

// A kernel thread's critical path, on an LTTng kernel trace (interrupts,
// wakeups from other threads); the command refuses what does not fit.
TEST(QueryCliTest, ThreadCriticalPathIsItsCommand) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string trace = SharedTestData() + "/ctf/bug446190";
  ExpectSameAsCommand(trace, "SELECT * FROM thread_critical_path(403)", "critical-path --thread 403");
  ExpectSameAsCommand(trace, "SELECT * FROM thread_critical_path(403, (SELECT start FROM trace_info) + 3000000000)",
                      "critical-path --thread 403 --end +3s");
  ExpectSameAsCommand(trace, "SELECT * FROM thread_critical_path_by(338, 'state')",
                      "critical-path --thread 338 --by state");
  ExpectSameAsCommand(trace, "SELECT * FROM thread_critical_path_by(482, 'container')",
                      "critical-path --thread 482 --by container");
  auto expect_refused = [](const std::string& args, const std::string& message) {
    CommandResult r = Macroscope(args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  };
  expect_refused("critical-path " + Quote(trace), "--thread: required on a kernel trace");
  expect_refused("critical-path --thread 999999 " + Quote(trace), "--thread: no thread of tid 999999 in the trace");
  expect_refused("critical-path --thread 403 --by function " + Quote(trace), "--by: 'state' or 'container', not 'function'");
  expect_refused("query " + Quote(trace) + " \"SELECT * FROM thread_critical_path()\"", "tid: the tid of the thread");
  const std::string otf2 = SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2";
  expect_refused("critical-path --thread 1 " + Quote(otf2), "--thread: only on a kernel trace");
  expect_refused("critical-path --end +1s " + Quote(otf2), "--end: only with --thread");
  expect_refused("query " + Quote(otf2) + " \"SELECT * FROM thread_critical_path(1)\"", "tid: not a kernel trace");
}

// The kernel analyses, on a kernel trace perf recorded (CTF).
TEST(QueryCliTest, KernelAnalysesAreTheirCommands) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string trace = SharedTestData() + "/ctf/perf-taskset2";
  ExpectSameAsCommand(trace, "SELECT * FROM kernel_processes()", "kernel processes");
  ExpectSameAsCommand(trace, "SELECT * FROM kernel_processes(1834)", "kernel processes --subtree 1834");
  ExpectSameAsCommand(trace, "SELECT * FROM kernel_cpus()", "kernel processes --cpus");
}

// The communication tables, on an OTF2 trace Score-P wrote (messages with
// sizes, a four-level container tree).
TEST(QueryCliTest, CommunicationIsItsCommand) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string trace = SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2";
  ExpectSameAsCommand(trace, "SELECT * FROM comm()", "comm");
  ExpectSameAsCommand(trace, "SELECT * FROM comm(3)", "comm --level 3");
  ExpectSameAsCommand(trace, "SELECT * FROM comm_histogram()", "comm --histogram");
  ExpectSameAsCommand(trace, "SELECT * FROM comm_over_time()", "comm --over-time");
  ExpectSameAsCommand(trace, "SELECT * FROM comm_over_time(9)", "comm --over-time --bins 9");
}

// The wait states, each wait and idle time, on the same trace: the tables of `waits`.
TEST(QueryCliTest, WaitStatesAreTheirCommand) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string trace = SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2";
  ExpectSameAsCommand(trace, "SELECT * FROM wait_states()", "waits");
  ExpectSameAsCommand(trace, "SELECT * FROM idle_time()", "waits --idle");
  ExpectSameAsCommand(trace, "SELECT * FROM wait_instances()", "waits --instances");
}

// The latencies of each kind and a histogram, on LTTng's kernel trace: the
// command's CSV; a bad kind is the analysis's message.
TEST(QueryCliTest, KernelLatencyIsItsCommand) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string trace = SharedTestData() + "/ctf/bug446190";
  for (const std::string kind : {"syscall", "irq", "sched"})
    ExpectSameAsCommand(trace, "SELECT * FROM kernel_latency('" + kind + "')", "kernel latency --kind " + kind);
  ExpectSameAsCommand(trace, "SELECT * FROM kernel_latency_histogram('irq', 8, 'TIMER')",
                      "kernel latency --kind irq --histogram --bins 8 --name TIMER");
  ExpectSameAsCommand(trace, "SELECT * FROM kernel_latency_histogram('sched')", "kernel latency --kind sched --histogram");
  CommandResult r = Macroscope("query " + Quote(trace) + " \"SELECT * FROM kernel_latency('disk')\"");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("kind: syscall, irq or sched, not 'disk'"), std::string::npos) << r.err;
}

// The aggregation's parts and p list: the rows `aggregate` prints as CSV
// for the same parameters (its model cache a folder of the test's own);
// times as the tables give them, on a trace of decimal seconds, its store,
// and a store of nanosecond ticks (the command's --start in clock seconds).
TEST(QueryCliTest, AggregationsAreTheirCommand) {
  TempDir cache;
  const std::string aggregate = "aggregate --cache " + Quote(cache.path());
  for (const char* file : {"gen.trace", "gen.v3.mstore"}) {
    const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/" + file;
    ExpectSameAsCommand(trace, "SELECT * FROM aggregation(0.5)", aggregate + " --p 0.5");
    ExpectSameAsCommand(trace, "SELECT * FROM aggregation(0.3, 20, 'spatiotemporal', 100, 250.5)",
                        aggregate + " --p 0.3 --slices 20 --mode spatiotemporal --start 100 --end 250.5");
    ExpectSameAsCommand(trace, "SELECT * FROM plist()", aggregate + " --plist");
    ExpectSameAsCommand(trace, "SELECT * FROM plist(30, 'spatiotemporal')",
                        aggregate + " --plist --slices 30 --mode spatiotemporal");
  }
  const std::string store = std::string(MACROSCOPE_SOURCE_DIR) + "/examples/gstreamer-stressed.store";
  ExpectSameAsCommand(store, "SELECT * FROM aggregation(0.6, 40, 'temporal', 1500000000, 3500000000)",
                      aggregate + " --p 0.6 --slices 40 --start 1.5 --end 3.5");
  ExpectSameAsCommand(store, "SELECT * FROM plist(40, NULL, 1500000000, 3500000000)",
                      aggregate + " --plist --slices 40 --start 1.5 --end 3.5");

  // Without p, the overview's: the picture names it (3 digits) and its parts.
  const std::string picture = cache.path() + "/overview.svg";
  CommandResult r = Macroscope("overview --cache " + Quote(cache.path()) + " " + Quote(store) + " -o " +
                               Quote(picture));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = ReadText(picture);
  const size_t at = svg.find("p = ");
  ASSERT_NE(at, std::string::npos) << "the overview names no p";
  const std::string p = svg.substr(at + 4, svg.find(',', at) - at - 4);
  const std::string parts = svg.substr(svg.find(',', at) + 2, svg.find(" parts", at) - svg.find(',', at) - 2);
  ExpectSameAsCommand(store, "SELECT * FROM aggregation()", aggregate + " --p " + p);
  r = Macroscope("query --format csv " + Quote(store) + " 'SELECT count(*) AS parts FROM aggregation()'");
  EXPECT_EQ(r.out, "parts\n" + parts + "\n") << p;

  // A bad argument says which.
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/gen.trace";
  r = Macroscope("query " + Quote(trace) + " \"SELECT * FROM aggregation(0.5, 10, 'spatial')\"");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "macroscope: aggregation: mode: temporal or spatiotemporal, not 'spatial'\n");
  r = Macroscope("query " + Quote(trace) + " 'SELECT * FROM aggregation(2)'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "macroscope: aggregation: p: in [0, 1]\n");
}

// loops(): the rows `loops --emit csv` prints for the same series, and the
// phases of the command's JSON (ranges, kinds, counts, periods) and of its
// report (each phase's line and nest), on a store read chunk by chunk (a
// GStreamer thread's messages: 30 frames of 109) and a trace in memory.
void ExpectLoopsOfTheCommand(const std::string& trace, const std::string& call, const std::string& options) {
  CommandResult ours = Macroscope("query --format csv " + Quote(trace) + " " + Quote("SELECT * FROM " + call));
  CommandResult theirs = Macroscope("loops --emit csv --from " + Quote(trace) + " " + options);
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  ASSERT_EQ(theirs.exit_code, 0) << theirs.err;
  EXPECT_EQ(ours.out, theirs.out) << call;

  CommandResult rows = Macroscope("query --format json " + Quote(trace) + " " + Quote("SELECT * FROM " + call));
  CommandResult json = Macroscope("loops --emit json --from " + Quote(trace) + " " + options);
  CommandResult report = Macroscope("loops --from " + Quote(trace) + " " + options);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const nlohmann::json table = nlohmann::json::parse(rows.out);
  const nlohmann::json model = nlohmann::json::parse(json.out);
  const nlohmann::json& phases = model["phases"];
  ASSERT_EQ(table.size(), phases.size()) << call;
  size_t at = 0;
  for (size_t k = 0; k < phases.size(); ++k) {
    const nlohmann::json& row = table[k];
    const nlohmann::json& phase = phases[k];
    EXPECT_EQ(row["phase"], k);
    EXPECT_EQ(row["first"], phase["start"]);
    EXPECT_EQ(row["points"], phase["length"]);
    EXPECT_EQ(row["last"], phase["start"].get<int64_t>() + phase["length"].get<int64_t>() - 1);
    EXPECT_EQ(row["kind"], phase["kind"]);
    EXPECT_EQ(row["intervals"], phase.value("count", nlohmann::json()));
    if (phase["kind"] == "loop") {
      EXPECT_EQ(row["period"], phase.value("period", nlohmann::json()));
    }
    // The report's block of the phase, in order: its line, then its nest indented.
    const std::string head = "\nphase [" + std::to_string(row["first"].get<int64_t>()) + ", " +
                             std::to_string(row["last"].get<int64_t>()) + "] (";
    at = report.out.find(head, at);
    ASSERT_NE(at, std::string::npos) << head;
    std::string nest = "  " + row["nest"].get<std::string>() + "\n";
    for (size_t line = nest.find('\n'); line + 1 < nest.size(); line = nest.find('\n', line + 3))
      nest.insert(line + 1, "  ");
    const size_t end = report.out.find("\n\n", at + 1);
    EXPECT_NE(report.out.substr(at, end - at + 1).find("\n" + nest), std::string::npos) << head << "\n" << nest;
  }
}

TEST(QueryCliTest, LoopsAreTheirCommand) {
  const std::string store = std::string(MACROSCOPE_SOURCE_DIR) + "/examples/gstreamer-stressed.store";
  ExpectLoopsOfTheCommand(store, "loops('0x55c78197c400', 'Message', 'value')",
                          "--container 0x55c78197c400 --type Message --series value");
  ExpectLoopsOfTheCommand(store, "loops('Process 25038/0x55c78184e200', 'Level', 'duration', 'us')",
                          "--container 'Process 25038/0x55c78184e200' --type Level --series duration --unit us");
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/gen.trace";
  ExpectLoopsOfTheCommand(trace, "loops('c1.2', 'Event')", "--container c1.2 --type Event");
  ExpectLoopsOfTheCommand(trace, "loops('c0.1', 'Load', 'value')", "--container c0.1 --type Load --series value");

  // The series' errors are the command's.
  CommandResult r = Macroscope("query " + Quote(trace) + " \"SELECT * FROM loops('c0', 'State')\"");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "macroscope: loops: container 'c0' (type 'Level 1') has no type 'State'; its entity types: "
                   "Message, State 1, Load 1\n");
  r = Macroscope("query " + Quote(trace) + " \"SELECT * FROM loops('c0.1', 'Event', 'end')\"");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "macroscope: loops: --series end: 'Event' is an event type, events have no end; use start, "
                   "interarrival or value\n");
}

// The catalog is schema `catalog`, read only.
TEST(QueryCliTest, TheCatalogIsAttachedReadOnly) {
  TempDir dir;
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/gen.trace";
  const std::string catalog = dir.path() + "/catalog.sqlite";
  CommandResult r = Macroscope("catalog add --catalog " + Quote(catalog) + " " + Quote(trace));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Macroscope("query --format csv --catalog " + Quote(catalog) + " " + Quote(trace) +
                 " 'SELECT count(*) AS traces FROM catalog.traces; SELECT count(*) AS states FROM states'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "traces\n1\nstates\n186\n");
  r = Macroscope("query --catalog " + Quote(catalog) + " " + Quote(trace) + " 'DELETE FROM catalog.traces'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "macroscope: attempt to write a readonly database\n");
  r = Macroscope("query --catalog " + Quote(dir.path() + "/none.sqlite") + " " + Quote(trace) + " 'SELECT 1'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("macroscope: " + dir.path() + "/none.sqlite: cannot open the catalog", 0), 0u) << r.err;
}

// A catalog another process is writing (a transaction holding its lock
// for a moment) is waited for, as the catalog commands wait; a lock held
// past the wait is one line saying so.
TEST(QueryCliTest, ALockedCatalogIsWaitedFor) {
  TempDir dir;
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/gen.trace";
  const std::string catalog = dir.path() + "/catalog.sqlite";
  ASSERT_EQ(Macroscope("catalog add --catalog " + Quote(catalog) + " " + Quote(trace)).exit_code, 0);
  sqlite3* writer = nullptr;
  ASSERT_EQ(sqlite3_open(catalog.c_str(), &writer), SQLITE_OK);
  // Out of WAL mode, as a catalog being created is: a writer then keeps
  // readers out.
  ASSERT_EQ(sqlite3_exec(writer, "PRAGMA journal_mode = DELETE; BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  std::thread commit([writer] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    sqlite3_exec(writer, "COMMIT", nullptr, nullptr, nullptr);
  });
  const std::string query = Quote(MACROSCOPE_BINARY) + " query --format csv --catalog " + Quote(catalog) + " " +
                            Quote(trace) + " 'SELECT count(*) AS traces FROM catalog.traces'";
  CommandResult r = RunCommand(query);
  commit.join();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "traces\n1\n");

  ASSERT_EQ(sqlite3_exec(writer, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  r = RunCommand("MACROSCOPE_CATALOG_TIMEOUT_MS=100 " + query);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "macroscope: " + catalog +
                       ": the catalog is locked by another process (waited 100 ms); try again later\n");
  sqlite3_exec(writer, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(writer);
}

// On a terminal (script(1) gives it one): the shell, its dot commands, a
// statement over two lines, an error that leaves the shell running, and
// the history kept in $HOME.
TEST(QueryCliTest, TheShellOnATerminal) {
  TempDir home;
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/fields.trace";
  CommandResult r = RunCommand(
      "printf '.format csv\\nSELECT count(*) AS n\\n  FROM states;\\nSELEC 1;\\n.schema events\\n.quit\\n' | HOME=" +
      Quote(home.path()) + " script -qec " + Quote(Quote(MACROSCOPE_BINARY) + " query " + Quote(trace)) + " /dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string out = WithoutReturns(r.out);
  EXPECT_NE(out.find("query> SELECT count(*) AS n\n  ...>   FROM states;\nn\n4\n"), std::string::npos) << out;
  EXPECT_NE(out.find("SQL:1:1: near \"SELEC\": syntax error\n"), std::string::npos) << out;
  EXPECT_NE(out.find("CREATE TABLE events(\"id\" INTEGER"), std::string::npos) << out;
  // libedit writes a space as \040.
  EXPECT_NE(ReadText(home.path() + "/.macroscope_history").find("FROM\\040states;"), std::string::npos);
}

TEST(QueryCliTest, StatementsFromStandardInput) {
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/fields.trace";
  CommandResult r = RunCommand("printf 'SELECT count(*) AS n FROM states;\\nSELECT value FROM events ORDER BY ts;' | " +
                               Quote(MACROSCOPE_BINARY) + " query --format csv " + Quote(trace));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "n\n4\nvalue\nmark\nmark\n");
}

}  // namespace
}  // namespace macroscope::testing
