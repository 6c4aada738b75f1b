// The `macroscope` command: one binary, one subcommand per job.
// Exit codes: 0 success, 1 user error (one line naming file and line),
// 2 internal error.
#include <cstdio>
#include <exception>
#include <iostream>

#include "cli/commands.h"
#include "mpi/world.h"
#include "util/error.h"

int main(int argc, char** argv) {
  CLI::App app{"macroscope: read, aggregate and explore execution traces", "macroscope"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "macroscope 0.1.0");
  macroscope::cli::RegisterDumpCommand(app);
  macroscope::cli::RegisterInfoCommand(app);
  macroscope::cli::RegisterGenerateCommand(app);
  macroscope::cli::RegisterAggregateCommand(app);
  macroscope::cli::RegisterOverviewCommand(app);
  macroscope::cli::RegisterLoopsCommand(app);
  macroscope::cli::RegisterStatsCommand(app);
  macroscope::cli::RegisterProfileCommand(app);
  macroscope::cli::RegisterCriticalPathCommand(app);
  macroscope::cli::RegisterFlameGraphCommand(app);
  macroscope::cli::RegisterFormatsCommand(app);
  macroscope::cli::RegisterConvertCommand(app);
  macroscope::cli::RegisterImportCommand(app);
  macroscope::cli::RegisterCatalogCommand(app);
  macroscope::cli::RegisterServeCommand(app);
  macroscope::cli::RegisterRunCommand(app);
  macroscope::cli::RegisterKernelCommand(app);
  macroscope::cli::RegisterAnomaliesCommand(app);
  macroscope::cli::RegisterCorrelateCommand(app);
  macroscope::cli::RegisterCommCommand(app);
  macroscope::cli::RegisterWaitsCommand(app);
  macroscope::cli::RegisterDiffCommand(app);
  macroscope::cli::RegisterCampaignCommand(app);
  macroscope::cli::RegisterQueryCommand(app);
  // Under mpirun, before anything is printed: only rank 0 speaks.
  macroscope::mpi::Launched();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 1;
  } catch (const macroscope::UserError& e) {
    std::fflush(stdout);
    std::cerr << "macroscope: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "macroscope: internal error: " << e.what() << "\n";
    // In an MPI job the other ranks may wait for this one: end them too.
    macroscope::mpi::AbortJob(std::string("internal error: ") + e.what(), 2);
    return 2;
  }
  return 0;
}
