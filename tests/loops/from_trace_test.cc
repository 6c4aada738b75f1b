// `macroscope loops --from TRACE`: series extracted from a Pajé trace.
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "run_command.h"

namespace macroscope::loops {
namespace {

using testing::RunCommand;

constexpr const char* kDefinitions = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEventType 2
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineVariableType 3
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeCreateContainer 6
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeDestroyContainer 7
% Time date
% Type string
% Name string
%EndEventDef
%EventDef PajePushState 11
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePopState 12
% Time date
% Container string
% Type string
%EndEventDef
%EventDef PajeNewEvent 13
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajeSetVariable 14
% Time date
% Container string
% Type string
% Value double
%EndEventDef
0 HOST 0 "Host"
0 CPU HOST "Cpu"
1 A CPU "Activity"
2 B CPU "Beat"
3 V CPU "Load" "0 0 1"
6 0 h1 HOST 0 "host-1"
6 0 h2 HOST 0 "host-2"
6 0 c1 CPU h1 "cpu"
6 0 c2 CPU h2 "cpu"
)";

// host-1/cpu: a state "busy" every 10 ms lasting 3 ms, twenty times; an
// event at each start alternating "send" and "recv"; the variable Load set
// to 2.5·k at 10·k ms. host-2/cpu: two states at sub-nanosecond times.
std::string PeriodicTrace() {
  std::string text = kDefinitions;
  char line[128];
  for (int k = 0; k < 20; ++k) {
    const double t = 0.010 * k;
    std::snprintf(line, sizeof line, "11 %.3f c1 A busy\n12 %.3f c1 A\n13 %.3f c1 B %s\n14 %.3f c1 V %g\n", t,
                  t + 0.003, t, k % 2 ? "recv" : "send", t, 2.5 * k);
    text += line;
  }
  text += "11 0.0000000012 c2 A busy\n12 0.0000000013 c2 A\n11 0.0000000027 c2 A idle\n12 0.000000003 c2 A\n";
  text += "7 0.200 CPU c1\n7 0.200 CPU c2\n7 0.200 HOST h1\n7 0.200 HOST h2\n";
  return text;
}

class FromTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::ScratchDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    trace_ = dir_ + "/periodic.paje";
    testing::WriteText(trace_, PeriodicTrace());
  }
  void TearDown() override { RunCommand("rm -rf '" + dir_ + "'"); }

  testing::CommandResult Loops(const std::string& options) {
    return RunCommand(testing::Macroscope() + " loops --from " + trace_ + " " + options);
  }

  static int Count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

  std::string dir_, trace_;
};

#define EXPECT_HAS(text, what) EXPECT_NE((text).find(what), std::string::npos) << (text)

TEST_F(FromTrace, PeriodicStartsAreOneLoopInMilliseconds) {
  const auto result = Loops("--container host-1/cpu --type Activity --series start --verify");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_HAS(result.output, "series: start of state type 'Activity' in container 'host-1/cpu'");
  EXPECT_HAS(result.output, "20 values, entities ordered by start time");
  EXPECT_HAS(result.output, "unit: 1 tick = 1 ms (the coarsest unit giving integers; exact)");
  EXPECT_EQ(Count(result.output, "\nphase ["), 1) << result.output;
  EXPECT_HAS(result.output, "phase [0, 19] (period = 1, 20 intervals");
  EXPECT_HAS(result.output, "[10] X + [0] (X = 0..19)");
  EXPECT_HAS(result.output, "for t1 = 0..19\n    10*t1\n");
  EXPECT_HAS(result.output, "verify: ok, 20 values regenerated exactly");
}

TEST_F(FromTrace, EndsDurationsAndInterarrivals) {
  const auto end = Loops("--container c1 --type A --series end --verify");  // aliases
  ASSERT_EQ(end.exit_code, 0) << end.output;
  EXPECT_HAS(end.output, "10*t1 + 3\n");
  const auto duration = Loops("--container c1 --type Activity --series duration --verify");
  ASSERT_EQ(duration.exit_code, 0) << duration.output;
  EXPECT_EQ(Count(duration.output, "\nphase ["), 1) << duration.output;
  EXPECT_HAS(duration.output, "[0] X + [3] (X = 0..19)");
  const auto gaps = Loops("--container c1 --type Activity --series interarrival --verify");
  ASSERT_EQ(gaps.exit_code, 0) << gaps.output;
  EXPECT_HAS(gaps.output, "19 values");
  EXPECT_HAS(gaps.output, "[0] X + [10] (X = 0..18)");
}

