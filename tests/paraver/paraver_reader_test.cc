// The Paraver reader on the suite's own trace: every record kind lands in
// the model as docs/paraver.md says, names come from the .pcf and .row (or
// Paraver's defaults without them), and times stay the file's integers.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "formats/paraver/paraver_reader.h"
#include "model/entity_sink.h"
#include "paraver_suite_trace.h"

namespace macroscope::paraver {
namespace {

using testing::kSuitePcf;
using testing::kSuitePrv;
using testing::kSuiteRow;

const Container* Named(const Trace& t, std::string_view name) {
  for (const Container& c : t.containers())
    if (t.Str(c.name) == name) return &c;
  return nullptr;
}

TypeId TypeNamed(const Trace& t, std::string_view name) {
  for (TypeId id = 0; id < t.types().size(); ++id)
    if (t.Str(t.type(id).name) == name) return id;
  return kNone;
}

// Entities of type `type` in the container named `container`, as
// "start end value" strings.
std::vector<std::string> Entities(const Trace& t, std::string_view container, std::string_view type) {
  std::vector<std::string> out;
  const Container* c = Named(t, container);
  const TypeId ty = TypeNamed(t, type);
  if (c == nullptr || ty == kNone) return out;
  const EntityStore* s = t.FindStore(static_cast<ContainerId>(c - t.containers().data()), ty);
  if (s == nullptr) return out;
  for (size_t i = 0; i < s->size(); ++i) {
    std::string e = std::to_string(static_cast<uint64_t>(s->start[i]));
    if (!s->end.empty()) e += " " + std::to_string(static_cast<uint64_t>(s->end[i]));
    e += " " + std::string(t.Str(s->value[i]));
    out.push_back(e);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ParaverReader, SuiteTraceMapsEveryRecord) {
  Trace t;
  ReadReport r = ReadParaverText(kSuitePrv, kSuitePcf, kSuiteRow, "suite.prv", t);
  EXPECT_EQ(r.states, 6u);
  EXPECT_EQ(r.events, 3u);
  EXPECT_EQ(r.communications, 1u);
  EXPECT_EQ(r.communicators, 1u);
  EXPECT_EQ(r.records, 10u);
  EXPECT_EQ(t.CountEntities(TypeKind::kState), 6u);
  EXPECT_EQ(t.CountEntities(TypeKind::kEvent), 3u);
  EXPECT_EQ(t.CountEntities(TypeKind::kLink), 1u);

  // Time: the file's nanoseconds, whole, from 0 to the header's duration.
  EXPECT_EQ(t.time_base().den, 1000000000u);
  EXPECT_TRUE(t.time_base().whole_ticks);
  EXPECT_EQ(t.start_time(), 0);
  EXPECT_EQ(t.end_time(), 2000);

  // Containers: names from the .row's THREAD level, Paraver's otherwise.
  ASSERT_NE(Named(t, "APPL 1"), nullptr);
  ASSERT_NE(Named(t, "TASK 1.1"), nullptr);
  ASSERT_NE(Named(t, "TASK 1.2"), nullptr);
  ASSERT_NE(Named(t, "THREAD 1.1.2 helper"), nullptr);
  EXPECT_EQ(t.Str(t.type(Named(t, "THREAD 1.1.2 helper")->type).name), "Thread");
  EXPECT_EQ(t.Str(t.type(Named(t, "TASK 1.1")->type).name), "Task");
  const Container* appl = Named(t, "APPL 1");
  ASSERT_EQ(appl->extras.size(), 1u);
  EXPECT_EQ(t.Str(appl->extras[0].name), "communicator_1");
  EXPECT_EQ(t.Str(appl->extras[0].value), "1 2");

  // States: nested and consecutive, named by the .pcf.
  EXPECT_EQ(Entities(t, "THREAD 1.1.1 main", "State"),
            (std::vector<std::string>{"0 500 Running", "100 200 Waiting a message", "500 2000 Idle"}));
  EXPECT_EQ(Entities(t, "THREAD 1.2.1 main", "State"),
            (std::vector<std::string>{"0 900 Running", "900 1999 Waiting a message"}));
  // One event per type:value pair; values named where the .pcf lists them.
  EXPECT_EQ(Entities(t, "THREAD 1.1.1 main", "MPI Point-to-point"), (std::vector<std::string>{"150 MPI_Isend"}));
  EXPECT_EQ(Entities(t, "THREAD 1.1.1 main", "Application phase"), (std::vector<std::string>{"150 7"}));
  EXPECT_EQ(Entities(t, "THREAD 1.2.1 main", "MPI Point-to-point"), (std::vector<std::string>{"900 Outside MPI"}));
  // State colours from STATES_COLOR.
  bool colored = false;
  for (const EntityValue& v : t.values())
    if (t.Str(v.name) == "Running") colored = t.Str(v.color) == "0 0 1";
  EXPECT_TRUE(colored);

  // The communication: physical times as the link, logical ones and the size as user fields.
  const EntityStore* link = nullptr;
  for (const EntityStore& s : t.stores())
    if (s.kind == TypeKind::kLink && s.size()) link = &s;
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->start[0], 310);
  EXPECT_EQ(link->end[0], 330);
  EXPECT_EQ(t.Str(link->value[0]), "5");
  EXPECT_EQ(t.Str(t.container(link->peer_start[0]).name), "THREAD 1.1.1 main");
  EXPECT_EQ(t.Str(t.container(link->peer_end[0]).name), "THREAD 1.2.1 main");
  std::map<std::string, std::string> fields;
  link->extras.ForEach(0, [&](const ExtraField& f) { fields[std::string(t.Str(f.name))] = t.Str(f.value); });
  EXPECT_EQ(fields, (std::map<std::string, std::string>{
                        {"logical_send", "300"}, {"logical_recv", "320"}, {"size", "1024"}}));
}

TEST(ParaverReader, DefaultsWithoutPcfAndRow) {
  Trace t;
  ReadParaverText(kSuitePrv, "", "", "suite.prv", t);
  ASSERT_NE(Named(t, "THREAD 1.1.1"), nullptr);
  ASSERT_NE(Named(t, "THREAD 1.2.1"), nullptr);
  EXPECT_EQ(Entities(t, "THREAD 1.1.1", "State"), (std::vector<std::string>{"0 500 1", "100 200 2", "500 2000 0"}));
  EXPECT_EQ(Entities(t, "THREAD 1.1.1", "Event type 50000001"), (std::vector<std::string>{"150 3"}));
}

TEST(ParaverReader, TimeUnits) {
  const std::map<std::string, uint64_t> units{{"_ns", 1000000000}, {"_us", 1000000}, {"_ms", 1000}, {"", 1000000}};
  for (const auto& [unit, den] : units) {
    Trace t;
    ReadParaverText("#Paraver (01/01/70 at 00:00):10" + unit +
                        ":0:1:1(1:1)\n1:0:1:1:1:9007199254740991:9007199254740991:1\n",
                    "", "", "t.prv", t);
    EXPECT_EQ(t.time_base().den, den) << unit;
    // The largest time a double holds exactly is kept to the tick.
    EXPECT_EQ(t.end_time(), 9007199254740991.0) << unit;
  }
}

TEST(ParaverReader, SeveralApplicationsAndNodes) {
  Trace t;
  ReadReport r = ReadParaverText(
      "#Paraver (01/01/70 at 00:00):100_ns:2(2,1):2:1(2:1),0:2(1:1,1:2)\n"
      "2:1:1:1:2:5:1:1\n2:3:2:2:1:6:1:1\n",
      "", "LEVEL APPL SIZE 2\nsolver\nviz\n", "t.prv", t);
  EXPECT_EQ(r.events, 2u);
  ASSERT_NE(Named(t, "solver"), nullptr);
  ASSERT_NE(Named(t, "THREAD 2.2.1"), nullptr);
  EXPECT_EQ(Entities(t, "THREAD 1.1.2", "Event type 1"), (std::vector<std::string>{"5 1"}));
  EXPECT_EQ(Entities(t, "THREAD 2.2.1", "Event type 1"), (std::vector<std::string>{"6 1"}));
  const Container* task = Named(t, "TASK 2.2");
  ASSERT_NE(task, nullptr);
  ASSERT_EQ(task->extras.size(), 1u);
  EXPECT_EQ(t.Str(task->extras[0].value), "2");  // its node
}

// With a sink, every entity is handed over (here after each one) and the
// trace keeps none.
TEST(ParaverReader, StreamsToASink) {
  struct Counter : EntitySink {
    std::map<TypeKind, size_t> counts;
    void Completed(const Trace&, const EntityChunk& chunk) override { counts[chunk.kind] += chunk.size(); }
  } sink;
  paje::SimulatorOptions streaming;
  streaming.sink = &sink;
  streaming.drain_interval = 1;
  Trace t;
  ReadParaverText(kSuitePrv, kSuitePcf, kSuiteRow, "suite.prv", t, streaming);
  EXPECT_EQ(sink.counts[TypeKind::kState], 6u);
  EXPECT_EQ(sink.counts[TypeKind::kEvent], 3u);
  EXPECT_EQ(sink.counts[TypeKind::kLink], 1u);
  EXPECT_EQ(t.CountEntities(TypeKind::kState) + t.CountEntities(TypeKind::kEvent), 0u);
}

TEST(ParaverReader, Sniffing) {
  EXPECT_TRUE(LooksLikeParaver(kSuitePrv));
  EXPECT_FALSE(LooksLikeParaver("%EventDef PajeDefineContainerType 0\n"));
  EXPECT_FALSE(LooksLikeParaver("#Paraver"));
  EXPECT_EQ(CompanionFile("dir/x.prv", "pcf"), "dir/x.pcf");
  EXPECT_EQ(CompanionFile("dir/x", "row"), "dir/x.row");
}

}  // namespace
}  // namespace macroscope::paraver
