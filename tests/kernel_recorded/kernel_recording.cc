#include "kernel_recording.h"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string_view>

#include "formats/csv/quoted_fields.h"

namespace macroscope::testing {

namespace {

// The fields of one line of the CSV the command wrote, read as our CSV
// reader reads quoted fields.
std::vector<std::string> CsvFields(const std::string& line) {
  csv::QuotedFields quoted;
  std::vector<std::string_view> views;
  std::string error;
  EXPECT_TRUE(quoted.Split(line, views, error)) << error << ": " << line;
  return {views.begin(), views.end()};
}

}  // namespace

std::unique_ptr<KernelRecording> RecordWorkload(const std::string& mode) {
  auto r = std::make_unique<KernelRecording>();
  const std::string out = r->dir.path() + "/recording";
  CommandResult rec = RunCommand("bash " + Quote(std::string(MACROSCOPE_SOURCE_DIR) +
                                                 "/tests/kernel_recorded/record_kernel_trace.sh") +
                                 " " + mode + " " + Quote(out) + " " + Quote(KR_WORKLOAD));
  std::string why = rec.err;
  while (!why.empty() && why.back() == '\n') why.pop_back();
  if (rec.exit_code == 77) {
    r->skip = mode + ": " + why;
    return r;
  }
  if (rec.exit_code != 0) {
    r->error = mode + " recording failed (exit " + std::to_string(rec.exit_code) + "): " + why;
    return r;
  }
  CommandResult text;
  if (mode.rfind("perf", 0) == 0) {
    r->trace = out + "/perf-ctf";
    text = RunCommand("perf script --ns -i " + Quote(out + "/perf.data"));
  } else {
    r->trace = out + "/trace.dat";
    text = RunCommand("trace-cmd report -R -t " + Quote(r->trace));
  }
  if (text.exit_code != 0) {
    r->error = mode + ": the peer could not print the recording: " + text.err;
    return r;
  }
  r->text = std::move(text.out);
  std::istringstream tasks(ReadText(out + "/tasks.txt"));
  std::string word;
  WorkloadTask task;
  while (tasks >> word >> task.name >> task.tid >> task.pid) r->tasks.push_back(task);
  return r;
}

std::string PerfLoss(const KernelRecording& r) {
  const std::string log = std::filesystem::path(r.trace).parent_path() / "perf-convert.log";
  if (!std::filesystem::exists(log)) return "";
  const std::string text = ReadText(log);
  for (const char* word : {"lost", "out of order"}) {
    const size_t at = text.find(word);
    if (at == std::string::npos) continue;
    const size_t begin = text.rfind('\n', at) + 1, end = text.find('\n', at);
    return text.substr(begin, end - begin);
  }
  return "";
}

void KeepRecordingOfFailure(const KernelRecording& recording) {
  const char* tmp = std::getenv("TMPDIR");
  std::string kept = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/macroscope-kernel-recording-XXXXXX";
  std::error_code ec;
  if (mkdtemp(kept.data()) != nullptr)
    std::filesystem::copy(recording.dir.path(), kept, std::filesystem::copy_options::recursive, ec);
  std::cerr << "the recording is kept in " << kept << (ec ? " (copy failed: " + ec.message() + ")" : "") << "\n";
}

std::vector<std::map<std::string, std::string>> CsvRows(const std::string& text) {
  std::vector<std::map<std::string, std::string>> rows;
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line)) return rows;
  const std::vector<std::string> header = CsvFields(line);
  while (std::getline(in, line)) {
    std::vector<std::string> fields = CsvFields(line);
    auto& row = rows.emplace_back();
    for (size_t c = 0; c < header.size() && c < fields.size(); ++c) row[header[c]] = fields[c];
  }
  return rows;
}

}  // namespace macroscope::testing
