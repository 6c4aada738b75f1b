// `macroscope correlate TRACE --a SELECTION --b SELECTION`: Pearson's r of
// two series of entity start times over regular or irregular bins
// (docs/anomalies.md). The binning and r are analysis::Correlation's, the
// workflow module correlate's too.
#include <memory>

#include "analysis/correlation.h"
#include "analysis/entity_selection.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"
#include "util/error.h"

namespace macroscope::cli {

void RegisterCorrelateCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    std::string a, b;
    std::string bins = "regular";
    std::string delta;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("correlate", "Pearson's r of two series of entity start times over bins");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--a", args->a, "First series: TYPE or TYPE=VALUE (VALUE may end in * for a prefix)")->required();
  cmd->add_option("--b", args->b, "Second series, the same way")->required();
  cmd->add_option("--bins", args->bins,
                  "regular (floor(sqrt(|A|+|B|)) equal bins; default) or irregular (±delta around the smaller "
                  "series' points, and the gaps between)")
      ->check(CLI::IsMember({"regular", "irregular"}));
  cmd->add_option("--delta", args->delta, "Irregular bins' half width: 2.5ms, 100us, 1s (default unit s)");
  AddTableFormatOption(*cmd, args->format);
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    const bool irregular = args->bins == "irregular";
    if (irregular && args->delta.empty()) throw UserError("--bins irregular needs --delta");
    if (!irregular && !args->delta.empty()) throw UserError("--delta is for --bins irregular");
    analysis::EntitySelection a(args->a, "--a"), b(args->b, "--b");
    analysis::Correlation correlation;
    Trace trace;
    StreamEntities(args->files, args->read, trace, [&](const Trace& t, const EntityChunk& chunk) {
      a.ForEachMatch(t, chunk, [&](size_t i) { correlation.AddA(chunk.start[i]); });
      b.ForEachMatch(t, chunk, [&](size_t i) { correlation.AddB(chunk.start[i]); });
    });
    double delta = 0;
    if (irregular) {
      // A length, read as an offset from 0 in the trace's time base.
      const std::string text = args->delta[0] == '+' ? args->delta : "+" + args->delta;
      delta = ParseTime(trace.time_base(), text, 0, "--delta");
      if (!(delta > 0)) throw UserError("--delta: '" + args->delta + "': expected a length > 0");
    }
    const analysis::Table table =
        correlation.ToTable(irregular ? analysis::Binning::kIrregular : analysis::Binning::kRegular, delta);
    PrintTable(table, args->format);
  });
}

}  // namespace macroscope::cli
