// `macroscope profile TRACE`: where the time goes, per container and
// function (calls, inclusive and exclusive time), per function over the
// containers (--total: sums, mean, min, max, imbalance), or the calling
// context tree (--tree). analysis/profile.h computes it; a store is read
// chunk by chunk, anything else whole (docs/profile.md). `macroscope
// flamegraph TRACE -o F.svg|F.png` draws the tree (render/flame_graph.h).
#include <memory>
#include <string>
#include <vector>

#include "analysis/profile.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "query/opened_trace.h"
#include "render/flame_graph.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

// The options both commands take: the trace, its window and containers.
struct ProfileArgs {
  std::vector<std::string> files;
  formats::ReadOptions read;
  analysis::ProfileRequest request;
  std::string window;
};

void AddProfileOptions(CLI::App& cmd, ProfileArgs& args) {
  cmd.add_option("files", args.files, "Trace files (or one store), read in order as one trace")->required();
  cmd.add_option("--window", args.window,
                 "Only the time inside START,END (each the trace clock's seconds, +OFFSET from the trace start "
                 "such as +2.5s, or a UTC date)");
  cmd.add_option("--containers", args.request.containers,
                 "Only these containers (names, aliases or paths) and their descendants");
  AddReadOptions(cmd, args.read);
}

// The profile the options ask for (with its call paths when `call_paths`);
// `use` gets it with its trace.
template <class Use>
void WithProfile(const ProfileArgs& args, bool call_paths, Use&& use) {
  formats::ReadOptions read = args.read;
  read.kinds = formats::EntityKinds::Only({TypeKind::kState});  // functions are states
  const query::OpenedTrace opened(args.files, read, store::CacheBudget::Scanning(),
                                  query::OpenedTrace::Indexes::kSkip);
  const Trace& trace = opened.source().trace();
  analysis::ProfileRequest request = args.request;
  request.call_paths = call_paths;
  ParseWindowOption(trace, args.window, request.start, request.end);
  use(trace, analysis::ComputeProfile(opened.source(), request));
}

}  // namespace

void RegisterProfileCommand(CLI::App& app) {
  struct Args : ProfileArgs {
    bool total = false, tree = false;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "profile", "Per container and function: calls, inclusive and exclusive time (--total: per function; --tree: "
                 "per call path)");
  AddProfileOptions(*cmd, *args);
  CLI::Option* total = cmd->add_flag(
      "--total", args->total, "One row per function over the containers: sums, mean, min and max, imbalance (max / mean)");
  cmd->add_flag("--tree", args->tree, "The calling context tree: one row per call path, merged over the containers")
      ->excludes(total);
  AddTableFormatOption(*cmd, args->format);
  cmd->callback([args] {
    WithProfile(*args, args->tree, [&](const Trace& trace, const analysis::Profile& profile) {
      PrintTable(args->total  ? analysis::ProfileTotalTable(trace, profile)
                 : args->tree ? analysis::CallTreeTable(trace, profile.tree)
                              : analysis::ProfileTable(trace, profile),
                 args->format);
    });
  });
}

void RegisterFlameGraphCommand(CLI::App& app) {
  struct Args : ProfileArgs {
    std::string output;
    int width = 1200;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("flamegraph", "The calling context tree as a flame graph (SVG or PNG)");
  AddProfileOptions(*cmd, *args);
  cmd->add_option("-o,--output", args->output, "The picture: F.svg or F.png")->required();
  cmd->add_option("--width", args->width, "Width in pixels")->check(CLI::Range(300, 20000));
  cmd->callback([args] {
    if (!render::FormatFromPath(args->output)) throw UserError(args->output + ": a picture's name ends in .svg or .png");
    WithProfile(*args, true, [&](const Trace& trace, const analysis::Profile& profile) {
      render::FlameGraphOptions options;
      options.width = args->width;
      options.subtitle = args->files.front() + (args->window.empty() ? "" : ", window " + args->window);
      render::SaveFlameGraph(analysis::CallTreeTable(trace, profile.tree), options, args->output);
    });
  });
}

}  // namespace macroscope::cli
