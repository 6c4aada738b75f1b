#include "loops/lackey_trace.h"

#include <charconv>
#include <cstring>
#include <utility>

#include "loops/trace_text.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::loops {

namespace {

constexpr size_t kReleaseEvery = size_t{64} << 20;  // bytes read between two releases of pages

constexpr std::pair<std::string_view, AccessFilter> kAccessFilters[] = {
    {"all", AccessFilter::kAll}, {"loads", AccessFilter::kLoads}, {"stores", AccessFilter::kStores}};

// "ADDR,SIZE" (hex address, decimal size > 0) -> the address; a problem
// for the message otherwise.
std::optional<uint64_t> AddressAndSize(std::string_view text, std::string& problem) {
  const size_t comma = text.find(',');
  if (comma == std::string_view::npos) {
    problem = "expected ADDRESS,SIZE";
    return std::nullopt;
  }
  uint64_t address = 0;
  const std::string_view hex = text.substr(0, comma);
  auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), address, 16);
  if (hex.empty() || error != std::errc() || end != hex.data() + hex.size()) {
    problem = "address '" + ShownInput(hex) + "' is not a 64-bit hexadecimal number";
    return std::nullopt;
  }
  const std::string_view digits = text.substr(comma + 1);
  uint64_t size = 0;
  auto [size_end, size_error] = std::from_chars(digits.data(), digits.data() + digits.size(), size, 10);
  if (digits.empty() || size_error != std::errc() || size_end != digits.data() + digits.size() || size == 0) {
    problem = "size '" + ShownInput(digits) + "' is not a positive decimal number";
    return std::nullopt;
  }
  return address;
}

std::string_view KindName(AccessFilter filter) { return filter == AccessFilter::kLoads ? "a load" : "a store"; }

// The filter stages, in order, for the message when one keeps nothing.
struct StageCounts {
  int64_t by_instruction = 0;  // accesses of the kept instructions
  int64_t in_range = 0;        // of those, in the data range
};

[[noreturn]] void NothingKept(std::string_view name, const LackeyFilter& filter, const LackeyAccesses& read,
                              const StageCounts& stages) {
  std::string message(name);
  message += ": no access kept: ";
  if (read.accesses == 0) {
    throw UserError(message + "the trace has no data access (was it recorded with --trace-mem=yes?)");
  }
  std::string of = "of the " + std::to_string(read.accesses) + " data accesses";
  if (stages.by_instruction == 0) {
    throw UserError(message + "none " + of + " is by the " + filter.instructions_text +
                    " (was the trace recorded from this program?)");
  }
  if (!filter.instructions.empty()) {
    of = "of the " + std::to_string(stages.by_instruction) + " data accesses by the " + filter.instructions_text;
  }
  if (stages.in_range == 0) {
    throw UserError(message + "none " + of + " is in the data range [" + Hex(filter.data->begin) + ", " +
                    Hex(filter.data->end) + ") of --range");
  }
  if (filter.data) of += " in the data range";
  throw UserError(message + "none " + of + " is " + std::string(KindName(filter.access)) + " (--access " +
                  std::string(AccessFilterName(filter.access)) + ")");
}

}  // namespace

