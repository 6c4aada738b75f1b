#include "cli/workflow_running.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "catalog/catalog.h"
#include "server/stop_signals.h"
#include "util/error.h"
#include "util/file_checksum.h"

namespace macroscope::cli {

namespace {

std::string Absolute(const std::string& path) {
  std::error_code error;
  auto absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

// Every file the modules read and wrote, once each, with its checksum.
std::vector<catalog::RunFile> FilesOf(const pipeline::Workflow& workflow) {
  std::vector<catalog::RunFile> files;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& module : workflow.modules()) {
    for (const char* role : {"input", "output"}) {
      const auto& paths = std::string(role) == "input" ? module->files_read() : module->files_written();
      for (const std::string& path : paths) {
        std::string absolute = Absolute(path);
        if (!seen.insert({role, absolute}).second) continue;
        std::error_code error;
        if (!std::filesystem::exists(absolute, error)) continue;  // an output a failed run never wrote
        FileChecksum sum = ChecksumPath(absolute);
        files.push_back({role, absolute, static_cast<int64_t>(sum.bytes), sum.hex});
      }
    }
  }
  return files;
}

// Warns when a rerun read other data than the run it repeats.
void CompareInputs(const catalog::RunRecord& before, const std::vector<catalog::RunFile>& now) {
  for (const auto& file : now) {
    if (file.role != "input") continue;
    for (const auto& old : before.files)
      if (old.role == "input" && old.path == file.path && old.checksum != file.checksum)
        std::cerr << "macroscope: warning: " << file.path << " changed since run " << before.id << "\n";
  }
}

}  // namespace

int64_t RunWorkflowFile(const pipeline::WorkflowFile& file, const RunRequest& request) {
  pipeline::Workflow workflow;
  const pipeline::ModuleKinds kinds = file.Build(request.values, workflow);
  (void)kinds;

  std::optional<catalog::Catalog> cat;
  int64_t run_id = 0;
  std::optional<catalog::RunRecord> original;
  if (request.catalog) {
    cat.emplace(*request.catalog);
    if (request.rerun_of) original = cat->FindRun(*request.rerun_of);
    nlohmann::json texts = nlohmann::json::object();
    for (const auto& [path, text] : file.texts()) texts[Absolute(path)] = text;
    nlohmann::json parameters(request.values);
    catalog::RunRecord record;
    record.workflow_path = Absolute(file.path());
    record.workflows = texts.dump();
    record.parameters = parameters.dump();
    record.rerun_of = request.rerun_of;
    run_id = cat->StartRun(record);
  }

  const auto start = std::chrono::steady_clock::now();
  std::string failure;
  {
    // Ctrl-C stops the modules; the run is recorded as failed.
    server::StopSignals signals([&](int) { workflow.Cancel(); });
    try {
      workflow.Run();
    } catch (const UserError& e) {
      failure = e.what();
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<catalog::RunFile> files = FilesOf(workflow);
  if (cat) {
    cat->EndRun(run_id, failure.empty() ? "succeeded" : "failed", failure, files);
    if (original) CompareInputs(*original, files);
  }
  if (!failure.empty()) throw UserError(failure);
  if (!request.quiet) {
    std::string written;
    for (const auto& f : files)
      if (f.role == "output") written += "\n  wrote " + f.path;
    char time[32];
    std::snprintf(time, sizeof time, "%.3f s", seconds);
    std::cerr << (run_id ? "run " + std::to_string(run_id) + ": " : std::string()) << "succeeded in " << time
              << " (" << workflow.modules().size() << " modules)" << written << "\n";
  }
  return run_id;
}

}  // namespace macroscope::cli
