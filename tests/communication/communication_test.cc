// `macroscope comm`: the messages of each trace counted here from what its
// own tools print (otf2-print's MPI_SEND records, pj_dump's links, the
// Chrome JSON's flow events, the Paraver .prv's communication lines), and
// the command's tables compared with those counts, messages and bytes
// exact (tests/query compares the query's comm*() functions with the
// command).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace macroscope::testing {
namespace {

struct Tally {
  uint64_t messages = 0;
  int64_t bytes = 0;
  bool sized = true;
};
using Matrix = std::map<std::pair<std::string, std::string>, Tally>;

// A message as a peer's output gives it.
struct Message {
  std::string sender, receiver;  // container paths
  int64_t time = 0;              // ticks (OTF2)
  int64_t size = -1;             // bytes; -1: none
};

Matrix Count(const std::vector<Message>& messages) {
  Matrix m;
  for (const Message& x : messages) {
    Tally& t = m[{x.sender, x.receiver}];
    ++t.messages;
    if (x.size < 0) t.sized = false;
    else t.bytes += x.size;
  }
  return m;
}

// The first `level` names of a path.
std::string Prefix(const std::string& path, int level) {
  size_t at = 0;
  for (int i = 0; i < level; ++i) {
    at = path.find('/', i == 0 ? 0 : at + 1);
    if (at == std::string::npos) return path;
  }
  return path.substr(0, at);
}

std::vector<Message> AtLevel(std::vector<Message> messages, int level) {
  for (Message& m : messages) {
    m.sender = Prefix(m.sender, level);
    m.receiver = Prefix(m.receiver, level);
  }
  return messages;
}

// The rows of a `comm` table printed as JSON.
nlohmann::json Json(const std::string& args) {
  CommandResult r = Macroscope(args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::array();
}

Matrix FromRows(const nlohmann::json& rows) {
  Matrix m;
  for (const auto& row : rows) {
    Tally& t = m[{row.at("sender").get<std::string>(), row.at("receiver").get<std::string>()}];
    t.messages = row.at("messages").get<uint64_t>();
    t.sized = !row.at("bytes").is_null();
    if (t.sized) t.bytes = row.at("bytes").get<int64_t>();
  }
  return m;
}

std::string Show(const Matrix& m) {
  std::ostringstream out;
  for (const auto& [pair, t] : m) {
    out << pair.first << " -> " << pair.second << ": " << t.messages << " messages, ";
    if (t.sized) out << t.bytes << " bytes\n";
    else out << "no bytes\n";
  }
  return out.str();
}

void ExpectMatrix(const Matrix& expected, const std::string& args) {
  ASSERT_FALSE(expected.empty()) << args;
  EXPECT_EQ(Show(FromRows(Json(args))), Show(expected)) << args;
}

std::string Field(const std::string& line, const std::regex& pattern) {
  std::smatch m;
  return std::regex_search(line, m, pattern) ? m[1].str() : "";
}

// --- OTF2: otf2-print ------------------------------------------------------

struct Otf2Messages {
  std::vector<Message> sends;
  int64_t offset = 0, length = 0, ticks_per_second = 0;  // CLOCK_PROPERTIES
};

// Every MPI_SEND / MPI_ISEND record: its location -> Receiver's, Length; the
// locations named by the definitions (system tree / group / location).
Otf2Messages ReadWithOtf2Print(const std::string& trace) {
  Otf2Messages out;
  CommandResult defs = RunCommand("otf2-print -G " + Quote(trace));
  EXPECT_EQ(defs.exit_code, 0) << defs.err;
  const std::regex name(R"re(Name: "([^"]*)")re"), parent(R"re((?:Parent|Group): "[^"]*" <(\d+)>)re");
  std::map<std::string, std::pair<std::string, std::string>> nodes, groups, locations;  // id -> name, parent id
  std::istringstream lines(defs.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind, id;
    words >> kind >> id;
    auto* table = kind == "SYSTEM_TREE_NODE" ? &nodes : kind == "LOCATION_GROUP" ? &groups
                                                      : kind == "LOCATION"       ? &locations
                                                                                 : nullptr;
    if (table) (*table)[id] = {Field(line, name), Field(line, parent)};
    if (kind == "CLOCK_PROPERTIES") {
      out.ticks_per_second = std::stoll(Field(line, std::regex(R"re(Ticks per Seconds: (\d+))re")));
      out.offset = std::stoll(Field(line, std::regex(R"re(Global Offset: (\d+))re")));
      out.length = std::stoll(Field(line, std::regex(R"re(Length: (\d+))re")));
    }
  }
  auto path = [&](const std::string& location) {
    const auto& [loc_name, group] = locations.at(location);
    const auto& [group_name, node] = groups.at(group);
    std::string p = group_name + "/" + loc_name;
    for (std::string n = node; !n.empty(); n = nodes.at(n).second) p = nodes.at(n).first + "/" + p;
    return p;
  };
  CommandResult events = RunCommand("otf2-print " + Quote(trace));
  EXPECT_EQ(events.exit_code, 0) << events.err;
  const std::regex receiver(R"re(Receiver: \d+ \("[^"]*" <(\d+)>\))re"), length(R"re(Length: (\d+))re");
  std::istringstream records(events.out);
  for (std::string line; std::getline(records, line);) {
    std::istringstream words(line);
    std::string kind, location, time;
    words >> kind >> location >> time;
    if (kind != "MPI_SEND" && kind != "MPI_ISEND") continue;
    out.sends.push_back({path(location), path(Field(line, receiver)), std::stoll(time),
                         std::stoll(Field(line, length))});
  }
  return out;
}

class Otf2 : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    MACROSCOPE_NEEDS_SHARED_TESTDATA();
    if (RunCommand("command -v otf2-print").exit_code != 0) GTEST_SKIP() << "no otf2-print (Debian's otf2-tools)";
    trace_ = SharedTestData() + "/otf2/" + GetParam() + "/traces.otf2";
    peer_ = ReadWithOtf2Print(trace_);
    ASSERT_GT(peer_.sends.size(), 0u);
  }
  std::string trace_;
  Otf2Messages peer_;
};

TEST_P(Otf2, MatrixIsOtf2PrintsSends) {
  ExpectMatrix(Count(peer_.sends), "comm " + Quote(trace_));
}

// Ranks (3), the node (2), the machine (1); the locations at 4 (the tree's
// deepest level) as without --level.
TEST_P(Otf2, LevelsGroupByAncestor) {
  for (int level : {1, 2, 3, 4})
    ExpectMatrix(Count(AtLevel(peer_.sends, level)), "comm --level " + std::to_string(level) + " " + Quote(trace_));
  const Matrix ranks = FromRows(Json("comm --level 3 " + Quote(trace_)));
  EXPECT_EQ(ranks.size(), 2u) << Show(ranks);
}

TEST_P(Otf2, WindowSelectsBySendTime) {
  // In ticks through SQL (times as the tables' ts), both bounds inside.
  std::vector<int64_t> times;
  for (const Message& m : peer_.sends) times.push_back(m.time);
  std::sort(times.begin(), times.end());
  const int64_t a = times[times.size() / 4], b = times[times.size() * 3 / 4];
  std::vector<Message> inside;
  for (const Message& m : peer_.sends)
    if (m.time >= a && m.time <= b) inside.push_back(m);
  ASSERT_GT(inside.size(), 0u);
  ASSERT_LT(inside.size(), peer_.sends.size());
  const std::string sql =
      "SELECT * FROM comm(NULL, " + std::to_string(a) + ", " + std::to_string(b) + ") ORDER BY sender, receiver";
  ExpectMatrix(Count(inside), "query " + Quote(trace_) + " " + Quote(sql));
  // The command's --window: +OFFSETs from the trace start, from the
  // median send's whole µs (a fraction of a tick here: the sends from
  // tick ⌈us · rate / 10^6⌉ after the start).
  const int64_t us = (times[times.size() / 2] - peer_.offset) * 1000000 / peer_.ticks_per_second;
  std::vector<Message> later;
  for (const Message& m : peer_.sends)
    if ((m.time - peer_.offset) * 1000000 >= us * peer_.ticks_per_second) later.push_back(m);
  ASSERT_GT(later.size(), 0u);
  ASSERT_LT(later.size(), peer_.sends.size());
  ExpectMatrix(Count(later), "comm --window +" + std::to_string(us) + "us,+1s " + Quote(trace_));
}

// Bins of the trace's span (CLOCK_PROPERTIES: the global offset and
// length): bin k from ⌊k · length / N⌋ ticks after the start.
TEST_P(Otf2, OverTimeBinsTheSpan) {
  for (int bins : {100, 7}) {
    std::vector<int64_t> edges;
    for (int k = 0; k <= bins; ++k) edges.push_back(peer_.length * k / bins);
    std::vector<Tally> expected(bins);
    for (const Message& m : peer_.sends) {
      const int64_t t = m.time - peer_.offset;
      int k = 0;
      while (k + 1 < bins && edges[k + 1] <= t) ++k;
      ++expected[k].messages;
      expected[k].bytes += m.size;
    }
    const nlohmann::json rows =
        Json("comm --over-time" + (bins == 100 ? std::string() : " --bins " + std::to_string(bins)) + " " +
             Quote(trace_));
    ASSERT_EQ(rows.size(), static_cast<size_t>(bins));
    for (int k = 0; k < bins; ++k) {
      EXPECT_EQ(rows[k].at("start").get<int64_t>(), edges[k]) << k;
      EXPECT_EQ(rows[k].at("end").get<int64_t>(), edges[k + 1]) << k;
      EXPECT_EQ(rows[k].at("messages").get<uint64_t>(), expected[k].messages) << k;
      EXPECT_EQ(rows[k].at("bytes").get<int64_t>(), expected[k].bytes) << k;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, Otf2, ::testing::Values("ping-pong-otf2", "ping-pong-otf2-papi"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// --- Chrome: flow events -----------------------------------------------------

// catapult's flow.json: s/t/f events matched by (cat, id), an f or t
// closing the oldest open flow of its key (docs/chrome.md), in time order
// (file order at equal times).
TEST(Formats, ChromeFlowsAreTheJsonsFlowEvents) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string trace = SharedTestData() + "/chrome/flow.json";
  const nlohmann::json doc = nlohmann::json::parse(ReadText(trace));
  const nlohmann::json& events = doc.is_array() ? doc : doc.at("traceEvents");
  struct Point {
    double ts;
    size_t order;
    std::string ph, key, thread;
  };
  std::vector<Point> points;
  // Threads as docs/chrome.md names their containers: process_name and
  // thread_name metadata, else "Process PID" / "Thread TID".
  std::map<std::string, std::string> names;
  auto id = [](const nlohmann::json& e, const char* key) { return std::to_string(e.at(key).get<int64_t>()); };
  for (const auto& e : events) {
    if (e.value("ph", "") != "M") continue;
    if (e.value("name", "") == "process_name") names[id(e, "pid")] = e.at("args").at("name").get<std::string>();
    if (e.value("name", "") == "thread_name")
      names[id(e, "pid") + "/" + id(e, "tid")] = e.at("args").at("name").get<std::string>();
  }
  auto path = [&](const std::string& thread) {
    const std::string pid = thread.substr(0, thread.find('/')), tid = thread.substr(thread.find('/') + 1);
    return (names.count(pid) ? names.at(pid) : "Process " + pid) + "/" +
           (names.count(thread) ? names.at(thread) : "Thread " + tid);
  };
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    const std::string ph = e.value("ph", "");
    if (ph != "s" && ph != "t" && ph != "f") continue;
    points.push_back({e.at("ts").get<double>(), i, ph, e.value("cat", "") + "\x1f" + e.at("id").get<std::string>(),
                      id(e, "pid") + "/" + id(e, "tid")});
  }
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.ts < b.ts; });
  std::map<std::string, std::deque<std::string>> open;  // key -> threads of the open flows' starts
  std::map<std::pair<std::string, std::string>, uint64_t> flows;
  uint64_t total = 0;
  for (const Point& p : points) {
    if (p.ph != "s") {
      auto& queue = open[p.key];
      if (queue.empty()) continue;  // an end without a start: dropped
      ++flows[{queue.front(), p.thread}];
      ++total;
      queue.pop_front();
    }
    if (p.ph != "f") open[p.key].push_back(p.thread);
  }
  EXPECT_EQ(total, 846u);  // docs/chrome.md: 866 s, 886 f give 846 links
  Matrix expected;
  for (const auto& [pair, n] : flows) expected[{path(pair.first), path(pair.second)}] = {n, 0, false};
  EXPECT_EQ(Show(FromRows(Json("comm " + Quote(trace)))), Show(expected));
  // --containers: the flows that one process sends or receives.
  Matrix one;
  for (const auto& [pair, t] : expected)
    if (pair.first.rfind("Process 23915/", 0) == 0 || pair.second.rfind("Process 23915/", 0) == 0) one[pair] = t;
  ASSERT_GT(one.size(), 0u);
  ASSERT_LT(one.size(), expected.size());
  EXPECT_EQ(Show(FromRows(Json("comm " + Quote(trace) + " --containers 'Process 23915'"))), Show(one));
}

// --- Paraver: communication records ----------------------------------------

// Two applications' worth of threads (appl 1: tasks of 2 and 1 threads)
// exchanging communications of several sizes, one received before it was
// sent (clocks apart); its .row names the threads.
constexpr char kPrv[] =
    "#Paraver (29/11/26 at 10:00):9000_ns:1(3):1:2(2:1,1:1)\n"
    "1:1:1:1:1:0:9000:1\n"
    "1:2:1:1:2:0:9000:1\n"
    "1:3:1:2:1:0:9000:1\n"
    "3:1:1:1:1:100:110:3:1:2:1:150:160:64:1\n"
    "3:1:1:1:1:200:210:3:1:2:1:250:260:64:1\n"
    "3:2:1:1:2:300:310:1:1:1:1:350:360:4096:2\n"
    "3:3:1:2:1:400:410:2:1:1:2:450:460:100000:3\n"
    "3:1:1:1:1:500:510:2:1:1:2:550:560:0:4\n"
    "3:3:1:2:1:700:710:1:1:1:1:600:690:512:5\n"
    "3:1:1:1:1:800:810:3:1:2:1:850:860:64:1\n";
constexpr char kRow[] =
    "LEVEL NODE SIZE 1\nnode-a\n\n"
    "LEVEL THREAD SIZE 3\nTHREAD 1.1.1 main\nTHREAD 1.1.2 helper\nTHREAD 1.2.1 main\n";

// The communications of a .prv file's lines, by the places of their ends
// (appl.task.thread, or its first `level` numbers), against `comm`'s rows,
// whose containers (APPL a, TASK a.t, THREAD a.t.th NAME: docs/paraver.md)
// are named by the place in their last name's second word.
void ExpectParaverLines(const std::string& prv, const std::string& text) {
  for (int level : {0, 1, 2, 3}) {
    Matrix expected;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      // 3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
      if (line.rfind("3:", 0) != 0) continue;
      std::vector<std::string> f;
      std::istringstream fields(line);
      for (std::string x; std::getline(fields, x, ':');) f.push_back(x);
      ASSERT_EQ(f.size(), 15u) << line;
      auto place = [&](size_t at) {
        std::string p = f[at];
        for (int i = 1; i < (level == 0 ? 3 : level); ++i) p += "." + f[at + i];
        return p;
      };
      Tally& t = expected[{place(2), place(8)}];
      ++t.messages;
      t.bytes += std::stoll(f[13]);
    }
    ASSERT_FALSE(expected.empty()) << prv;
    Matrix got;
    auto place = [](const std::string& path) {
      std::istringstream words(path.substr(path.rfind('/') + 1));
      std::string kind, number;
      words >> kind >> number;
      return number;
    };
    const std::string args = "comm " + (level == 0 ? "" : "--level " + std::to_string(level) + " ") + Quote(prv);
    for (const auto& [pair, t] : FromRows(Json(args))) got[{place(pair.first), place(pair.second)}] = t;
    EXPECT_EQ(Show(got), Show(expected)) << args;
  }
}

