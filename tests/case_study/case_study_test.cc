// The seed's GStreamer case study (docs/case-study-gstreamer.md) on the two
// debug logs the fixture case_study.record records (record.sh): a video
// played undisturbed, and the same with stress-ng hogging its core for a
// second mid-run. The temporal overview of the perturbed run isolates the
// stress window as a part of its own, `stats` shows that the encoder and
// decoder's LOG states take a larger share of the time there, and the
// undisturbed run has no such part. The differential overview of the pair
// (analysis/compare/differential_overview.h) isolates the same window as a
// part of its own, with the same shift from DEBUG to LOG.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/compare/differential_overview.h"
#include "formats/format.h"
#include "model/time_base.h"
#include "render/canvas.h"
#include "render/differential_picture.h"
#include "test_support.h"

namespace macroscope::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kLogs = CASE_STUDY_LOGS;
// Slices of about 0.2 s: three frames each, and the scheduler's noise on a
// loaded machine averaged out.
constexpr int kSlices = 25;
// How far the part's boundaries may be from the stress window's (s): the
// parts are made of whole slices, and the pipeline, late by the window's
// end, takes a while to catch up with the clock after it (it renders every
// late frame).
constexpr double kStartTolerance = 0.75, kCatchUp = 1.0;

#define NEEDS_CASE_STUDY_LOGS()                                                                   \
  if (!fs::exists(kLogs + "/quiet.log") || !fs::exists(kLogs + "/stressed.log"))                \
  GTEST_SKIP() << "no case-study logs in " << kLogs                                              \
               << " (gst-launch-1.0 or stress-ng missing: Debian gstreamer1.0-tools, stress-ng)"

struct Span {
  double start = 0, end = 0;  // seconds of the GStreamer clock
  double length() const { return end - start; }
};

// The stress window as record.sh saw it, in seconds from gst-launch-1.0's
// start (the log's clock starts a few ms later: within the tolerance).
Span StressWindow() {
  Span w;
  std::ifstream in(kLogs + "/stress-window.txt");
  in >> w.start >> w.end;
  EXPECT_TRUE(in) << "cannot read " << kLogs << "/stress-window.txt";
  return w;
}

