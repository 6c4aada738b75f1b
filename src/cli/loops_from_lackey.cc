#include "cli/loops_from_lackey.h"

#include <filesystem>

#include "loops/lackey_nests.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::cli {

namespace {

std::string RangeText(const loops::AddressRange& range) {
  return "[" + loops::Hex(range.begin) + ", " + loops::Hex(range.end) + ")";
}

// The program to read symbols from: --binary, else the first word of the
// trace's Command: line when that is a file (relative to the current
// directory). `why_none` says why there is none.
std::string ProgramOf(const LackeyRequest& request, const std::string& command, std::string& why_none) {
  if (!request.binary.empty()) return request.binary;
  if (command.empty()) {
    why_none = "the trace has no Command: line";
    return "";
  }
  const std::string program = command.substr(0, command.find(' '));
  std::error_code error;
  if (std::filesystem::is_regular_file(program, error)) return program;
  why_none = "the traced program '" + program + "' (Command: line) is not a file here";
  return "";
}

}  // namespace

LackeySeries ReadLackeySeries(const LackeyRequest& request) {
  loops::LackeyFilter filter;
  if (!loops::ParseAccessFilter(request.access, filter.access)) {
    throw UserError("--access must be all, loads or stores, got '" + request.access + "'");
  }
  if (!request.range.empty()) {
    filter.data = loops::ParseAddressRange(request.range);
    if (!filter.data) {
      throw UserError("--range must be A-B, hexadecimal addresses (0x optional) with A < B (B excluded), got '" +
                      request.range + "'");
    }
  }
  MappedFile file(request.file);
  const std::string command = loops::LackeyCommand(file.bytes());
  std::string why_none;
  const std::string program = ProgramOf(request, command, why_none);

  LackeySeries out;
  if (!program.empty()) out.symbols = loops::ReadElfSymbols(program);
  if (!request.function.empty()) {
    if (!out.symbols) throw UserError("--function needs the traced program's symbols: " + why_none + "; give --binary PROGRAM");
    filter.instructions = loops::FunctionRanges(*out.symbols, request.function);
    filter.instructions_text = "instructions of function '" + request.function + "' in " + program + " ";
    for (size_t i = 0; i < filter.instructions.size(); ++i) {
      filter.instructions_text += (i ? " " : "") + RangeText(filter.instructions[i]);
    }
  }
  loops::LackeyAccesses read = loops::ReadLackey(file.bytes(), request.file, filter, &file);

  loops::TraceSeries& series = out.series;
  const std::string access(loops::AccessFilterName(filter.access));
  const int64_t n = static_cast<int64_t>(read.addresses.size());
  series.name = request.file + " (data addresses" +
                (request.function.empty() ? std::string() : " of function '" + request.function + "'") + ")";
  series.header.push_back("series: data addresses of the lackey trace " + request.file +
                          (command.empty() ? "" : " (command: " + command + ")") + ", " + std::to_string(n) +
                          " values: " + std::to_string(read.loads) + " loads, " + std::to_string(read.stores) +
                          " stores, " + std::to_string(read.modifies) + " modifies, of " +
                          std::to_string(read.accesses) + " data accesses in the trace");
  series.header.push_back(
      "filter: " + (filter.instructions.empty() ? std::string("all instructions") : filter.instructions_text) +
      "; data addresses " + (filter.data ? RangeText(*filter.data) : std::string("all")) + "; accesses " + access);
  series.header.push_back(
      out.symbols ? "program: " + program + " (load bias " + loops::Hex(out.symbols->load_bias) + ", " +
                        std::to_string(out.symbols->functions.size()) + " functions, " +
                        std::to_string(out.symbols->objects.size()) + " objects)"
                  : "program: none (" + why_none + "; give --binary PROGRAM to name the arrays)");

  nlohmann::ordered_json& d = series.description;
  d["trace"] = request.file;
  d["source"] = "lackey";
  d["command"] = command;
  d["binary"] = out.symbols ? nlohmann::ordered_json(program) : nlohmann::ordered_json();
  d["load_bias"] = out.symbols ? out.symbols->load_bias : 0;
  d["function"] = request.function.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(request.function);
  nlohmann::ordered_json instructions = nlohmann::ordered_json::array();
  for (const loops::AddressRange& r : filter.instructions) instructions.push_back({r.begin, r.end});
  d["instructions"] = instructions;
  d["range"] = filter.data ? nlohmann::ordered_json({filter.data->begin, filter.data->end}) : nlohmann::ordered_json();
  d["access"] = access;
  d["loads"] = read.loads;
  d["stores"] = read.stores;
  d["modifies"] = read.modifies;
  d["accesses"] = read.accesses;

  series.values = std::move(read.addresses);
  out.kinds = std::move(read.kinds);
  out.stack_top = read.first_address;
  return out;
}

std::string LackeyNests(const loops::Model& model, std::span<const int64_t> values, const LackeySeries& lackey) {
  if (!lackey.symbols) return "";
  return loops::NestsSection(model, values, lackey.kinds, *lackey.symbols, lackey.stack_top);
}

}  // namespace macroscope::cli
