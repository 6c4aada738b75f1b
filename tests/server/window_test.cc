// The window's level of detail against the trace model read in the test:
// every entity that intersects the window is accounted for exactly once
// (an item, or inside one summary), items are at least one pixel wide, and
// a row holds a bounded number of primitives whatever the zoom.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "formats/format.h"
#include "model/trace.h"
#include "serve_process.h"

namespace macroscope::server::testing {
namespace {

struct Counts {
  size_t shown = 0, hidden = 0;
};

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
  auto window = GetJson(client, path);
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
  auto window = GetJson(*client, "/api/traces/0/window?start=" + std::to_string(trace.start_time()) +
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
  auto window = GetJson(*client, "/api/traces/1/window?start=" + std::to_string(trace.start_time()) +
                                     "&end=" + std::to_string(trace.end_time() + 1) + "&width=10");
  size_t primitives = 0;
  for (const auto& row : window["rows"]) primitives += row["items"].size() + row["summaries"].size();
  EXPECT_GT(window["hidden"].get<size_t>(), 10 * primitives);
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
  auto only_states = GetJson(*client, "/api/traces/0/window?" + span + "&width=100&types=" +
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
  auto one = GetJson(*client, "/api/traces/0/window?" + span + "&width=100&containers=" + std::to_string(container));
  for (const auto& row : one["rows"]) EXPECT_EQ(row["container"], container);
}

}  // namespace
}  // namespace macroscope::server::testing
