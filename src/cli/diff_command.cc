// `macroscope diff A B`: what changed between two runs of one program
// (docs/compare.md): per function (default), per matched container, per
// kernel thread, the containers of one run only, or the parts of the
// differential overview, with a one-line summary of the matching (above a
// text table, else on standard error). analysis/compare/run_diff.h
// computes it; `-o` draws the differential overview.
#include <cstdio>
#include <memory>
#include <string>

#include "analysis/compare/run_diff.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "query/opened_trace.h"
#include "render/canvas.h"
#include "render/differential_picture.h"
#include "util/error.h"

namespace macroscope::cli {

void RegisterDiffCommand(CLI::App& app) {
  struct Args {
    std::string a, b, align = "start", by = "function", output;
    formats::ReadOptions read;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "What changed between two runs: per function, container or kernel thread, A's and B's calls and "
              "times, B - A and B / A");
  cmd->add_option("a", args->a, "Run A: a trace file (or store)")->required();
  cmd->add_option("b", args->b, "Run B: a trace file (or store) of the same kind")->required();
  cmd->add_option("--align", args->align,
                  "Where both runs' time 0 is: start (default), end, event:NAME (the first event or state NAME), "
                  "none (the clocks as they are)");
  cmd->add_option("--by", args->by,
                  "function (default), container (matched containers), thread (kernel traces), unmatched, parts "
                  "(the differential overview's parts where the runs differ most)");
  cmd->add_option("-o,--output", args->output,
                  "The differential overview (state time over the common span) as a picture: F.svg or F.png");
  AddTableFormatOption(*cmd, args->format);
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    const analysis::compare::Alignment alignment = analysis::compare::ParseAlignment(args->align, "--align");
    const analysis::compare::DiffView view = analysis::compare::ParseDiffView(args->by, "--by");
    if (!args->output.empty() && !render::FormatFromPath(args->output))
      throw UserError(args->output + ": a picture's name ends in .svg or .png");
    // A store is read as the tables reach its chunks: two runs of any size.
    const query::OpenedTrace a({args->a}, args->read, store::CacheBudget::Scanning(), query::OpenedTrace::Indexes::kSkip);
    const query::OpenedTrace b({args->b}, args->read, store::CacheBudget::Scanning(), query::OpenedTrace::Indexes::kSkip);
    const analysis::compare::Run run_a{a.source(), args->a + " (" + std::string(formats::Detect(args->a).name) + ")"};
    const analysis::compare::Run run_b{b.source(), args->b + " (" + std::string(formats::Detect(args->b).name) + ")"};
    const analysis::compare::RunDiff diff =
        analysis::compare::DiffRuns(run_a, run_b, alignment, view, /*overview=*/!args->output.empty());
    if (!args->output.empty()) {
      render::Canvas canvas(1200, 800, *render::FormatFromPath(args->output));
      render::DrawDifferentialOverview(canvas, {&*diff.overview, run_a.name, run_b.name, args->align, "state-time"});
      canvas.Save(args->output);
    }
    // The summary above a text table; beside CSV and JSON, on standard error.
    if (args->format == analysis::TableFormat::kText) {
      std::printf("%s\n\n", diff.summary.c_str());
      std::fflush(stdout);
    } else {
      std::fprintf(stderr, "macroscope: diff: %s\n", diff.summary.c_str());
    }
    PrintTable(diff.table, args->format);
  });
}

}  // namespace macroscope::cli
