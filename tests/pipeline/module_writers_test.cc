// write-csv and write-json (content read back exactly, atomic), write-paje
// and write-store (read back by the project's readers: the same entities,
// types and containers).
#include <cstdio>
#include <filesystem>
#include <set>

#include "formats/format.h"
#include "module_testing.h"
#include "store/store.h"
#include "test_support.h"

namespace macroscope::pipeline {
namespace {

using macroscope::testing::ReadText;
using macroscope::testing::TempDir;
using testing::ErrorOf;
using testing::MakeSample;
using testing::WriteEntities;
using testing::WriteRows;

RowBatch SampleRows() {
  RowBatch rows;
  rows.columns = {"name", "n", "x"};
  rows.cells = {std::string("plain"),
                int64_t{3},
                0.1,
                std::string("a,b \"q\""),
                int64_t{-7},
                1e300,
                Cell(),
                INT64_MAX,
                1.0 / 3,
                std::string("two\nlines"),
                int64_t{0},
                -0.0};
  return rows;
}

TEST(WriteCsvModule, HeaderAndRowsQuoted) {
  TempDir dir;
  const std::string path = dir.path() + "/out.csv";
  RowBatch first = SampleRows(), second = SampleRows();
  first.cells.resize(6);
  second.cells.erase(second.cells.begin(), second.cells.begin() + 6);
  const auto written = WriteRows(WriteCsvModule(), {{"path", path}}, {first, second});
  EXPECT_EQ(written, std::vector<std::string>{path});
  EXPECT_EQ(ReadText(path),
            "name,n,x\n"
            "plain,3,0.1\n"
            "\"a,b \"\"q\"\"\",-7,1e+300\n"
            ",9223372036854775807,0.3333333333333333\n"
            "\"two\nlines\",0,-0\n");
}

TEST(WriteCsvModule, NoRowsGivesTheHeader) {
  TempDir dir;
  const std::string path = dir.path() + "/counts.csv";
  // count on no entities sends its columns, without rows.
  Workflow w;
  w.Add(std::make_unique<testing::Source<EntityBatch>>("source", std::vector<EntityBatch>{}));
  w.Add(testing::Make(CountModule(), "count", {{"by", "type+value"}}));
  w.Add(testing::Make(WriteCsvModule(), "write", {{"path", path}}));
  w.Link("source", "out", "count", "in");
  w.Link("count", "rows", "write", "in");
  w.Run();
  EXPECT_EQ(ReadText(path), "type,value,count\n");
}

// Publishes one batch, then fails.
class FailingSource : public Module {
 public:
  FailingSource() : Module("source") { out_ = &AddOutput<RowBatch>("out"); }
  void Run() override {
    RowBatch& slot = out_->Claim();
    slot = SampleRows();
    out_->Publish();
    throw UserError("the source broke");
  }