TEST_F(FromTrace, GivenUnit) {
  const auto result = Loops("--container c1 --type Activity --unit us --verify");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_HAS(result.output, "unit: 1 tick = 1 us (--unit; exact)");
  EXPECT_HAS(result.output, "10000*t1\n");
  EXPECT_EQ(Loops("--container c1 --type Activity --unit h").exit_code, 1);
}

TEST_F(FromTrace, SubNanosecondTimesAreRoundedAndSaidSo) {
  const auto result = Loops("--container host-2/cpu --type Activity --mode af --verify");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_HAS(result.output, "unit: 1 tick = 1 ns (the coarsest unit giving integers; 2 of 2 times rounded");
  EXPECT_HAS(result.output, "largest error 0.3 tick)");
  EXPECT_HAS(result.output, "2*t1 + 1\n");  // 1.2 and 2.7 ns
}

TEST_F(FromTrace, EventValuesAreCodedByFirstAppearance) {
  const auto result = Loops("--container c1 --type Beat --series value --verify");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_HAS(result.output, "values: 2 codes, in order of first appearance:\n  0 = \"send\"\n  1 = \"recv\"\n");
  EXPECT_EQ(Count(result.output, "\nphase ["), 1) << result.output;
  EXPECT_HAS(result.output, "[0, 0] X + [0, 1] (X = 0..9)");
  const auto states = Loops("--container c1 --type Activity --series value");
  ASSERT_EQ(states.exit_code, 0) << states.output;
  EXPECT_HAS(states.output, "values: 1 code, in order of first appearance:\n  0 = \"busy\"\n");
}

TEST_F(FromTrace, VariableValuesNeedAnIntegralScale) {
  const auto bad = Loops("--container c1 --type Load --series value");
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_HAS(bad.output, "macroscope: 'Load' in 'host-1/cpu': value 2.5 at time 0.01 is not an integer");
  EXPECT_HAS(bad.output, "--scale 10 makes them integers");
  EXPECT_EQ(Count(bad.output, "\n"), 1) << bad.output;
  const auto scaled = Loops("--container c1 --type Load --series value --scale 2 --verify");
  ASSERT_EQ(scaled.exit_code, 0) << scaled.output;
  EXPECT_HAS(scaled.output, "values: variable values times 2 (--scale)");
  EXPECT_HAS(scaled.output, "5*t1\n");
}

TEST_F(FromTrace, JsonCarriesTheSeries) {
  const auto result = Loops("--container c1 --type Activity --emit json");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_HAS(result.output, "{\"format\":\"macroscope-loops\",\"version\":1,\"length\":20,");
  EXPECT_HAS(result.output, ",\"series\":{\"trace\":\"" + trace_ +
                                "\",\"container\":\"host-1/cpu\",\"type\":\"Activity\",\"kind\":\"state\","
                                "\"series\":\"start\",\"order\":\"start\",\"unit\":\"ms\",\"unit_chosen\":\"auto\","
                                "\"rounded\":0}}\n");
  const auto codes = Loops("--container c1 --type Beat --series value --emit json");
  ASSERT_EQ(codes.exit_code, 0) << codes.output;
  EXPECT_HAS(codes.output, "\"codes\":[\"send\",\"recv\"]}}\n");
}

TEST_F(FromTrace, CProgramPrintsTheSeries) {
  const auto emit = Loops("--container c1 --type Activity --emit c -o " + dir_ + "/model.c");
  ASSERT_EQ(emit.exit_code, 0) << emit.output;
  const auto compile =
      RunCommand("cc -std=c99 -Wall -Wextra -Werror -O1 -o " + dir_ + "/model " + dir_ + "/model.c");
  ASSERT_EQ(compile.exit_code, 0) << compile.output;
  std::vector<int64_t> starts;
  for (int k = 0; k < 20; ++k) starts.push_back(10 * k);
  testing::WriteText(dir_ + "/expected.txt", testing::Join(starts));
  ASSERT_EQ(RunCommand(dir_ + "/model > " + dir_ + "/out.txt").exit_code, 0);
  EXPECT_EQ(RunCommand("cmp " + dir_ + "/expected.txt " + dir_ + "/out.txt").exit_code, 0);
}

