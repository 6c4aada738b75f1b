// The window's level of detail against the trace model read in the test:
// every entity that intersects the window is accounted for exactly once
// (an item, or inside one summary), items are at least one pixel wide, and
// a row holds a bounded number of primitives whatever the zoom. Answers are
// decoded from their compact form first (Window below), so that the checks
// read as the contract does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "formats/format.h"
#include "model/trace.h"
#include "serve_process.h"

namespace macroscope::server::testing {
namespace {

// The field names of an item and of a summary of each kind, in their
// order on the wire (docs/serve.md); "value" is an index in "values".
struct Fields {
  std::vector<std::string> item, summary;
};
const std::map<std::string, Fields> kFields = {
    {"state", {{"id", "start", "end", "value", "level"}, {"start", "end", "value", "level", "count"}}},
    {"event", {{"id", "start", "value"}, {"start", "end", "value", "count"}}},
    {"variable", {{"id", "start", "end", "number"}, {"start", "end", "min", "max", "count"}}},
    {"link", {{"id", "start", "end", "value", "from", "to"}, {"start", "end", "value", "count"}}},
};

// One positional array as an object, its value index replaced by the name.
nlohmann::json Named(const nlohmann::json& array, const std::vector<std::string>& names,
                     const nlohmann::json& values) {
  EXPECT_EQ(array.size(), names.size()) << array.dump();
  nlohmann::json object = nlohmann::json::object();
  for (size_t k = 0; k < names.size() && k < array.size(); ++k) object[names[k]] = array[k];
  if (object.contains("value")) {
    const size_t index = object["value"];
    EXPECT_LT(index, values.size()) << array.dump();
    object["value"] = index < values.size() ? values[index] : nlohmann::json();
  }
  return object;
}

// The compact answer with its items and summaries as objects.
nlohmann::json Decoded(nlohmann::json window) {
  const nlohmann::json& values = window["values"];
  for (auto& row : window["rows"]) {
    const Fields& fields = kFields.at(row["kind"]);
    for (auto& item : row["items"]) item = Named(item, fields.item, values);
    for (auto& summary : row["summaries"]) summary = Named(summary, fields.summary, values);
  }
  return window;
}

// The values named by a decoded window's items and summaries.
std::set<std::string> ValuesUsed(const nlohmann::json& window) {
  std::set<std::string> used;
  for (const auto& row : window["rows"]) {
    for (const char* list : {"items", "summaries"}) {
      for (const auto& primitive : row[list]) {
        if (primitive.contains("value")) used.insert(primitive["value"].get<std::string>());
      }
    }
  }
  return used;
}

// GET a window, decoded.
nlohmann::json Window(httplib::Client& client, const std::string& path) {
  return Decoded(GetJson(client, path));
}

// Entities of the window per row (container, type), as Trace::Entities
// gives them; links in the row of their start container.
std::map<std::pair<uint32_t, uint32_t>, size_t> ExpectedRows(const Trace& trace, double start, double end) {
  std::map<std::pair<uint32_t, uint32_t>, size_t> rows;
  for (const EntityStore& s : trace.stores()) {
    for (uint32_t i : trace.Entities(s.type, s.container, start, end)) {
      ContainerId row = s.kind == TypeKind::kLink ? s.peer_start[i] : s.container;
      ++rows[{row, s.type}];
    }
  }
  return rows;
}

void CheckWindow(httplib::Client& client, const Trace& trace, size_t trace_id, double start, double end,
                 int width) {
  SCOPED_TRACE("window [" + std::to_string(start) + ", " + std::to_string(end) + "] at " + std::to_string(width));
  char path[256];
  std::snprintf(path, sizeof path, "/api/traces/%zu/window?start=%.17g&end=%.17g&width=%d", trace_id, start, end,
                width);
  auto window = Window(client, path);
  const double pixel = (end - start) / width;
  auto expected = ExpectedRows(trace, start, end);
  std::map<std::pair<uint32_t, uint32_t>, size_t> answered;
  size_t shown = 0, hidden = 0;
  std::set<std::string> ids;
  for (const auto& row : window["rows"]) {
    const std::pair<uint32_t, uint32_t> key{row["container"], row["type"]};
    const std::string kind = row["kind"];
    std::map<int, size_t> per_level;
    for (const auto& item : row["items"]) {
      ++answered[key];
      ++shown;
      if (kind == "link") {
        EXPECT_TRUE(item.contains("from") && item.contains("to")) << item.dump();
      } else if (kind != "event") {
        const double length = std::fabs(item["end"].get<double>() - item["start"].get<double>());
        EXPECT_GE(length, pixel * (1 - 1e-9)) << item.dump();
      }
      EXPECT_TRUE(ids.insert(item["id"].get<std::string>()).second) << "twice: " << item.dump();
      // The item's own entity intersects the window.
      auto entity = GetJson(client, "/api/traces/" + std::to_string(trace_id) + "/entity/" +
                                        item["id"].get<std::string>());
      const double a = std::min(entity["start"].get<double>(), entity["end"].get<double>());
      const double b = std::max(entity["start"].get<double>(), entity["end"].get<double>());
      EXPECT_TRUE(a <= end && b >= start) << entity.dump();
      if (item.contains("value")) {
        EXPECT_EQ(item["value"], entity["value"]) << item.dump();
      }
      ++per_level[item.value("level", 0)];
    }
    for (const auto& summary : row["summaries"]) {
      const size_t count = summary["count"];
      EXPECT_GE(count, 1u);
      answered[key] += count;
      hidden += count;
      EXPECT_LE(summary["start"].get<double>(), end);
      EXPECT_GE(summary["end"].get<double>(), start);
      ++per_level[summary.value("level", 0)];
    }
    // A few primitives per pixel and level, whatever the number of entities.
    for (const auto& [level, primitives] : per_level) EXPECT_LE(primitives, 5u * width + 2) << "level " << level;
  }
  EXPECT_EQ(answered, expected);
  EXPECT_EQ(window["shown"].get<size_t>(), shown);
  EXPECT_EQ(window["hidden"].get<size_t>(), hidden);
}

class WindowTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // A generated trace with nesting, events, links and variables, beside
    // the bundled example; its stores are big enough (over 4096 entities)
    // that narrow windows go through the interval index and wide ones
    // through the sequential pass, and its rows hold enough entities (over
    // 200,000) that wide windows are answered by several threads.
    generated_ = ::testing::TempDir() + "server_window_generated.trace";
    RunMacroscope("generate --depth 1 --arity 6 --events 500000 --nested --punctual --links --variables -o '" +
                  generated_ + "'");
    for (const std::string& file : {SourcePath("examples/synthetic.trace"), generated_}) {
      traces_.emplace_back();
      formats::ReadTrace({file}, {}, traces_.back());
      traces_.back().BuildIndexes();
    }
    serve_ = new ServeProcess({SourcePath("examples/synthetic.trace"), generated_});
  }
  static void TearDownTestSuite() {
    delete serve_;
    serve_ = nullptr;
    traces_.clear();
  }

