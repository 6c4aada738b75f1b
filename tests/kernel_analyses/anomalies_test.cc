// Anomalies on Pajé traces written here with known outliers; the band
// mean ± 3σ/√n hand-computed (σ the population standard deviation).
#include <algorithm>
#include <cmath>

#include "analyses_test_support.h"
#include "analysis/anomalies.h"
#include "formats/format.h"
#include "model/entity_chunk.h"

namespace macroscope::kernel_analyses::testing {
namespace {

// 20 states of 10 s back to back on c1, then one of 100 s; c2: three of 10 s.
std::string Outlier(const TempDir& dir) {
  std::string t = PajeHeader();
  for (int i = 0; i < 20; ++i) t += PajeState(10.0 * i, 10.0 * i + 10, "c1", "work");
  t += PajeState(200, 300, "c1", "work");
  for (int i = 0; i < 3; ++i) t += PajeState(10.0 * i, 10.0 * i + 10, "c2", "work");
  std::string path = dir.path() + "/outlier.paje";
  WriteText(path, t);
  return path;
}

// The detector's report on a trace read whole, fed one chunk per store (as
// a reader hands them over).
analysis::AnomalyReport Detect(const std::string& path, const std::string& type,
                               const std::vector<std::string>& containers = {}) {
  Trace trace;
  formats::ReadTrace({path}, {}, trace);
  analysis::AnomalyRequest request;
  request.type = type;
  request.containers = containers;
  analysis::AnomalyDetector detector(request, "--type");
  for (const EntityStore& s : trace.stores()) detector.Add(trace, EntityChunk::Of(trace, s));
  return detector.Finish(trace);
}

TEST(AnomaliesCommand, FlagsTheOneLongStateWithTheSeedsBand) {
  TempDir dir;
  std::string trace = Outlier(dir);
  nlohmann::json out = JsonOf(Macroscope("anomalies " + Quote(trace) + " --type S --containers c1 --format json"));
  // n = 21 values: twenty of 10 s, one of 100 s. mean = 300/21 = 100/7 s;
  // Σ(x − mean)² = 20·(30/7)² + (600/7)² = 378000/49, so σ = √(18000)/7 s.
  const double mean = 100.0 / 7, sigma = std::sqrt(18000.0) / 7, half = 3 * sigma / std::sqrt(21.0);
  ASSERT_EQ(out.size(), 1u) << out.dump(1);  // one row per anomaly, the figures of all values on each
  const nlohmann::json& a = out[0];
  EXPECT_EQ(a["count"], 21);
  EXPECT_NEAR(a["mean_ns"].get<double>(), mean * 1e9, 1e-3);
  EXPECT_NEAR(a["stddev_ns"].get<double>(), sigma * 1e9, 1e-3);
  EXPECT_NEAR(a["lower_ns"].get<double>(), (mean - half) * 1e9, 1e-3);
  EXPECT_NEAR(a["upper_ns"].get<double>(), (mean + half) * 1e9, 1e-3);
  EXPECT_EQ(a["container"], "c1");
  EXPECT_EQ(a["value"], "work");
  EXPECT_EQ(a["start_ns"], 200000000000);
  EXPECT_EQ(a["end_ns"], 300000000000);
  EXPECT_EQ(a["measure_ns"], 100000000000);
  EXPECT_EQ(a["start"], 200.0);
}

TEST(AnomaliesCommand, ContainersScopeTheValues) {
  TempDir dir;
  std::string trace = Outlier(dir);
  // c2 alone: three equal durations, σ = 0, nothing outside the band (the
  // command's table has no row: the figures are the detector's).
  const analysis::AnomalyReport c2 = Detect(trace, "S", {"c2"});
  EXPECT_EQ(c2.count, 3u);
  EXPECT_EQ(c2.stddev_ns, 0.0);
  EXPECT_TRUE(c2.anomalies.empty());
  EXPECT_TRUE(JsonOf(Macroscope("anomalies " + Quote(trace) + " --type S --containers c2 --format json")).empty());
  // Everything: 24 values (23 of 10 s), the long one still the only anomaly.
  nlohmann::json all = JsonOf(Macroscope("anomalies " + Quote(trace) + " --type S=work --format json"));
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0]["count"], 24);
  EXPECT_EQ(all[0]["start_ns"], 200000000000);
  EXPECT_EQ(Detect(trace, "S=work").count, 24u);
}