TEST(Formats, ParaverCommunicationsAreThePrvLines) {
  TempDir dir;
  const std::string prv = dir.path() + "/comm.prv";
  WriteText(prv, kPrv);
  WriteText(dir.path() + "/comm.row", kRow);
  ExpectParaverLines(prv, kPrv);
  const std::string suite = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/query/data/suite.prv";
  ExpectParaverLines(suite, ReadText(suite));
}

// --- Options refused -------------------------------------------------------

TEST(Formats, BadOptionsExitOneWithAMessage) {
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/gen.trace";
  struct Case {
    std::string args, message;
  };
  for (const Case& c : std::vector<Case>{
           {"--level 0", "--level 0: beyond the container tree"},
           {"--level 99", "--level 99: beyond the container tree"},
           {"--histogram --bins 0", "--bins 0: from 1 to 1000000"},
           {"--over-time --bins 0", "--bins 0: from 1 to 1000000"},
           {"--bins 5", "--bins is for --histogram or --over-time"},
           {"--histogram --over-time", "--histogram and --over-time: one at a time"},
           {"--window 5", "--window '5': expected START,END"},
           {"--window 9,2", "empty time window"},
           {"--containers nope", "--containers: unknown container 'nope'"},
       }) {
    CommandResult r = Macroscope("comm " + c.args + " " + Quote(trace));
    EXPECT_EQ(r.exit_code, 1) << c.args << "\n" << r.out << r.err;
    EXPECT_EQ(r.err.rfind("macroscope: " + c.message, 0), 0u) << c.args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c.args;
  }
  CommandResult sql = Macroscope("query " + Quote(trace) + " 'SELECT * FROM comm_histogram(0)'");
  EXPECT_EQ(sql.exit_code, 1);
  EXPECT_NE(sql.err.find("bins 0: from 1 to 1000000"), std::string::npos) << sql.err;
}

