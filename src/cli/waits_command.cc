// `macroscope waits TRACE`: Scalasca's wait-state patterns of an MPI trace
// per container and call path (Late Sender, Late Receiver, Wait at N x N,
// Wait at Barrier), each wait with --instances, or with --idle each
// container's idle time, MPI time and time waiting in MPI (docs/waits.md).
// analysis/wait_states.h computes them; the query's wait_states(),
// wait_instances() and idle_time() are the same tables.
#include <memory>
#include <string>
#include <vector>

#include "analysis/wait_states.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/trace_loading.h"
#include "query/opened_trace.h"
#include "util/error.h"

namespace macroscope::cli {

void RegisterWaitsCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::WaitStatesRequest request;
    std::string window;
    bool idle = false;
    bool instances = false;
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "waits", "MPI wait states (Scalasca's Late Sender, Late Receiver, Wait at N x N, Wait at Barrier) per container "
               "and call path (--instances: each wait; --idle: idle, MPI and waiting time per container)");
  cmd->add_option("files", args->files, "Trace files (or one store), read in order as one trace")->required();
  CLI::Option* idle =
      cmd->add_flag("--idle", args->idle, "Per container: its span, time in states, idle, in MPI, waiting in MPI");
  cmd->add_flag("--instances", args->instances,
                "Each wait: its container, start, end, pattern, the container waited for, its length")
      ->excludes(idle);
  cmd->add_option("--window", args->window,
                  "Only the time inside START,END (each the trace clock's seconds, +OFFSET from the trace start "
                  "such as +2.5s, or a UTC date)");
  cmd->add_option("--containers", args->request.containers,
                  "Only these containers (names, aliases or paths) and their descendants");
  AddReadOptions(*cmd, args->read);
  AddTableFormatOption(*cmd, args->format);
  cmd->callback([args] {
    const query::OpenedTrace opened(args->files, args->read, store::CacheBudget::Scanning(),
                                    query::OpenedTrace::Indexes::kSkip);
    const Trace& trace = opened.source().trace();
    analysis::WaitStatesRequest request = args->request;
    ParseWindowOption(trace, args->window, request.start, request.end);
    const analysis::WaitStatesAccumulator waits = analysis::ComputeWaitStates(opened.source(), request);
    if (args->idle) {
      PrintTable(waits.Idle(), args->format);
      return;
    }
    try {
      PrintTable(args->instances ? waits.Instances() : waits.Patterns(), args->format);
    } catch (const UserError& e) {  // no MPI call: name the trace
      throw UserError(args->files.front() + ": " + e.what());
    }
  });
}

}  // namespace macroscope::cli