TEST(AnomaliesCommand, InterarrivalIsPerContainer) {
  TempDir dir;
  // c1: ticks every 10 s from 0 to 190, then one at 290 (100 s later); c2:
  // ticks at 5 and 15. Per container: twenty gaps of 10 s and one of 100 s
  // (the band of the first test); counted across containers the gaps would
  // be 5 s and 10 s.
  std::string t = PajeHeader();
  for (int i = 0; i < 20; ++i) t += PajeEvent(10.0 * i, "E1", "c1", "tick");
  t += PajeEvent(290, "E1", "c1", "tick");
  t += PajeEvent(5, "E1", "c2", "tick") + PajeEvent(15, "E1", "c2", "tick");
  std::string trace = dir.path() + "/ticks.paje";
  WriteText(trace, t);
  nlohmann::json out =
      JsonOf(Macroscope("anomalies " + Quote(trace) + " --type E1 --metric interarrival --format json"));
  ASSERT_EQ(out.size(), 1u) << out.dump(1);
  EXPECT_EQ(out[0]["count"], 21);
  EXPECT_NEAR(out[0]["mean_ns"].get<double>(), 100.0 / 7 * 1e9, 1e-3);
  EXPECT_EQ(out[0]["container"], "c1");
  EXPECT_EQ(out[0]["start_ns"], 290000000000);
  EXPECT_EQ(out[0]["measure_ns"], 100000000000);
  // The CSV lists the same, with the figures of all values on every row.
  CommandResult csv = Macroscope("anomalies " + Quote(trace) + " --type E1 --metric interarrival --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "type,value,container,start_ns,end_ns,start,measure_ns,count,mean_ns,stddev_ns,lower_ns,upper_ns");
  EXPECT_NE(csv.out.find("\nE1,tick,c1,290000000000,290000000000,290,100000000000,21,"), std::string::npos)
      << csv.out;
  // Text: the same table, aligned, a header and one line.
  CommandResult text = Macroscope("anomalies " + Quote(trace) + " --type E1 --metric interarrival");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("type  value  container", 0), 0u) << text.out;
  EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '\n'), 2) << text.out;
}

TEST(AnomaliesCommand, RefusesWhatItCannotMeasure) {
  TempDir dir;
  std::string trace = Outlier(dir);
  CommandResult none = Macroscope("anomalies " + Quote(trace) + " --type Nope");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("--type 'Nope': no entity to measure"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("S"), std::string::npos) << none.err;
  std::string t = PajeHeader() + PajeEvent(1, "E1", "c1", "x");
  WriteText(dir.path() + "/e.paje", t);
  CommandResult events = Macroscope("anomalies " + Quote(dir.path() + "/e.paje") + " --type E1");
  EXPECT_EQ(events.exit_code, 1);
  EXPECT_NE(events.err.find("events have no duration"), std::string::npos) << events.err;
  CommandResult scope = Macroscope("anomalies " + Quote(trace) + " --type S --containers nowhere");
  EXPECT_EQ(scope.exit_code, 1);
  EXPECT_NE(scope.err.find("--containers: unknown container 'nowhere'"), std::string::npos) << scope.err;
  CommandResult empty = Macroscope("anomalies " + Quote(trace) + " --type =x");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.err.find("expected TYPE or TYPE=VALUE"), std::string::npos) << empty.err;
}

TEST(AnomaliesModule, GivesTheCommandsAnomalies) {
  TempDir dir;
  std::string trace = Outlier(dir);
  pipeline::RowBatch rows =
      ReadInto({{"input", trace}}, pipeline::AnomaliesModule(), {{"type", "S"}, {"containers", "c1"}});
  ASSERT_EQ(rows.rows(), 1u);
  EXPECT_EQ(Cell(rows, 0, "container"), "c1");
  EXPECT_EQ(Cell(rows, 0, "start_ns"), "200000000000");
  EXPECT_EQ(Cell(rows, 0, "measure_ns"), "100000000000");
  EXPECT_EQ(Cell(rows, 0, "count"), "21");
  // Bad parameters are refused before anything runs.
  EXPECT_NE(pipeline::testing::ErrorOf([] {
              pipeline::testing::Make(pipeline::AnomaliesModule(), "m", {{"type", "S"}, {"metric", "size"}});
            }).find("metric"),
            std::string::npos);
  EXPECT_NE(pipeline::testing::ErrorOf([] {
              pipeline::testing::Make(pipeline::AnomaliesModule(), "m", nlohmann::json::object());
            }).find("type"),
            std::string::npos);
}

}  // namespace
}  // namespace macroscope::kernel_analyses::testing
