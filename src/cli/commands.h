// Each subcommand lives in its own <name>_command.cc and registers itself
// on the root CLI11 app. A command's callback throws UserError for bad
// input; main() turns that into a one-line message and exit code 1.
#pragma once

#include <CLI/CLI.hpp>

namespace macroscope::cli {

void RegisterDumpCommand(CLI::App& app);
void RegisterInfoCommand(CLI::App& app);
void RegisterGenerateCommand(CLI::App& app);
void RegisterAggregateCommand(CLI::App& app);
void RegisterOverviewCommand(CLI::App& app);
void RegisterLoopsCommand(CLI::App& app);
void RegisterStatsCommand(CLI::App& app);
void RegisterProfileCommand(CLI::App& app);
void RegisterCriticalPathCommand(CLI::App& app);
void RegisterFlameGraphCommand(CLI::App& app);
void RegisterFormatsCommand(CLI::App& app);
void RegisterConvertCommand(CLI::App& app);
void RegisterImportCommand(CLI::App& app);
void RegisterCatalogCommand(CLI::App& app);
void RegisterServeCommand(CLI::App& app);
void RegisterRunCommand(CLI::App& app);
void RegisterKernelCommand(CLI::App& app);
// The kernel group's subcommands (kernel_*_command.cc).
void RegisterKernelProcesses(CLI::App& kernel_group);
void RegisterKernelSubsystems(CLI::App& kernel_group);
void RegisterKernelMemory(CLI::App& kernel_group);
void RegisterKernelLatency(CLI::App& kernel_group);
// `anomalies` and `correlate` (anomalies_command.cc, correlate_command.cc).
void RegisterAnomaliesCommand(CLI::App& app);
void RegisterCorrelateCommand(CLI::App& app);
// `comm` (comm_command.cc).
void RegisterCommCommand(CLI::App& app);
// `waits` (waits_command.cc).
void RegisterWaitsCommand(CLI::App& app);
// `diff` (diff_command.cc).
void RegisterDiffCommand(CLI::App& app);
// `campaign` (campaign_command.cc).
void RegisterCampaignCommand(CLI::App& app);
void RegisterQueryCommand(CLI::App& app);
// `catalog runs` and `catalog rerun`, in the catalog command's group.
void RegisterCatalogRunCommands(CLI::App& catalog_group);
// `catalog group add|list|show` (catalog_group_command.cc).
void RegisterCatalogGroupCommand(CLI::App& catalog_group);

}  // namespace macroscope::cli
