// Helpers of the OTF2 tests: otf2-print's counts, and the shared helpers
// (tests/support) under this folder's namespace.
#pragma once

#include <map>
#include <string>

#include "test_support.h"

namespace macroscope::otf2::testing {

using macroscope::testing::CommandResult;
using macroscope::testing::ExpectedCounts;
using macroscope::testing::Quote;
using macroscope::testing::RunCommand;
using macroscope::testing::SharedTestData;
using macroscope::testing::TempDir;

// Event records per record kind in `otf2-print ANCHOR`'s listing ("ENTER" -> 42).
std::map<std::string, int> Otf2PrintCounts(const std::string& anchor);

}  // namespace macroscope::otf2::testing
