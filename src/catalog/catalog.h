// The trace catalog: per trace, the experiment metadata Framesoc keeps, and
// what analyses saved on it (annotations, bookmarks, aggregations). See
// docs/catalog.md for the schema and the commands.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/database.h"
#include "model/trace.h"

namespace macroscope::catalog {

struct TraceRecord {
  int64_t id = 0;            // assigned by AddTrace
  std::string path;          // absolute path of the trace file
  std::string application;
  std::string board;
  std::string os;
  std::optional<int64_t> cpus;
  int64_t events = 0;        // records read
  int64_t producers = 0;     // containers
  double first_time = 0;
  double last_time = 0;
  std::string time_unit = "s";
  std::string tracing_date;  // ISO 8601
  std::string description;
  std::string added_at;      // set by the catalog
  std::vector<std::pair<std::string, std::string>> parameters;  // free key=value, sorted by key
};

struct Annotation {
  int64_t id = 0;
  int64_t trace_id = 0;
  std::string kind;  // "annotation" or "bookmark"
  double start = 0;
  double end = 0;
  std::vector<std::string> containers;  // empty: the whole trace
  std::string text;
  std::string created_at;
};

struct SavedAggregation {
  int64_t id = 0;
  int64_t trace_id = 0;
  std::string parameters;  // JSON text
  std::string result;      // JSON text
  std::string created_at;
};

// A run of a workflow (macroscope run): what it was given, when it ran,
// how it ended, the files it read and wrote.
struct RunFile {
  std::string role;  // "input" or "output"
  std::string path;  // absolute
  int64_t bytes = 0;
  std::string checksum;  // files_checksum.h
};

struct RunRecord {
  int64_t id = 0;
  std::string workflow_path;  // absolute path of the main workflow file
  std::string workflows;      // JSON object: path -> text, every file the workflow used
  std::string parameters;     // JSON object: name -> value
  std::string started_at;     // ISO 8601 UTC, millisecond
  std::string ended_at;       // empty while running
  std::string outcome;        // running, succeeded, failed
  std::string message;        // the failure
  std::optional<int64_t> rerun_of;  // the run it repeats (catalog rerun)
  std::vector<RunFile> files;
};

// Fills the measured fields (counts, time span) from a loaded trace.
void FillFromTrace(const Trace& trace, uint64_t events, TraceRecord& record);

class Catalog {
 public:
  // $XDG_DATA_HOME/macroscope/catalog.sqlite, else
  // ~/.local/share/macroscope/catalog.sqlite. Throws UserError when neither
  // variable is set.
  static std::string DefaultPath();

  // Opens or creates the catalog (creating its directory), migrating it
  // to the latest schema. Throws UserError naming the file.
  explicit Catalog(const std::string& path, int busy_timeout_ms = BusyTimeoutMs());

  const std::string& path() const { return db_.path(); }

  // Throws UserError when the path is already catalogued.
  int64_t AddTrace(const TraceRecord& record);
  // By id (all digits) or by path (made absolute).
  std::optional<TraceRecord> Find(std::string_view id_or_path);
  std::vector<TraceRecord> List();
  // Removes the trace with everything saved on it; false if absent.
  bool Remove(int64_t trace_id);

  int64_t AddAnnotation(int64_t trace_id, double start, double end, const std::vector<std::string>& containers,
                        std::string_view text, std::string_view kind);
  std::vector<Annotation> Annotations(int64_t trace_id);

  // Runs (runs.cc): recorded when they start, completed when they end.
  int64_t StartRun(const RunRecord& run);
  void EndRun(int64_t id, std::string_view outcome, std::string_view message, const std::vector<RunFile>& files);
  std::vector<RunRecord> Runs();
  std::optional<RunRecord> FindRun(int64_t id);

  // Groups of traces (groups.cc, schema version 3): the runs of one
  // experiment. AddToGroup creates the group when new and appends the
  // paths (made absolute; a path already in it stays where it is); the
  // traces need not be catalogued. Throws UserError for an empty name.
  void AddToGroup(std::string_view name, const std::vector<std::string>& paths);
  // (name, number of traces), by name.
  std::vector<std::pair<std::string, int64_t>> Groups();
  // The group's paths in the order added; nullopt when there is no such group.
  std::optional<std::vector<std::string>> Group(std::string_view name);

  int64_t SaveAggregation(int64_t trace_id, std::string_view parameters_json, std::string_view result_json);
  std::vector<SavedAggregation> Aggregations(int64_t trace_id);

 private:
  std::optional<TraceRecord> FindWhere(const char* where, const std::string& key, bool by_id);
  Database db_;
};

// The absolute, normalised form under which a trace path is catalogued.
std::string CatalogPath(std::string_view path);

}  // namespace macroscope::catalog