std::optional<uint64_t> ParseHex(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<AddressRange> ParseAddressRange(std::string_view text) {
  const size_t dash = text.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const auto begin = ParseHex(text.substr(0, dash)), end = ParseHex(text.substr(dash + 1));
  if (!begin || !end || *end <= *begin) return std::nullopt;
  return AddressRange{*begin, *end};
}

bool ParseAccessFilter(std::string_view text, AccessFilter& filter) {
  for (const auto& [name, value] : kAccessFilters) {
    if (text == name) {
      filter = value;
      return true;
    }
  }
  return false;
}

std::string_view AccessFilterName(AccessFilter filter) {
  for (const auto& [name, value] : kAccessFilters) {
    if (filter == value) return name;
  }
  return "all";
}

std::string Hex(uint64_t value) {
  char text[24];
  auto [end, error] = std::to_chars(text, text + sizeof text, value, 16);
  (void)error;
  return "0x" + std::string(text, end);
}

std::string LackeyCommand(std::string_view text) {
  constexpr std::string_view kCommand = " Command: ";
  // The header lines come first; the first other line ends the search.
  while (text.starts_with("==")) {
    const size_t eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    const size_t at = line.find(kCommand);
    if (at != std::string_view::npos && line.substr(0, at).ends_with("==")) {
      return std::string(line.substr(at + kCommand.size()));
    }
    if (eol == std::string_view::npos) break;
    text.remove_prefix(eol + 1);
  }
  return "";
}

LackeyAccesses ReadLackey(std::string_view text, std::string_view name, const LackeyFilter& filter,
                          MappedFile* file) {
  LackeyAccesses out;
  StageCounts stages;
  bool instruction_kept = filter.instructions.empty();
  uint64_t line_number = 0;
  size_t released = 0;
  std::string problem;
  for (size_t at = 0; at < text.size();) {
    const char* eol = static_cast<const char*>(std::memchr(text.data() + at, '\n', text.size() - at));
    const size_t next = eol ? static_cast<size_t>(eol - text.data()) + 1 : text.size();
    if (file != nullptr && at - released >= kReleaseEvery) {
      file->Release(at);  // the lines before this one
      released = at;
    }
    const std::string_view line = text.substr(at, (eol ? next - 1 : next) - at);
    at = next;
    ++line_number;
    if (line.empty() || line.starts_with("==")) continue;
    // "I  0010913c,3": an instruction; its data accesses follow it.
    if (line[0] == 'I' && line.size() > 1 && line[1] == ' ') {
      const size_t fields = line.find_first_not_of(' ', 1);
      const auto address = AddressAndSize(line.substr(std::min(fields, line.size())), problem);
      if (!address) ThrowAt(name, line_number, "instruction line: " + problem + ": '" + ShownInput(line) + "'");
      if (!filter.instructions.empty()) {
        instruction_kept = false;
        for (const AddressRange& range : filter.instructions) instruction_kept |= range.Contains(*address);
      }
      continue;
    }
    // " L 0010c440,8", " S ...", " M ...": a data access.
    if (line.size() > 3 && line[0] == ' ' && line[2] == ' ' &&
        (line[1] == 'L' || line[1] == 'S' || line[1] == 'M')) {
      const auto address = AddressAndSize(line.substr(3), problem);
      if (!address) ThrowAt(name, line_number, "data access line: " + problem + ": '" + ShownInput(line) + "'");
      if (!out.first_address) out.first_address = *address;
      ++out.accesses;
      if (!instruction_kept) continue;
      ++stages.by_instruction;
      if (filter.data && !filter.data->Contains(*address)) continue;
      ++stages.in_range;
      const AccessKind kind = line[1] == 'L' ? AccessKind::kLoad : line[1] == 'S' ? AccessKind::kStore
                                                                                  : AccessKind::kModify;
      if ((filter.access == AccessFilter::kLoads && kind == AccessKind::kStore) ||
          (filter.access == AccessFilter::kStores && kind == AccessKind::kLoad)) {
        continue;
      }
      (kind == AccessKind::kLoad ? out.loads : kind == AccessKind::kStore ? out.stores : out.modifies) += 1;
      // Addresses above 2^63 (none in user space) wrap, as the model's arithmetic does.
      out.addresses.push_back(static_cast<int64_t>(*address));
      out.kinds.push_back(kind);
      continue;
    }
    ThrowAt(name, line_number,
            "not a lackey line (expected 'I  ADDRESS,SIZE', ' L|S|M ADDRESS,SIZE' or '==PID== ...'): '" +
                ShownInput(line) + "'");
  }
  if (out.addresses.empty()) NothingKept(name, filter, out, stages);
  return out;
}

}  // namespace macroscope::loops