 private:
  Output<RowBatch>* out_;
};

TEST(WriteCsvModule, NothingWrittenWhenTheWorkflowFails) {
  TempDir dir;
  for (const ModuleInfo& info : {WriteCsvModule(), WriteJsonModule()}) {
    const std::string path = dir.path() + "/out." + std::string(info.kind);
    Workflow w;
    w.Add(std::make_unique<FailingSource>());
    w.Add(testing::Make(info, "write", {{"path", path}}));
    w.Link("source", "out", "write", "in");
    EXPECT_NE(ErrorOf([&] { w.Run(); }).find("the source broke"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path)) << info.kind;
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 0) << "no temporary file left";
  }
}

TEST(WriteJsonModule, ArrayOfObjectsInColumnOrder) {
  TempDir dir;
  const std::string path = dir.path() + "/out.json";
  WriteRows(WriteJsonModule(), {{"path", path}}, {SampleRows()});
  const auto json = nlohmann::ordered_json::parse(ReadText(path));
  ASSERT_TRUE(json.is_array());
  ASSERT_EQ(json.size(), 4u);
  EXPECT_EQ(json[0].dump(), R"({"name":"plain","n":3,"x":0.1})");
  EXPECT_EQ(json[1]["name"], "a,b \"q\"");
  EXPECT_EQ(json[1]["x"].get<double>(), 1e300);
  EXPECT_TRUE(json[2]["name"].is_null());
  EXPECT_EQ(json[2]["n"].get<int64_t>(), INT64_MAX);
  EXPECT_EQ(json[2]["x"].get<double>(), 1.0 / 3);
  EXPECT_EQ(json[3]["name"], "two\nlines");
}

TEST(WriteJsonModule, NoRowsGivesAnEmptyArray) {
  TempDir dir;
  const std::string path = dir.path() + "/out.json";
  RowBatch empty;
  empty.columns = {"a"};
  WriteRows(WriteJsonModule(), {{"path", path}}, {empty});
  EXPECT_EQ(nlohmann::json::parse(ReadText(path)), nlohmann::json::array());
}

TEST(WriteModules, PathRequired) {
  for (const ModuleInfo& info : {WriteCsvModule(), WriteJsonModule(), WritePajeModule(), WriteStoreModule()}) {
    EXPECT_NE(ErrorOf([&] {
                testing::Make(info, "w", nlohmann::json::object());
              }).find("module 'w': missing parameter 'path'"),
              std::string::npos)
        << info.kind;
    EXPECT_NE(ErrorOf([&] {
                testing::Make(info, "w", {{"path", ""}});
              }).find("parameter 'path'"),
              std::string::npos)
        << info.kind;
  }
}

// Every entity of a trace or a batch as a line (entity_testing.h), sorted.
template <class Entities>
std::multiset<std::string> EntitiesOf(const Entities& entities) {
  const std::vector<std::string> lines = testing::Lines(entities);
  return {lines.begin(), lines.end()};
}

std::vector<std::string> ContainerNames(const Trace& t) {
  std::vector<std::string> names;
  for (const Container& c : t.containers()) names.emplace_back(t.Str(c.name));
  return names;
}

std::vector<std::string> TypeNames(const Trace& t) {
  std::vector<std::string> names;
  for (const Type& ty : t.types())
    names.push_back(std::string(TypeKindName(ty.kind)) + " " + std::string(t.Str(ty.name)));
  return names;
}

TEST(WritePajeModule, ReadBackGivesTheSameEntities) {
  TempDir dir;
  const std::string path = dir.path() + "/out.paje";
  const testing::Sample s = MakeSample();
  EXPECT_EQ(WriteEntities(WritePajeModule(), {{"path", path}}, {s.Batch(0, 4), s.Batch(4, 10)}),
            std::vector<std::string>{path});
  Trace back;
  formats::ReadTrace({path}, formats::ReadOptions{}, back);
  EXPECT_EQ(EntitiesOf(back), EntitiesOf(s.batch));
  EXPECT_EQ(ContainerNames(back), ContainerNames(*s.trace));
  EXPECT_EQ(TypeNames(back), TypeNames(*s.trace));
}

TEST(WritePajeModule, WritesWhatAFilterKept) {
  TempDir dir;
  const std::string path = dir.path() + "/states.paje";
  const testing::Sample s = MakeSample();
  Workflow w;
  w.Add(std::make_unique<testing::Source<EntityBatch>>("source", std::vector<EntityBatch>{s.batch}));
  w.Add(testing::Make(FilterModule(), "filter", {{"kind", "state"}}));
  w.Add(testing::Make(WritePajeModule(), "write", {{"path", path}}));
  w.Link("source", "out", "filter", "in");
  w.Link("filter", "matched", "write", "in");
  w.Run();
  Trace back;
  formats::ReadTrace({path}, formats::ReadOptions{}, back);
  EXPECT_EQ(back.CountEntities(TypeKind::kState), 3u);
  EXPECT_EQ(back.CountEntities(TypeKind::kEvent), 0u);
  EXPECT_EQ(ContainerNames(back), ContainerNames(*s.trace)) << "the source's containers, all of them";
}

TEST(WritePajeModule, RefusesSeveralTraces) {
  TempDir dir;
  for (const ModuleInfo& info : {WritePajeModule(), WriteStoreModule()}) {
    const std::string path = dir.path() + "/out";
    const std::string e = ErrorOf([&] {
      WriteEntities(info, {{"path", path}}, {MakeSample().batch, MakeSample().batch});
    });
    EXPECT_NE(e.find("module 'm': " + std::string(info.kind) + ": its entities come from several traces"),
              std::string::npos)
        << e;
    EXPECT_FALSE(std::filesystem::exists(path));
  }
}

TEST(WriteStoreModule, ReadBackGivesTheSameTrace) {
  TempDir dir;
  const std::string path = dir.path() + "/out.mstore";
  const testing::Sample s = MakeSample();
  EXPECT_EQ(WriteEntities(WriteStoreModule(), {{"path", path}}, {s.batch}), std::vector<std::string>{path});
  Trace back;
  const store::StoreStats stats = store::ReadStore(path, back);
  EXPECT_EQ(stats.events, 10u);
  EXPECT_EQ(EntitiesOf(back), EntitiesOf(s.batch));
  EXPECT_EQ(ContainerNames(back), ContainerNames(*s.trace));
  EXPECT_EQ(TypeNames(back), TypeNames(*s.trace));
  EXPECT_EQ(back.values().size(), s.trace->values().size());
  EXPECT_EQ(back.start_time(), 0);
  EXPECT_EQ(back.end_time(), 10);
}

TEST(WriteStoreModule, KeepsTheTimeBase) {
  TempDir dir;
  const std::string path = dir.path() + "/ns.mstore";
  testing::Sample s = MakeSample();
  const TimeBase ns{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 1234, .epoch_ns = 5678};
  s.trace->SetTimeBase(ns);
  s.batch.base = ns;
  WriteEntities(WriteStoreModule(), {{"path", path}}, {s.batch});
  Trace back;
  store::ReadStore(path, back);
  EXPECT_EQ(back.time_base(), ns);
}

}  // namespace
}  // namespace macroscope::pipeline
