#include "mpi_support.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace macroscope::testing {

CommandResult Mpirun(int ranks, const std::string& args, const std::string& environment) {
  // Each mpirun keeps its session files in a directory of its own: in the
  // one OpenMPI shares by default, mpiruns that start while others end race
  // (one removes it as another creates its own files there: "Error in file
  // session_dir.c"), which made tests fail now and then when two test runs
  // overlapped on a machine.
  TempDir session;
  return RunCommand(environment + " OMPI_MCA_orte_tmpdir_base=" + Quote(session.path()) + " " + MPIRUN +
                    " --allow-run-as-root --oversubscribe -q -np " + std::to_string(ranks) + " " + MACROSCOPE_BINARY +
                    " " + args);
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

void ExpectSameImportUnderMpirun(const std::string& trace, const std::string& dir) {
  auto Print = [](const std::string& store) {
    CommandResult dump = Macroscope("dump -u " + Quote(store));
    CommandResult info = Macroscope("info --json " + Quote(store));
    EXPECT_EQ(dump.exit_code, 0) << dump.err;
    EXPECT_EQ(info.exit_code, 0) << info.err;
    // The store's own name is in `info`'s files.
    std::string text = info.out;
    for (size_t at; (at = text.find(store)) != std::string::npos;) text.replace(at, store.size(), "STORE");
    return dump.out + text;
  };
  const std::string one = dir + "/one.mstore", many = dir + "/many.mstore";
  CommandResult r = Macroscope("import -q " + trace + " -o " + Quote(one));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string expected = Print(one);
  for (int ranks : {2, 4}) {
    std::filesystem::remove(many);
    r = Mpirun(ranks, "import -q " + trace + " -o " + Quote(many));
    ASSERT_EQ(r.exit_code, 0) << ranks << " ranks: " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(Print(many) == expected) << ranks << " ranks: the stores differ";
  }
}

}  // namespace macroscope::testing