  static ServeProcess* serve_;
  static std::list<Trace> traces_;
  static std::string generated_;
};

ServeProcess* WindowTest::serve_ = nullptr;
std::list<Trace> WindowTest::traces_;
std::string WindowTest::generated_;

TEST_F(WindowTest, EveryEntityAccountedForOnce) {
  auto client = serve_->Client();
  size_t id = 0;
  for (const Trace& trace : traces_) {
    const double t0 = trace.start_time(), t1 = trace.end_time(), span = t1 - t0;
    CheckWindow(*client, trace, id, t0, t1, 1);
    CheckWindow(*client, trace, id, t0, t1, 200);
    CheckWindow(*client, trace, id, t0 + 0.3 * span, t0 + 0.35 * span, 150);
    CheckWindow(*client, trace, id, t0 + 0.5 * span, t0 + 0.5 * span + span * 1e-4, 100);
    // Wider than the trace on both sides.
    CheckWindow(*client, trace, id, t0 - span, t1 + span, 64);
    ++id;
  }
}

// The example's 34 links all start and end at the same instant: never a
// pixel wide, yet each one alone in its column comes as an item with both
// ends, so the UI can draw its arrow and inspect it.
TEST_F(WindowTest, InstantLinksComeWithTheirEnds) {
  auto client = serve_->Client();
  const Trace& trace = traces_.front();
  auto window = Window(*client, "/api/traces/0/window?start=" + std::to_string(trace.start_time()) +
                                    "&end=" + std::to_string(trace.end_time()) + "&width=4000");
  size_t link_items = 0, links_summarised = 0;
  for (const auto& row : window["rows"]) {
    if (row["kind"] != "link") continue;
    for (const auto& item : row["items"]) {
      EXPECT_EQ(item["start"], item["end"]);
      EXPECT_TRUE(item["from"].is_number() && item["to"].is_number()) << item.dump();
      ++link_items;
    }
    for (const auto& summary : row["summaries"]) links_summarised += summary["count"].get<size_t>();
  }
  EXPECT_EQ(link_items + links_summarised, trace.CountEntities(TypeKind::kLink));
  EXPECT_GT(link_items, trace.CountEntities(TypeKind::kLink) / 2);
}

