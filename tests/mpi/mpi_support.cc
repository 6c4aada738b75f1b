#include "mpi_support.h"

#include <algorithm>
#include <cstdlib>

namespace macroscope::testing {

CommandResult Mpirun(int ranks, const std::string& args, const std::string& environment) {
  return RunCommand(environment + " " + MPIRUN + " --allow-run-as-root --oversubscribe -q -np " +
                    std::to_string(ranks) + " " + MACROSCOPE_BINARY + " " + args);
}

void ExpectSameUnderMpirun(const std::string& args, double* exchanged) {
  CommandResult one = Macroscope(args);
  ASSERT_EQ(one.exit_code, 0) << args << ": " << one.err;
  ASSERT_FALSE(one.out.empty());
  for (int ranks : {2, 4}) {
    CommandResult many = Mpirun(ranks, args);
    ASSERT_EQ(many.exit_code, 0) << ranks << " ranks, " << args << ": " << many.err;
    EXPECT_EQ(many.out, one.out) << ranks << " ranks, " << args;
    // Rank 0 alone speaks: the communication volume, once.
    const std::string volume = "macroscope: mpi: " + std::to_string(ranks) + " ranks exchanged ";
    const size_t at = many.err.find(volume);
    ASSERT_NE(at, std::string::npos) << many.err;
    if (ranks == 2 && exchanged != nullptr) *exchanged = std::strtod(many.err.c_str() + at + volume.size(), nullptr);
  }
}

void ExpectSameErrorUnderMpirun(const std::string& args) {
  CommandResult one = Macroscope(args);
  ASSERT_EQ(one.exit_code, 1) << args << ": " << one.err;
  ASSERT_EQ(std::count(one.err.begin(), one.err.end(), '\n'), 1) << one.err;
  for (int ranks : {2, 4}) {
    CommandResult many = Mpirun(ranks, args);
    EXPECT_EQ(many.exit_code, 1) << ranks << " ranks, " << args << ": " << many.err;
    EXPECT_EQ(many.out, "");
    EXPECT_EQ(many.err, one.err) << ranks << " ranks, " << args;
  }
}

}  // namespace macroscope::testing
