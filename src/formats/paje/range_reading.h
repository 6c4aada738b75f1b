// A large Pajé trace (one file, or several read in order as one stream)
// read in parts by byte range (docs/mpi.md), through formats::PartExchange.
// Every part reads the header (the definition lines before the first event
// line); part r takes the event lines of the bytes [r * size / N,
// (r + 1) * size / N) of the stream, cut at line boundaries. The parts
// all-gather the lines every part simulates (type, value and container
// definitions, container creation and destruction) and send each entity
// line (state, event, variable, link) to the part that owns the line's
// `Container` (sharded_simulation.h's rule, over parts instead of threads).
// Each part then simulates, in file order, the global lines and its own
// entity lines: every part holds the type and container trees of the whole
// file with the same ids, and the entities of its containers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/paje/reader.h"
#include "formats/part_exchange.h"
#include "model/trace.h"

namespace macroscope::paje {

// Collective. Reads `files` as `share`'s part into `trace`, over the whole
// trace's time span; returns the whole trace's counts on every part.
// Returns nothing, on every part, when the files cannot be cut (a
// definition line or a PajeTraceFile event after the first event line, a
// header the whole reading must judge): read them whole then. Bad input
// throws, on every part, the UserError a whole reading throws: that of the
// first bad line in reading order, with its file and line. With
// options.gather, part 0 ends with every part's entities, numbered as a
// whole reading numbers them, and the others with none.
std::optional<ReadStats> ReadPajeInParts(const std::vector<std::string>& files, const ReadOptions& options,
                                         formats::PartExchange& share, Trace& trace);

// Drops the entities of `trace`, keeping its type and container trees: the
// parts but part 0 of a trace every part read whole, so that reductions
// count its entities once.
void KeepTreesOnly(Trace& trace);

}  // namespace macroscope::paje
