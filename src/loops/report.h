// The human-readable phase report, in the spirit of the seed's PLI output:
// one block per phase (bounds, period, intervals, the periodic-linear
// function when the period is short, the loop nest), the exceptions, and
// a closing summary line with the model size against the trace size.
#pragma once

#include <string>

#include "loops/find_model.h"
#include "loops/model.h"
#include "loops/options.h"

namespace macroscope::loops {

// `chosen`: what gave the model (FindModel's choice).
std::string Report(const Model& model, const Options& options, const Choice& chosen);

// "model size: M integers for N values (ratio R), P phases, E exceptions"
std::string SummaryLine(const Model& model);

// The lines of one phase (a node of model.phases) as the report prints
// them under the phase's header: its loops, their bodies as expressions of
// the indices t1, t2, …, its listed values; two spaces a level from
// `indent` levels.
std::string PhaseText(const Node& phase, int indent = 0);

// The number of the model's exceptions that fall in `phase`.
int64_t PhaseExceptions(const Model& model, const Node& phase);

}  // namespace macroscope::loops
