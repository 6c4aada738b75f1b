// The `nests:` section after the model of a lackey trace: for each top-level
// phase, its shape (loop counts, depth) and the arrays (object symbols) its
// data addresses fall in, with their loads, stores and modifies: what names
// a loop nest of the model as a loop nest of the program.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "loops/elf_symbols.h"
#include "loops/lackey_trace.h"
#include "loops/model.h"

namespace macroscope::loops {

// What a data address is attributed to: the object symbol holding it, else
// the program's section holding it (".rodata": constants), else `stack`
// when within kStackBelow under (or kStackAbove over) the trace's first
// access, the loader's first push at the top of the main stack, else
// `other` (heap, libraries, thread stacks).
constexpr uint64_t kStackBelow = uint64_t{8} << 20;  // the usual 8 MiB main stack (`ulimit -s`)
constexpr uint64_t kStackAbove = uint64_t{64} << 10;  // arguments and environment above it

// "for 12 x 12 x (12 x 2 + 1)": the loop counts of a top-level phase,
// outermost first; a body of several parts in parentheses joined by "+", a
// run of listed values as its length, a count affine in the enclosing
// indices as an expression of t1, t2, ... (the report's names).
std::string PhaseShape(const Node& phase);

// "nests:\n  phase [0, 3599]: for 12 x 12 x (12 x 2 + 1) (depth 4): A
// (loads 1728), B (loads 1728), C (stores 144)\n...". `addresses` and
// `kinds` are the series the model regenerates.
std::string NestsSection(const Model& model, std::span<const int64_t> addresses, std::span<const AccessKind> kinds,
                         const ElfSymbols& symbols, std::optional<uint64_t> stack_top);

}  // namespace macroscope::loops
