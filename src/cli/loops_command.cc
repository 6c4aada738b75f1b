// `macroscope loops`: model programs (periodic-linear loop nests that
// regenerate an integer trace). Output shapes are documented in
// docs/loops.md.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/table_writer.h"
#include "cli/commands.h"
#include "cli/loops_from_lackey.h"
#include "cli/trace_loading.h"
#include "loops/emit_c.h"
#include "loops/emit_json.h"
#include "loops/find_model.h"
#include "loops/model_table.h"
#include "loops/report.h"
#include "loops/series_scaling.h"
#include "loops/trace_series.h"
#include "loops/trace_text.h"
#include "loops/verify.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::cli {

namespace {

struct LoopsOptions {
  std::string file;
  // --from: a series of a trace instead of FILE.
  std::string from;
  loops::SeriesRequest request;
  formats::ReadOptions read;
  // --from-lackey: the data addresses of a valgrind lackey trace.
  LackeyRequest lackey;
  bool series_given = false;  // set from the CLI11 option counts
  bool unit_given = false;
  std::string mode = "auto";
  std::string algorithm = "auto";
  double tolerance = 0.0;
  int max_depth = 8;
  int order = 0;
  std::string emit = "report";
  std::string output;  // empty: standard output
  bool verify = false;
  bool timings = false;
};

constexpr int kMaxOrder = 8;

void ValidateInput(const LoopsOptions& o) {
  const loops::SeriesRequest& r = o.request;
  const LackeyRequest& l = o.lackey;
  if (!l.file.empty() && (!o.file.empty() || !o.from.empty())) {
    throw UserError("give one of FILE, --from TRACE or --from-lackey FILE");
  }
  const char* only_with_lackey = !l.function.empty() ? "--function"
                                 : !l.binary.empty() ? "--binary"
                                 : !l.range.empty()  ? "--range"
                                 : l.access_given    ? "--access"
                                                     : nullptr;
  if (l.file.empty() && only_with_lackey) throw UserError(std::string(only_with_lackey) + " needs --from-lackey FILE");
  if (o.from.empty()) {
    if (o.file.empty() && l.file.empty()) {
      throw UserError("give a FILE of integers, --from TRACE --container C --type T, or --from-lackey FILE");
    }
    const char* only_with_from = !r.container.empty() ? "--container"
                                 : !r.type.empty()    ? "--type"
                                 : o.series_given     ? "--series"
                                 : o.unit_given       ? "--unit"
                                 : r.scale_given      ? "--scale"
                                                      : nullptr;
    if (only_with_from) throw UserError(std::string(only_with_from) + " needs --from TRACE");
    return;
  }
  if (!o.file.empty()) throw UserError("give either FILE or --from TRACE, not both");
  if (r.container.empty()) throw UserError("--from needs --container C (a container name, alias or path)");
  if (r.type.empty()) throw UserError("--from needs --type T (an entity type name or alias)");
  if (o.unit_given && r.unit.empty()) throw UserError("--unit must be s, ms, us or ns, got ''");
  loops::CheckSeriesRequest(r);
}

// The series description in front of the output: report lines, a C
// comment, or a "series" member of the JSON object.
std::string WithSeries(const std::string& emit, const loops::TraceSeries& series, std::string text) {
  if (emit == "report") {
    std::string header;
    for (const std::string& line : series.header) header += line + "\n";
    return header + "\n" + text;
  }
  if (emit == "c") {
    std::string comment = "/* macroscope loops --from\n";
    for (std::string line : series.header) {
      for (size_t at; (at = line.find("*/")) != std::string::npos;) line.replace(at, 2, "* /");
      comment += " * " + line + "\n";
    }
    return comment + " */\n" + text;
  }
  // JSON: one more member before the closing brace of the object.
  const size_t close = text.rfind('}');
  if (close == std::string::npos) return text;
  return text.substr(0, close) + ",\"series\":" +
         series.description.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + text.substr(close);
}

loops::Options Validate(const LoopsOptions& o) {
  ValidateInput(o);
  loops::Options options;
  if (!loops::ParseMode(o.mode, options.mode)) {
    throw UserError("--mode must be auto, af, av, df or dv, got '" + o.mode + "'");
  }
  if (!loops::ParseAlgorithm(o.algorithm, options.algorithm)) {
    throw UserError("--algorithm must be auto, search or bottom-up, got '" + o.algorithm + "'");
  }
  if (!(o.tolerance >= 0.0 && o.tolerance < 1.0)) {
    throw UserError("--tolerance must be in [0, 1), got " + std::to_string(o.tolerance));
  }
  if (o.max_depth < 1 || o.max_depth > 30) throw UserError("--max-depth must be in 1..30");
  if (o.order < 0 || o.order > kMaxOrder) throw UserError("--order must be in 0.." + std::to_string(kMaxOrder));
  if (o.emit != "report" && o.emit != "c" && o.emit != "json" && o.emit != "csv") {
    throw UserError("--emit must be report, c, json or csv, got '" + o.emit + "'");
  }
  const bool bottom_up_mode = options.mode == loops::Mode::kAuto || options.mode == loops::Mode::kAdjacentFixed;
  if (options.algorithm == loops::Algorithm::kBottomUp && (!bottom_up_mode || o.order > 0)) {
    throw UserError("--algorithm bottom-up handles --mode auto or af without --order; use --algorithm search");
  }
  options.tolerance = o.tolerance;
  options.max_depth = o.max_depth;
  options.recurrence_order = o.order;
  return options;
}

void Write(const LoopsOptions& o, const std::string& text) {
  if (o.output.empty() || o.output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  AtomicFile file(o.output);
  if (std::fwrite(text.data(), 1, text.size(), file.stream()) != text.size()) {
    throw UserError(o.output + ": cannot write");
  }
  file.Commit();
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void RunLoops(const LoopsOptions& o) {
  const loops::Options options = Validate(o);
  const auto start = std::chrono::steady_clock::now();
  std::vector<int64_t> trace;
  std::string name = o.file == "-" ? "<stdin>" : o.file;
  std::optional<loops::TraceSeries> series;
  std::optional<LackeySeries> lackey;
  if (!o.lackey.file.empty()) {
    lackey = ReadLackeySeries(o.lackey);
    series = std::move(lackey->series);
    trace = std::move(series->values);
    name = series->name;
  } else if (!o.from.empty()) {
    LoadedTrace loaded;
    LoadTrace({o.from}, o.read, loaded);
    series = loops::ExtractSeries(TraceSource(loaded.trace), o.from, o.request);
    trace = std::move(series->values);
    name = series->name;
  } else if (o.file == "-") {
    // Standard input cannot be read twice (--verify): it is held whole.
    MappedFile file(o.file);
    trace = loops::ParseTrace(file.bytes(), name);
  }
  // A FILE is streamed: read while it is modelled, read again to verify.
  const bool streamed = series == std::nullopt && o.file != "-";
  const double read_seconds = Seconds(start);
  const auto model_start = std::chrono::steady_clock::now();
  loops::Choice used;
  loops::Model model;
  if (streamed) {
    loops::TraceReader reader(o.file, name);
    model = loops::FindModel(reader, options, &used);
  } else {
    model = loops::FindModel(trace, options, &used);
  }
  const double model_seconds = Seconds(model_start);

  if (o.emit == "report") {
    std::string text = loops::Report(model, options, used);
    if (lackey) text += LackeyNests(model, trace, *lackey);
    Write(o, series ? WithSeries(o.emit, *series, std::move(text)) : text);
  } else if (o.emit == "csv") {
    // The phases as a table: the rows of the query's loops().
    Write(o, analysis::FormatTable(loops::PhaseTable(model, series ? series->unit : ""), analysis::TableFormat::kCsv));
    std::cerr << loops::SummaryLine(model) << "\n";
  } else {
    std::string text = o.emit == "c" ? loops::EmitC(model) : loops::EmitJson(model);
    Write(o, series ? WithSeries(o.emit, *series, std::move(text)) : text);
    std::cerr << loops::SummaryLine(model) << "\n";
  }
  if (o.verify) {
    const auto verify_start = std::chrono::steady_clock::now();
    std::optional<loops::Difference> difference;
    if (streamed) {
      loops::TraceReader again(o.file, name);
      difference = loops::FirstDifference(again, model);
    } else {
      difference = loops::FirstDifference(trace, model);
    }
    if (difference) {
      if (difference->length_mismatch) {
        throw UserError(name + ": verify failed: the model regenerates " + std::to_string(difference->got_length) +
                        " values, the trace has " + std::to_string(difference->expected_length));
      }
      throw UserError(name + ": verify failed at index " + std::to_string(difference->index) + ": expected " +
                      std::to_string(difference->expected) + ", got " + std::to_string(difference->got));
    }
    std::cerr << "verify: ok, " << model.length << " values regenerated exactly";
    if (o.timings) std::cerr << " in " << Seconds(verify_start) << " s";
    std::cerr << "\n";
  }
  if (o.timings) {
    // A streamed FILE is read while it is modelled: "model" includes reading.
    std::cerr << "timings: read " << read_seconds << " s, model " << model_seconds << " s ("
              << loops::AlgorithmName(used.algorithm) << ", mode " << loops::ModeName(used.mode) << ")\n";
  }
}

}  // namespace

void RegisterLoopsCommand(CLI::App& app) {
  auto o = std::make_shared<LoopsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "loops", "Model an integer trace as periodic-linear loop nests that regenerate it (PLI)");
  cmd->add_option("FILE", o->file, "Whitespace-separated 64-bit integers ('-' for stdin)");
  cmd->add_option("--from", o->from,
                  "Model a series of this trace (any format) instead of FILE; needs --container and --type");
  cmd->add_option("--container", o->request.container, "With --from: container name, alias or slash path");
  cmd->add_option("--type", o->request.type, "With --from: entity type (state, event, variable, link) name or alias");
  CLI::Option* series = cmd->add_option("--series", o->request.series,
                                        "With --from: start, end, duration, value (variable values, or codes of "
                                        "value names) or interarrival (differences of consecutive starts)")
                            ->capture_default_str();
  CLI::Option* unit = cmd->add_option(
      "--unit", o->request.unit, "With --from, time series: tick unit s, ms, us or ns (default: the coarsest exact one)");
  CLI::Option* scale = cmd->add_option("--scale", o->request.scale,
                                       "With --from and --series value of a variable: multiply values by this");
  AddReadOptions(*cmd, o->read);
  cmd->add_option("--from-lackey", o->lackey.file,
                  "Model the data addresses of this valgrind lackey trace (--tool=lackey --trace-mem=yes) "
                  "instead of FILE");
  cmd->add_option("--function", o->lackey.function,
                  "With --from-lackey: keep the accesses of this function's instructions (needs the program)");
  cmd->add_option("--binary", o->lackey.binary,
                  "With --from-lackey: the traced program (default: the one of the trace's Command: line)");
  cmd->add_option("--range", o->lackey.range,
                  "With --from-lackey: keep the data addresses in [A, B), given as A-B in hexadecimal");
  CLI::Option* access =
      cmd->add_option("--access", o->lackey.access, "With --from-lackey: keep all accesses, loads or stores")
          ->capture_default_str();
  cmd->add_option("--mode", o->mode,
                  "auto: the smallest exact model over the modes (bounds affine in outer indices "
                  "included); or force af adjacent fixed-size, av adjacent variable-size, "
                  "df distant fixed-size, dv distant variable-size")
      ->capture_default_str();
  cmd->add_option("--algorithm", o->algorithm,
                  "auto (search and bottom-up up to 20000 values, bottom-up beyond), search (the "
                  "seed's top-down search) or bottom-up (near-linear; modes auto and af)")
      ->capture_default_str();
  cmd->add_option("--tolerance", o->tolerance,
                  "Share of a phase's values allowed to be exceptions, in [0, 1)")
      ->capture_default_str();
  cmd->add_option("--max-depth", o->max_depth, "Maximum number of nested loop dimensions")
      ->capture_default_str();
  cmd->add_option("--order", o->order, "Order of periodic-linear recurrences to search (RPLI); 0: none")
      ->capture_default_str();
  cmd->add_option("--emit", o->emit,
                  "report (text), c (a C program printing the trace), json, or csv (one row per phase)")
      ->capture_default_str();
  cmd->add_option("-o,--output", o->output, "Write the output to this file instead of stdout");
  cmd->add_flag("--verify", o->verify,
                "Regenerate the trace from the model and compare; exit 1 at the first difference");
  cmd->add_flag("--timings", o->timings, "Print read and modelling times on stderr");
  cmd->callback([o, series, unit, scale, access] {
    o->series_given = series->count() > 0;
    o->lackey.access_given = access->count() > 0;
    o->unit_given = unit->count() > 0;
    o->request.scale_given = scale->count() > 0;
    RunLoops(*o);
  });
}

}  // namespace macroscope::cli