// --- Pajé: a trace SimGrid writes, against pj_dump -------------------------

TEST(Paje, SimGridLinksArePjDumpsLinks) {
  const char* trace = std::getenv("MACROSCOPE_SIMGRID_ACTOR");
  if (!trace || !std::ifstream(trace)) GTEST_SKIP() << "no SimGrid trace (the paje.simgrid_trace.actor fixture)";
  CommandResult dump = RunCommand("pj_dump " + Quote(trace));
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  // "Container, parent, type, start, end, duration, name" and "Link,
  // container, type, start, end, duration, value, start container, end
  // container": containers by name, their paths from their parents.
  std::map<std::string, std::string> parent;
  std::vector<std::pair<std::string, std::string>> links;
  std::istringstream lines(dump.out);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x.substr(std::min(x.size(), x.find_first_not_of(' '))));
    if (f.empty()) continue;
    if (f[0] == "Container" && f.size() >= 7) parent[f[6]] = f[1];
    if (f[0] == "Link" && f.size() >= 9) links.push_back({f[7], f[8]});
  }
  ASSERT_GT(links.size(), 0u);
  auto path = [&](std::string name) {
    std::string p = name;
    while (parent.count(name) && parent.at(name) != "0") {
      name = parent.at(name);
      p = name + "/" + p;
    }
    return p;
  };
  std::vector<Message> messages;
  for (const auto& [from, to] : links) messages.push_back({path(from), path(to), 0, -1});
  ExpectMatrix(Count(messages), "comm " + Quote(trace));
  ExpectMatrix(Count(AtLevel(messages, 1)), "comm --level 1 " + Quote(trace));
}

}  // namespace
}  // namespace macroscope::testing
