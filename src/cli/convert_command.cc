// `macroscope convert IN… -o OUT`: reads any supported trace and writes it
// as Pajé text or Chrome Trace Event JSON (docs/convert.md). The output
// appears whole or not at all.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "formats/chrome/chrome_writer.h"
#include "formats/paje/paje_writer.h"
#include "formats/paraver/paraver_writer.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

struct ConvertArgs {
  std::vector<std::string> files;
  formats::ReadOptions read;
  std::string output;
  std::string to;  // "paje", "chrome" or "paraver"; empty: from the output's extension
};

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string OutputFormat(const ConvertArgs& args) {
  if (!args.to.empty()) return args.to;
  if (EndsWith(args.output, ".paje") || EndsWith(args.output, ".trace")) return "paje";
  if (EndsWith(args.output, ".json")) return "chrome";
  if (EndsWith(args.output, ".prv")) return "paraver";
  throw UserError(args.output + ": cannot tell the output format from the extension (.paje, .trace, .json, .prv): "
                  "give --to paje|chrome|paraver");
}

void RunConvert(const ConvertArgs& args) {
  std::string format = OutputFormat(args);  // before reading: fail fast
  LoadedTrace loaded;
  LoadTrace(args.files, args.read, loaded);
  if (format == "paraver") {  // three files (.prv, .pcf, .row): never standard output
    paraver::WriteStats s = paraver::WriteParaverFiles(loaded.trace, args.output);
    if (s.variables)
      std::fprintf(stderr, "macroscope: warning: %s: %llu variable value(s) left out: Paraver has no variables\n",
                   args.output.c_str(), static_cast<unsigned long long>(s.variables));
    return;
  }
  if (args.output == "-") {
    if (format == "paje") paje::WritePaje(loaded.trace, stdout);
    else chrome::WriteChrome(loaded.trace, stdout);
    std::fflush(stdout);
    return;
  }
  if (format == "paje") {
    paje::PajeWriteStats s = paje::WritePajeFile(loaded.trace, args.output);
    if (s.sanitized)
      std::fprintf(stderr, "macroscope: warning: %s: %llu string(s) changed to fit Pajé words (see docs/convert.md)\n",
                   args.output.c_str(), static_cast<unsigned long long>(s.sanitized));
  } else {
    chrome::WriteChromeFile(loaded.trace, args.output);
  }
}

}  // namespace

void RegisterConvertCommand(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app.add_subcommand("convert", "Convert a trace to Pajé text or Chrome Trace Event JSON");
  cmd->add_option("files", args->files, "Input trace files (any supported format), read as one trace")->required();
  cmd->add_option("-o,--output", args->output,
                  "Output file ('-': standard output, needs --to); format from the extension: "
                  ".paje/.trace Pajé, .json Chrome, .prv Paraver (with .pcf and .row beside it)")
      ->required();
  cmd->add_option("--to", args->to, "Output format, whatever the extension")->check(CLI::IsMember({"paje", "chrome", "paraver"}));
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    if (args->output == "-" && args->to.empty()) throw UserError("--output - needs --to paje|chrome");
    if (args->output == "-" && args->to == "paraver") throw UserError("--to paraver writes three files: give -o X.prv");
    RunConvert(*args);
  });
}

}  // namespace macroscope::cli