json Run(const std::string& args) {
  CommandResult r = Macroscope(args);
  EXPECT_EQ(r.exit_code, 0) << "macroscope " << args << ": " << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

// The model options every aggregation here shares: state time per level
// over kSlices slices of the whole run, normalised qualities.
std::string ModelOptions(const std::string& log, const std::string& cache) {
  return Quote(log) + " --mode temporal --metric state-time --slices " + std::to_string(kSlices) +
         " --normalize --cache " + Quote(cache);
}

struct Partition {
  double p = 0;
  std::vector<Span> parts;
  std::vector<std::pair<int, int>> slices;  // each part's first and last slice
};

Partition PartitionAt(const std::string& options, double p) {
  char p_text[32];
  std::snprintf(p_text, sizeof p_text, "%.17g", p);
  const json j = Run("aggregate " + options + " --p " + p_text);
  Partition result;
  result.p = p;
  if (j.is_null()) return result;
  // The range is in ticks of the trace's clock: seconds = ticks × N / D.
  const double n = j["time"]["seconds_per_tick"][0].get<double>();
  const double d = j["time"]["seconds_per_tick"][1].get<double>();
  const double begin = j["range"][0].get<double>() * n / d;
  const double width = (j["range"][1].get<double>() - j["range"][0].get<double>()) * n / d / kSlices;
  for (const json& part : j["parts"]) {
    const int first = part["start_slice"], last = part["end_slice"];
    result.parts.push_back({begin + first * width, begin + (last + 1) * width});
    result.slices.emplace_back(first, last);
  }
  return result;
}

// A part away from the start-up and the end of the run: not in the first or
// the last tenth of the slices.
bool InTheMiddle(const std::pair<int, int>& slices) {
  return slices.first >= kSlices / 10 && slices.second < kSlices - kSlices / 10;
}

// The rule that picks p, without knowing where the perturbation is: coming
// down from the full aggregate through the significant partitions (each at
// the middle of the p range over which it is optimal), the first one with a
// part in the middle of the run — what an analyst sees lowering p in the
// overview until the steady playback splits.
Partition FirstMiddlePartition(const std::string& options) {
  const json list = Run("aggregate " + options + " --plist");
  for (size_t k = list.size(); k-- > 0;) {
    const double from = list[k]["p"].get<double>();
    const double to = k + 1 < list.size() ? list[k + 1]["p"].get<double>() : 1.0;
    Partition partition = PartitionAt(options, (from + to) / 2);
    for (const auto& s : partition.slices)
      if (InTheMiddle(s)) return partition;
  }
  ADD_FAILURE() << "no significant partition has a part in the middle of the run";
  return {};
}

// The share (%) of the Level state VALUE over [start, end] by `stats`.
double Share(const std::string& log, const Span& window, const std::string& value) {
  char range[96];
  std::snprintf(range, sizeof range, " --start %.9f --end %.9f", window.start, window.end);
  const json j = Run("stats " + Quote(log) + range + " --format json");
  for (const json& row : j["rows"])
    if (row["kind"] == "state" && row["value"] == value) return row["share"].get<double>();
  return 0;
}

std::string Describe(const Partition& partition) {
  std::string s = "p = " + std::to_string(partition.p) + ":";
  char part[64];
  for (const Span& span : partition.parts) {
    std::snprintf(part, sizeof part, " [%.2f, %.2f]", span.start, span.end);
    s += part;
  }
  return s;
}

TEST(CaseStudy, PerturbationIsAPartOfItsOwnWithMoreLogTime) {
  NEEDS_CASE_STUDY_LOGS();
  TempDir cache;
  const Span stress = StressWindow();
  const std::string stressed = kLogs + "/stressed.log", quiet = kLogs + "/quiet.log";
  const Partition perturbed = FirstMiddlePartition(ModelOptions(stressed, cache.path()));
  std::printf("stress-ng: [%.3f, %.3f] s\nperturbed run, %s\n", stress.start, stress.end,
              Describe(perturbed).c_str());

  // The middle parts (one, or a few when the disturbance is uneven) are
  // the stress window.
  Span middle{-1, -1}, before;  // before: the part just before them
  for (size_t i = 0; i < perturbed.parts.size(); ++i) {
    if (!InTheMiddle(perturbed.slices[i])) continue;
    if (middle.start < 0) {
      middle.start = perturbed.parts[i].start;
      if (i > 0) before = perturbed.parts[i - 1];
    }
    middle.end = perturbed.parts[i].end;
  }
  ASSERT_GE(middle.start, 0);
  EXPECT_NEAR(middle.start, stress.start, kStartTolerance) << Describe(perturbed);
  EXPECT_GT(middle.end, stress.end - kStartTolerance) << Describe(perturbed);
  EXPECT_LT(middle.end, stress.end + kCatchUp) << Describe(perturbed);

  // The shift of the state shares: the streaming thread waits for the clock
  // in DEBUG states and encodes and decodes mostly in LOG states; starved of
  // its core, it spends the window working to catch up. (How much LOG time
  // a frame takes depends on the machine's speed: in the window the LOG
  // share was 1.9 to 3.3 times that before it in 39 runs on 2 cores at a
  // load of 12 to 15.)
  const double log_in = Share(stressed, middle, "LOG"), log_before = Share(stressed, before, "LOG");
  const double debug_in = Share(stressed, middle, "DEBUG"), debug_before = Share(stressed, before, "DEBUG");
  std::printf("LOG share: %.1f %% in [%.2f, %.2f] s, %.1f %% in the part before it; DEBUG: %.1f %% in it, %.1f %% before\n",
              log_in, middle.start, middle.end, log_before, debug_in, debug_before);
  EXPECT_GT(log_in, 1.5 * log_before);
  EXPECT_LT(debug_in, debug_before);

  // The undisturbed run at the same p: no part in the middle half as long
  // as the stress window.
  const Partition undisturbed = PartitionAt(ModelOptions(quiet, cache.path()), perturbed.p);
  std::printf("undisturbed run, %s\n", Describe(undisturbed).c_str());
  for (size_t i = 0; i < undisturbed.parts.size(); ++i) {
    if (InTheMiddle(undisturbed.slices[i])) {
      EXPECT_LT(undisturbed.parts[i].length(), stress.length() / 2) << Describe(undisturbed);
    }
  }
}

// The differential overview of the undisturbed run (A) and the perturbed
// one (B), aligned at their starts over the shorter one's span, at the
// overview's p: the part where they differ most is the stress window, where
// B spends a larger share of its time in LOG states and a smaller one in
// DEBUG states than in the part before it (stats on the perturbed log, as
// above), and the parts table says LOG's share grew there.
TEST(CaseStudy, DifferentialOverviewIsolatesThePerturbation) {
  NEEDS_CASE_STUDY_LOGS();
  const Span stress = StressWindow();
  const std::string stressed = kLogs + "/stressed.log", quiet = kLogs + "/quiet.log";
  Trace a, b;
  formats::ReadTrace({quiet}, {}, a);
  formats::ReadTrace({stressed}, {}, b);
  const TimeBase& base = b.time_base();
  ASSERT_TRUE(base.whole_ticks && base.num == 1 && base.den == 1000000000) << "GStreamer's clock is in ns";
  const int64_t span_ns = std::min(DurationNanoseconds(a.time_base(), a.end_time() - a.start_time()),
                                   DurationNanoseconds(base, b.end_time() - b.start_time()));
  analysis::ModelRequest request;
  request.metric = analysis::Metric::kStateTime;
  request.slices = kSlices;
  analysis::compare::DifferentialOptions options;
  options.normalize = true;
  const TraceSource source_a(a), source_b(b);
  const analysis::compare::DifferentialOverviewResult overview = analysis::compare::DifferentialOverview(
      source_a, source_b, a.start_time(), b.start_time(), span_ns, request, options);
  // The parts in seconds of B's clock: B's start plus the aligned time.
  const double b_start = base.Seconds(b.start_time()), width = span_ns * 1e-9 / kSlices;
  Partition found;
  found.p = overview.p;
  for (const analysis::Part& part : overview.partition.parts) {
    found.parts.push_back({b_start + part.first_slice * width, b_start + (part.last_slice + 1) * width});
    found.slices.emplace_back(part.first_slice, part.last_slice);
  }
  std::printf("stress-ng: [%.3f, %.3f] s\ndifferential overview, %s\n", stress.start, stress.end,
              Describe(found).c_str());

  // The part where the runs differ most (rank 1 of the table) is the
  // stress window; `before`: the part just before it.
  const analysis::Table& table = overview.parts;
  auto column = [&](const char* name) {
    return static_cast<size_t>(std::find(table.columns.begin(), table.columns.end(), name) - table.columns.begin());
  };
  ASSERT_GT(table.rows(), 0u);
  const int middle_part = static_cast<int>(std::get<int64_t>(table.at(0, column("part"))));
  ASSERT_GT(middle_part, 0) << Describe(found);
  const Span middle = found.parts[middle_part], before = found.parts[middle_part - 1];
  EXPECT_TRUE(InTheMiddle(found.slices[middle_part])) << Describe(found);
  ASSERT_GE(middle.start, 0) << Describe(found);
  EXPECT_NEAR(middle.start, stress.start, kStartTolerance) << Describe(found);
  EXPECT_GT(middle.end, stress.end - kStartTolerance) << Describe(found);
  EXPECT_LT(middle.end, stress.end + kCatchUp) << Describe(found);

  const double log_in = Share(stressed, middle, "LOG"), log_before = Share(stressed, before, "LOG");
  const double debug_in = Share(stressed, middle, "DEBUG"), debug_before = Share(stressed, before, "DEBUG");
  std::printf("LOG share: %.1f %% in [%.2f, %.2f] s, %.1f %% before; DEBUG: %.1f %% in it, %.1f %% before\n", log_in,
              middle.start, middle.end, log_before, debug_in, debug_before);
  EXPECT_GT(log_in, 1.5 * log_before);
  EXPECT_LT(debug_in, debug_before);

  // The table's rows of that part: LOG's share of B's time grew over A's.
  bool log_row = false;
  for (size_t r = 0; r < table.rows(); ++r) {
    if (std::get<int64_t>(table.at(r, column("part"))) != middle_part) continue;
    if (std::get<std::string>(table.at(r, column("type"))) != "Level:LOG") continue;
    log_row = true;
    EXPECT_GT(std::get<double>(table.at(r, column("share_change"))), 0);
  }
  EXPECT_TRUE(log_row) << "LOG is not among the types whose share changed most in the window";

  // Its picture, beside the logs (docs/compare-gstreamer.svg is one).
  const render::DifferentialPictureInput input{&overview, "quiet.log", "stressed.log", "start", "state-time"};
  render::Canvas canvas(1200, 800, render::ImageFormat::kSvg);
  render::DrawDifferentialOverview(canvas, input);
  canvas.Save(kLogs + "/differential-overview.svg");
  EXPECT_GT(fs::file_size(kLogs + "/differential-overview.svg"), 0u);
}

}  // namespace
}  // namespace macroscope::testing
