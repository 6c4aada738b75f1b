// The tests' main: GoogleTest's, in a process whose default catalog
// ($XDG_DATA_HOME/macroscope/catalog.sqlite, docs/catalog.md) lives in a
// scratch folder of its own. No test reads or writes the user's catalog,
// and test binaries running at once never share one.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  std::string scratch = (std::filesystem::temp_directory_path() / "macroscope-tests-XXXXXX").string();
  if (mkdtemp(scratch.data()) == nullptr) return 1;
  setenv("XDG_DATA_HOME", scratch.c_str(), 1);
  testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  return result;
}
