// Deterministic synthetic Pajé traces, streamed: memory does not grow with
// the number of events, so multi-GB files are cheap.
//
// Shape (the Ocelotl seed's benchmark): a container tree of `depth` levels
// below the root with `arity` children each; only the leaves emit. Each
// leaf runs contiguous states whose values are drawn uniformly from
// `values` names and whose durations are uniform integers in 1..100.
// Options add nested (pushed, up to `nesting` deep) states, punctual
// events, links between leaves, a variable per leaf, and states (and
// variables) on the inner containers too, so that every level holds
// entities as in real traces (a node's and a process's states above its
// threads'). Lines are written in global time order. With `nesting` 1 and
// without `inner`, the output is what it always was.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace macroscope::paje {

struct GeneratorOptions {
  int depth = 3;
  int arity = 10;
  int values = 10;
  uint64_t events = 1000000;  // timed event lines to write (about)
  uint64_t seed = 1;
  bool nested = false;     // a pushed state inside some states
  int nesting = 1;         // with `nested`: pushed states nest up to this deep
  bool punctual = false;   // punctual events
  bool links = false;      // links between random leaves
  bool variables = false;  // a variable per leaf
  bool inner = false;      // inner containers run states too (and a variable with `variables`)
};

// Writes the trace; returns the number of timed event lines written.
// Throws UserError if the stream cannot be written.
uint64_t GeneratePaje(const GeneratorOptions& options, std::FILE* out);
// The same into the file at `path`, written whole or not at all
// (util/atomic_file.h); returns `path`.
std::string GeneratePajeFile(const GeneratorOptions& options, const std::string& path);

}  // namespace macroscope::paje
