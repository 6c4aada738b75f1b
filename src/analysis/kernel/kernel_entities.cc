#include "analysis/kernel/kernel_entities.h"

#include <charconv>
#include <string>

namespace macroscope::analysis::kernel {

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::optional<int64_t> WholeNumber(std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

bool ContainerIs(const Trace& trace, ContainerId id, std::string_view alias) {
  if (id >= trace.containers().size()) return false;
  const Container& c = trace.container(id);
  return c.type != kNone && trace.Str(trace.type(c.type).alias) == alias;
}

bool IsKernelTrace(const Trace& trace) {
  for (ContainerId id = 0; id < trace.containers().size(); ++id)
    if (ContainerIs(trace, id, kCpuAlias)) return true;
  return false;
}

std::optional<int64_t> IntegerField(const Trace& trace, const Container& c, std::string_view name) {
  for (const ExtraField& f : c.extras)
    if (trace.Str(f.name) == name) {
      std::string_view text = trace.Str(f.value);
      if (text.empty()) return std::nullopt;
      return std::stoll(std::string(text));
    }
  return std::nullopt;
}

std::string_view EventBaseName(std::string_view event_name) {
  const size_t colon = event_name.rfind(':');
  return colon == std::string_view::npos ? event_name : event_name.substr(colon + 1);
}

std::optional<KernelStateValue> KernelStateOf(std::string_view value) {
  for (auto [prefix, kind] : {std::pair{std::string_view("syscall:"), KernelState::kSyscall},
                              std::pair{std::string_view("irq:"), KernelState::kHardIrq},
                              std::pair{std::string_view("softirq:"), KernelState::kSoftIrq}})
    if (StartsWith(value, prefix)) return KernelStateValue{kind, value.substr(prefix.size())};
  return std::nullopt;
}

std::optional<int64_t> IntegerField(const Trace& trace, const EntityChunk& chunk, size_t i, std::string_view name,
                                    bool last) {
  std::optional<int64_t> found;
  chunk.ForEachField(i, [&](const ExtraField& f) {
    if ((found && !last) || trace.Str(f.name) != name) return;
    if (std::optional<int64_t> v = WholeNumber(trace.Str(f.value))) found = v;
  });
  return found;
}

std::optional<int64_t> NextTid(const Trace& trace, const EntityChunk& chunk, size_t i) {
  std::optional<int64_t> tid = IntegerField(trace, chunk, i, "next_tid");
  return tid ? tid : IntegerField(trace, chunk, i, "next_pid");
}

std::optional<int64_t> WokenTid(const Trace& trace, const EntityChunk& chunk, size_t i) {
  std::optional<int64_t> tid = IntegerField(trace, chunk, i, "tid", true);
  return tid ? tid : IntegerField(trace, chunk, i, "pid", true);
}

bool EndedByExit(const Trace& trace, const EntityChunk& chunk, size_t i, KernelState kind) {
  const std::string_view name = kind == KernelState::kSoftIrq ? "vec" : "ret";
  const int needed = kind == KernelState::kSoftIrq ? 2 : 1;
  int seen = 0;
  chunk.ForEachField(i, [&](const ExtraField& f) { seen += trace.Str(f.name) == name; });
  return seen >= needed;
}

}  // namespace macroscope::analysis::kernel