TEST_F(FromTrace, UnknownAndAmbiguousNamesListTheValidOnes) {
  const auto container = Loops("--container gpu --type Activity");
  EXPECT_EQ(container.exit_code, 1);
  EXPECT_HAS(container.output, "unknown container 'gpu'; containers with 'Activity' entities: host-1/cpu, host-2/cpu");
  const auto type = Loops("--container c1 --type Power");
  EXPECT_EQ(type.exit_code, 1);
  EXPECT_HAS(type.output, "unknown type 'Power'; entity types: Activity, Beat, Load");
  const auto ambiguous = Loops("--container cpu --type Activity");
  EXPECT_EQ(ambiguous.exit_code, 1);
  EXPECT_HAS(ambiguous.output, "container name 'cpu' is ambiguous (2 containers); give its path: host-1/cpu, host-2/cpu");
  const auto wrong_level = Loops("--container host-1 --type Activity");
  EXPECT_EQ(wrong_level.exit_code, 1);
  EXPECT_HAS(wrong_level.output, "container 'host-1' (type 'Host') has no type 'Activity'; its entity types: (none)");
}

TEST_F(FromTrace, MissingOrMisplacedOptions) {
  const auto no_container = Loops("--type Activity");
  EXPECT_EQ(no_container.exit_code, 1);
  EXPECT_HAS(no_container.output, "--from needs --container");
  const auto no_type = Loops("--container c1");
  EXPECT_EQ(no_type.exit_code, 1);
  EXPECT_HAS(no_type.output, "--from needs --type");
  const auto both = RunCommand(testing::Macroscope() + " loops " + dir_ + "/x.txt --from " + trace_ +
                               " --container c1 --type A");
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_HAS(both.output, "not both");
  const auto without_from = RunCommand(testing::Macroscope() + " loops " + dir_ + "/x.txt --container c1");
  EXPECT_EQ(without_from.exit_code, 1);
  EXPECT_HAS(without_from.output, "--container needs --from TRACE");
  EXPECT_EQ(Loops("--container c1 --type A --series size").exit_code, 1);
  EXPECT_EQ(Loops("--container c1 --type A --series value --unit ms").exit_code, 1);
  EXPECT_EQ(Loops("--container c1 --type A --series start --scale 2").exit_code, 1);
  EXPECT_EQ(Loops("--container c1 --type Beat --series value --scale 2").exit_code, 1);
  const auto event_duration = Loops("--container c1 --type Beat --series duration");
  EXPECT_EQ(event_duration.exit_code, 1);
  EXPECT_HAS(event_duration.output, "'Beat' is an event type, events have no end");
  const auto missing = RunCommand(testing::Macroscope() + " loops --from " + dir_ + "/none.paje --container c1 --type A");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_HAS(missing.output, "none.paje");
}

TEST_F(FromTrace, GeneratedTraceEverySeriesVerifies) {
  const std::string generated = dir_ + "/generated.paje";
  const auto gen = RunCommand(testing::Macroscope() + " generate --depth 1 --arity 2 --events 200 -o " + generated);
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  for (const char* series : {"start", "end", "duration", "value", "interarrival"}) {
    for (const char* algorithm : {"search", "bottom-up"}) {
      const auto result = RunCommand(testing::Macroscope() + " loops --from " + generated +
                                     " --container c0 --type State --series " + series + " --algorithm " +
                                     algorithm + " --verify");
      EXPECT_EQ(result.exit_code, 0) << series << " " << algorithm << "\n" << result.output;
      EXPECT_HAS(result.output, "verify: ok");
      if (std::string(series) != "value") {
        EXPECT_HAS(result.output, "unit: 1 tick = 1 s (");
      }
    }
  }
  const auto tolerant = RunCommand(testing::Macroscope() + " loops --from " + generated +
                                   " --container c1 --type S --series duration --mode dv --tolerance 0.2 --verify");
  EXPECT_EQ(tolerant.exit_code, 0) << tolerant.output;
}

}  // namespace
}  // namespace macroscope::loops
