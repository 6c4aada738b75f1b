// The bottom-up recogniser against the search, and on a large trace.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loops/emit_json.h"
#include "loops/find_model.h"
#include "loops/verify.h"
#include "run_command.h"

namespace macroscope::loops {
namespace {

TEST(BottomUp, InterleavedReferencesNeedABlockOfTwo) {
  // for i < 500: a[i] then b[2i]: no linear run of single values.
  std::vector<int64_t> trace;
  for (int64_t i = 0; i < 500; ++i) {
    trace.push_back(4096 + 8 * i);
    trace.push_back(65536 + 16 * i);
  }
  Options options;
  options.algorithm = Algorithm::kBottomUp;
  const Model model = FindModel(trace, options);
  EXPECT_FALSE(FirstDifference(trace, model).has_value());
  ASSERT_EQ(model.phases.size(), 1u);
  EXPECT_EQ(model.phases[0].count, 500);
  EXPECT_EQ(model.phases[0].period, 2);
}

TEST(BottomUp, RandomValuesStayExact) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> trace(5000);
  for (auto& v : trace) v = static_cast<int64_t>(rng());
  for (Algorithm algorithm : {Algorithm::kBottomUp, Algorithm::kSearch}) {
    Options options;
    options.algorithm = algorithm;
    const Model model = FindModel(trace, options);
    EXPECT_FALSE(FirstDifference(trace, model).has_value());
  }
}

TEST(BottomUp, ExtremeValuesWrapExactly) {
  // Differences overflow int64_t; the model works modulo 2^64.
  std::vector<int64_t> trace;
  for (int i = 0; i < 60; ++i) trace.push_back(i % 2 ? INT64_MAX - i : INT64_MIN + 3 * i);
  for (Algorithm algorithm : {Algorithm::kBottomUp, Algorithm::kSearch}) {
    Options options;
    options.algorithm = algorithm;
    const Model model = FindModel(trace, options);
    EXPECT_FALSE(FirstDifference(trace, model).has_value());
    EXPECT_LT(ModelSize(model), 20);
  }
}

TEST(BottomUp, MillionValueAddressTraceIsOnePhase) {
  // A 3-deep nest of 2 references, 1.2 million values.
  std::vector<int64_t> trace;
  for (int64_t i = 0; i < 100; ++i)
    for (int64_t j = 0; j < 200; ++j)
      for (int64_t k = 0; k < 30; ++k) {
        trace.push_back(0x10000000 + 8 * (i * 4096 + k * 64 + j));
        trace.push_back(0x20000000 + 8 * (k * 200 + j));
      }
  Choice chosen;
  const Model model = FindModel(trace, Options{}, &chosen);
  EXPECT_EQ(chosen.algorithm, Algorithm::kBottomUp);
  EXPECT_FALSE(FirstDifference(trace, model).has_value());
  ASSERT_EQ(model.phases.size(), 1u);
  EXPECT_EQ(NodeDepth(model.phases[0]), 3);
}

TEST(EmitJson, ShapeOfTheDocument) {
  Options af;
  af.mode = Mode::kAdjacentFixed;
  const Model model = FindModel(std::vector<int64_t>{3, 3, 7, 13, 11, 23, 15, 33, 19, 43, 23, 53}, af);
  const std::string json = EmitJson(model);
  for (const char* key : {"\"format\":\"macroscope-loops\"", "\"version\":1", "\"length\":12", "\"model_size\":8",
                          "\"kind\":\"loop\"", "\"period\":2", "\"count\":6", "\"exceptions\":[]"}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
  }
}

TEST(Verify, ReportsTheFirstDifference) {
  Model model = FindModel(std::vector<int64_t>{1, 2, 3, 4, 5, 6}, Options{});
  const auto d = FirstDifference(std::vector<int64_t>{1, 2, 3, 9, 5, 6}, model);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->index, 3);
  EXPECT_EQ(d->expected, 9);
  EXPECT_EQ(d->got, 4);
  const auto shorter = FirstDifference(std::vector<int64_t>{1, 2, 3}, model);
  ASSERT_TRUE(shorter.has_value());
  EXPECT_TRUE(shorter->length_mismatch);
}

}  // namespace
}  // namespace macroscope::loops
