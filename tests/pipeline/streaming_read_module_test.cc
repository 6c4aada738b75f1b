// The read module: a workflow read -> sink gets, in batches, the entities
// of the in-memory model (every column, user fields: entity_testing.h),
// each batch with its trace and time base; bad inputs fail in the factory
// (a missing file) or in the run (a bad trace), naming the file; CTF's
// events mode counts per event name as babeltrace2 does.
#include <future>
#include <map>
#include <set>

#include "ctf_test_support.h"
#include "pipeline/registry.h"
#include "pipeline/workflow.h"
#include "streaming_test_support.h"
#include "util/error.h"

namespace macroscope::streaming_test {
namespace {

using pipeline::EntityBatch;
using pipeline::Params;

// Checks each batch and keeps its entities; at the end of the stream (the
// source complete), a line per entity and the events per name.
class Collect : public pipeline::Module {
 public:
  explicit Collect(std::string name) : Module(std::move(name)), in_(AddInput<EntityBatch>("in")) {}
  void Run() override {
    EntityBatch all;
    while (const EntityBatch* b = in_.Next()) {
      ++batches;
      EXPECT_TRUE(b->trace != nullptr);
      EXPECT_LE(b->entities(), 4096u);
      bases.insert(b->base.den);
      for (size_t k = 0; k < b->chunks(); ++k) all.Append(b->chunk(k));
      all.trace = b->trace;
    }
    if (all.empty()) return;
    for (const std::string& line : pipeline::testing::Lines(all)) lines.insert(line);
    for (size_t k = 0; k < all.chunks(); ++k) {
      const EntityChunk c = all.chunk(k);
      if (c.kind == TypeKind::kEvent)
        for (size_t i = 0; i < c.size(); ++i) ++names[std::string(all.Str(c.Value(i)))];
    }
  }
  std::multiset<std::string> lines;
  std::map<std::string, uint64_t, std::less<>> names;
  std::set<uint64_t> bases;
  size_t batches = 0;

 private:
  pipeline::Input<EntityBatch>& in_;
};

std::multiset<std::string> ModelEntityLines(const std::string& file, bool events_only = false) {
  Trace trace;
  formats::ReadOptions options;
  options.events_only = events_only;
  formats::ReadTrace({file}, options, trace);
  const std::vector<std::string> lines = pipeline::testing::Lines(trace);
  return {lines.begin(), lines.end()};
}

std::unique_ptr<pipeline::Module> MakeRead(const nlohmann::json& params) {
  const pipeline::ModuleInfo* info = pipeline::FindModule("read");
  EXPECT_NE(info, nullptr);
  return info->make("read", Params("read", params));
}

// Runs read(params) -> collect under a watchdog.
Collect& RunRead(pipeline::Workflow& workflow, const nlohmann::json& params) {
  workflow.Add(MakeRead(params));
  auto& collect = static_cast<Collect&>(workflow.Add(std::make_unique<Collect>("collect")));
  workflow.Link("read", "out", "collect", "in");
  auto done = std::async(std::launch::async, [&] { workflow.Run(); });
  if (done.wait_for(std::chrono::seconds(120)) != std::future_status::ready) {
    workflow.Cancel();
    ADD_FAILURE() << "the workflow hangs";
  }
  done.get();
  return collect;
}

TEST(StreamingReadModule, GivesTheModelsEntitiesInBatches) {
  TempDir dir;
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/examples/synthetic.trace";
  pipeline::Workflow workflow;
  Collect& collect = RunRead(workflow, {{"input", trace}});
  const auto expected = ModelEntityLines(trace);
  EXPECT_EQ(collect.lines.size(), expected.size());
  EXPECT_EQ(collect.lines, expected);
  EXPECT_GT(collect.batches, 0u);
  const auto* read = workflow.Find("read");
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->files_read(), std::vector<std::string>{trace});
}

TEST(StreamingReadModule, UserFieldsAndEveryKind) {
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/traces/user_fields.trace";
  pipeline::Workflow workflow;
  Collect& collect = RunRead(workflow, {{"input", nlohmann::json::array({trace})}});
  EXPECT_EQ(collect.lines, ModelEntityLines(trace));
}

TEST(StreamingReadModule, CtfEventsCountPerNameAsBabeltrace) {
  const std::string dir = std::string(MACROSCOPE_SOURCE_DIR) + "/fuzz/ctf_trace";
  pipeline::Workflow workflow;
  Collect& collect = RunRead(workflow, {{"input", dir}, {"events", "true"}});
  EXPECT_EQ(collect.names, ctf::testing::CountsPerName(ctf::testing::BabeltraceEvents(dir)));
  EXPECT_EQ(collect.lines, ModelEntityLines(dir, true));
  EXPECT_EQ(collect.bases, std::set<uint64_t>{1000000000}) << "ns from the first batch on";
}

TEST(StreamingReadModule, MissingFileIsRefusedBeforeRunning) {
  try {
    MakeRead({{"input", "/no/such/trace.paje"}});
    FAIL() << "accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("/no/such/trace.paje"), std::string::npos) << e.what();
  }
  EXPECT_THROW(MakeRead(nlohmann::json::object()), UserError);
  EXPECT_THROW(MakeRead({{"input", "x"}, {"typo", 1}}), UserError);
}

TEST(StreamingReadModule, BadTraceFailsTheWorkflowNamingTheFile) {
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/bad/unknown_container.trace";
  pipeline::Workflow workflow;
  try {
    RunRead(workflow, {{"input", trace}});
    FAIL() << "no failure";
  } catch (const UserError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'read'"), std::string::npos) << what;
    EXPECT_NE(what.find("unknown_container.trace"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace macroscope::streaming_test
