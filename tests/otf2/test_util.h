// Helpers of the OTF2 tests: otf2-print's counts, and the shared helpers
// (tests/support) under this folder's namespace.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "model/trace.h"
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

// The distinct timestamps (timer ticks) of `otf2-print ANCHOR`'s records.
std::set<int64_t> Otf2PrintTicks(const std::string& anchor);

// Writes `count` bytes `byte` over `file` at `offset` (an archive being damaged).
void Overwrite(const std::string& file, size_t offset, size_t count, char byte);

// The distinct clock ticks of every entity's start and end in `trace`
// (model times are whole ticks from the time base's origin).
std::set<int64_t> ModelTicks(const Trace& trace);

}  // namespace macroscope::otf2::testing
