// Random affine loop nests (depth 1-4, random bounds and coefficients,
// fixed seeds) recovered with an exact round trip through `--emit c`,
// compiled with the system C compiler and run.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loops/find_model.h"
#include "loops/verify.h"
#include "run_command.h"

namespace macroscope::loops {
namespace {

using testing::RunCommand;

struct Nest {
  std::vector<int64_t> bounds;
  std::vector<int64_t> coefficients;
  int64_t constant = 0;
};

void Expand(const Nest& nest, size_t level, int64_t value, std::vector<int64_t>& out) {
  if (level == nest.bounds.size()) {
    out.push_back(value);
    return;
  }
  for (int64_t t = 0; t < nest.bounds[level]; ++t) {
    Expand(nest, level + 1, value + nest.coefficients[level] * t, out);
  }
}

Nest RandomNest(std::mt19937_64& rng, int64_t min_bound) {
  Nest nest;
  const int depth = std::uniform_int_distribution<int>(1, 4)(rng);
  for (int d = 0; d < depth; ++d) {
    nest.bounds.push_back(std::uniform_int_distribution<int64_t>(min_bound, depth <= 2 ? 40 : 9)(rng));
    nest.coefficients.push_back(std::uniform_int_distribution<int64_t>(-1000, 1000)(rng));
  }
  nest.constant = std::uniform_int_distribution<int64_t>(-100000, 100000)(rng);
  return nest;
}

class RandomNests : public ::testing::TestWithParam<int> {};

// One to three nests in a row, through the C program, for both algorithms.
TEST_P(RandomNests, RoundTripThroughCompiledC) {
  std::mt19937_64 rng(static_cast<uint64_t>(GetParam()) * 7919u + 1);
  std::vector<int64_t> trace;
  const int nests = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int i = 0; i < nests; ++i) Expand(RandomNest(rng, 1), 0, 0, trace);
  const std::string dir = testing::ScratchDir("random_" + std::to_string(GetParam()));
  const std::string input = dir + "/trace.txt";
  testing::WriteText(input, testing::Join(trace));
  for (const char* algorithm : {"search", "bottom-up"}) {
    SCOPED_TRACE(algorithm);
    const std::string c_file = dir + "/model.c";
    const std::string exe = dir + "/model";
    const auto emit = RunCommand(testing::Macroscope() + " loops " + input + " --emit c --algorithm " + algorithm +
                                 " -o " + c_file);
    ASSERT_EQ(emit.exit_code, 0) << emit.output;
    const auto compile = RunCommand("cc -std=c99 -O1 -w -o " + exe + " " + c_file);
    ASSERT_EQ(compile.exit_code, 0) << compile.output;
    const auto run = RunCommand(exe + " > " + dir + "/out.txt");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto diff = RunCommand("cmp " + input + " " + dir + "/out.txt");
    EXPECT_EQ(diff.exit_code, 0) << diff.output;
  }
  RunCommand("rm -rf '" + dir + "'");
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomNests, ::testing::Range(1, 13));

// With every bound >= 3 a single nest is found whole, as one phase of the
// nest's depth at most, by the search; the bottom-up recogniser also
// regenerates it exactly and stays small.
TEST(RandomNestsLibrary, SingleNestIsOnePhase) {
  for (int seed = 100; seed < 160; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937_64 rng(static_cast<uint64_t>(seed));
    const Nest nest = RandomNest(rng, 3);
    std::vector<int64_t> trace;
    Expand(nest, 0, nest.constant, trace);
    const int depth = static_cast<int>(nest.bounds.size());
    Options search;
    search.algorithm = Algorithm::kSearch;
    const Model model = FindModel(trace, search);
    EXPECT_FALSE(FirstDifference(trace, model).has_value());
    ASSERT_EQ(model.phases.size(), 1u);
    EXPECT_LE(NodeDepth(model.phases[0]), depth);
    EXPECT_LE(ModelSize(model), 2 * depth + (int64_t{1} << depth));
    Options bottom_up;
    bottom_up.algorithm = Algorithm::kBottomUp;
    const Model fast = FindModel(trace, bottom_up);
    EXPECT_FALSE(FirstDifference(trace, fast).has_value());
    EXPECT_LE(ModelSize(fast), 2 * depth + (int64_t{1} << depth) + 8) << "trace of " << trace.size();
  }
}

}  // namespace
}  // namespace macroscope::loops
