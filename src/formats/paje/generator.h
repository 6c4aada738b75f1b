// Deterministic synthetic Pajé traces, streamed: memory does not grow with
// the number of events, so multi-GB files are cheap.
//
// Shape (the Ocelotl seed's benchmark): a container tree of `depth` levels
// below the root with `arity` children each; only the leaves emit. Each
// leaf runs contiguous states whose values are drawn uniformly from
// `values` names and whose durations are uniform integers in 1..100.
// Options add nested (pushed) states, punctual events, links between
// leaves and a variable per leaf. Lines are written in global time order.
#pragma once

#include <cstdint>
#include <cstdio>

namespace macroscope::paje {

struct GeneratorOptions {
  int depth = 3;
  int arity = 10;
  int values = 10;
  uint64_t events = 1000000;  // timed event lines to write (about)
  uint64_t seed = 1;
  bool nested = false;     // a pushed state inside some states
  bool punctual = false;   // punctual events
  bool links = false;      // links between random leaves
  bool variables = false;  // a variable per leaf
};

// Writes the trace; returns the number of timed event lines written.
// Throws UserError if the stream cannot be written.
uint64_t GeneratePaje(const GeneratorOptions& options, std::FILE* out);

}  // namespace macroscope::paje