TEST_F(WindowTest, FullSpanIsSummarised) {
  // At one pixel per trace the generated trace's thousands of states turn
  // into a handful of primitives per row.
  auto client = serve_->Client();
  const Trace& trace = traces_.back();
  auto window = Window(*client, "/api/traces/1/window?start=" + std::to_string(trace.start_time()) +
                                    "&end=" + std::to_string(trace.end_time() + 1) + "&width=10");
  size_t primitives = 0;
  for (const auto& row : window["rows"]) primitives += row["items"].size() + row["summaries"].size();
  EXPECT_GT(window["hidden"].get<size_t>(), 10 * primitives);
}

// The value table holds each value the answer names once, sorted, and
// nothing else; and names come out right: asked for one value only, every
// item and summary but variables' decodes to that value.
TEST_F(WindowTest, ValueTableRoundTrips) {
  auto client = serve_->Client();
  size_t id = 0;
  for (const Trace& trace : traces_) {
    SCOPED_TRACE("trace " + std::to_string(id));
    const std::string path = "/api/traces/" + std::to_string(id++) + "/window?start=" +
                             std::to_string(trace.start_time()) + "&end=" + std::to_string(trace.end_time()) +
                             "&width=300";
    const auto raw = GetJson(*client, path);
    const auto names = raw["values"].get<std::vector<std::string>>();
    ASSERT_FALSE(names.empty());
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << "a value twice";
    EXPECT_EQ(ValuesUsed(Decoded(raw)), std::set<std::string>(names.begin(), names.end()));
    for (const std::string& name : names) {
      const auto only = Window(*client, path + "&values=" + UrlEncoded(name));
      EXPECT_EQ(only["values"], nlohmann::json::array({name}));
      EXPECT_EQ(ValuesUsed(only), std::set<std::string>{name});
    }
  }
}

TEST_F(WindowTest, Filters) {
  auto client = serve_->Client();
  const Trace& trace = traces_.front();
  const std::string span = "start=" + std::to_string(trace.start_time()) + "&end=" + std::to_string(trace.end_time());
  auto detail = GetJson(*client, "/api/traces/0");
  uint32_t state_type = 0;
  for (const auto& t : detail["types"])
    if (t["name"] == "State") state_type = t["id"];
  ASSERT_NE(state_type, 0u);
  auto only_states = Window(*client, "/api/traces/0/window?" + span + "&width=100&types=" +
                                         std::to_string(state_type) + "&values=value%201,value%202");
  ASSERT_FALSE(only_states["rows"].empty());
  size_t count = 0;
  for (const auto& row : only_states["rows"]) {
    EXPECT_EQ(row["type"], state_type);
    for (const auto& item : row["items"]) {
      EXPECT_TRUE(item["value"] == "value 1" || item["value"] == "value 2") << item.dump();
      ++count;
    }
    for (const auto& summary : row["summaries"]) count += summary["count"].get<size_t>();
  }
  auto stats = GetJson(*client, "/api/traces/0/stats");
  size_t expected = 0;
  for (const auto& row : stats["rows"])
    if (row["type"] == "State" && (row["value"] == "value 1" || row["value"] == "value 2")) {
      expected += row["count"].get<size_t>();
    }
  EXPECT_EQ(count, expected);
  // One row only: the first container that has states.
  const uint32_t container = only_states["rows"][0]["container"];
  auto one = Window(*client, "/api/traces/0/window?" + span + "&width=100&containers=" + std::to_string(container));
  for (const auto& row : one["rows"]) EXPECT_EQ(row["container"], container);
}

}  // namespace
}  // namespace macroscope::server::testing
