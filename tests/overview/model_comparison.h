// What the model tests share: a generated trace of every entity kind, and
// the check that two models are the same to the bit.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "analysis/micro_model.h"
#include "formats/paje/generator.h"

namespace macroscope::testing {

// Pajé text of every kind: states pushed 3 deep, events, links, variables,
// inner containers running states too.
inline std::string EveryKindTrace(uint64_t events) {
  paje::GeneratorOptions g;
  g.depth = 2;
  g.arity = 6;
  g.values = 5;
  g.events = events;
  g.nested = true;
  g.nesting = 3;
  g.punctual = true;
  g.links = true;
  g.variables = true;
  g.inner = true;
  char* text = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  paje::GeneratePaje(g, out);
  std::fclose(out);
  std::string trace(text, size);
  std::free(text);
  return trace;
}

inline void ExpectSameModel(const analysis::MicroModel& a, const analysis::MicroModel& b, const std::string& label) {
  ASSERT_EQ(a.types(), b.types()) << label;
  ASSERT_EQ(a.leaf_count(), b.leaf_count()) << label;
  ASSERT_EQ(a.slices(), b.slices()) << label;
  for (int32_t leaf = 0; leaf < a.leaf_count(); ++leaf) {
    ASSERT_EQ(a.hierarchy().Path(a.leaves()[leaf]), b.hierarchy().Path(b.leaves()[leaf])) << label;
    for (int32_t type = 0; type < a.type_count(); ++type) {
      std::span<const double> x = a.Series(leaf, type), y = b.Series(leaf, type);
      ASSERT_EQ(std::vector<double>(x.begin(), x.end()), std::vector<double>(y.begin(), y.end()))
          << label << " leaf " << leaf << " type " << type;
    }
  }
}

}  // namespace macroscope::testing
