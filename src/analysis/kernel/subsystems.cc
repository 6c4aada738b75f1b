#include "analysis/kernel/subsystems.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/entity_selection.h"
#include "analysis/kernel/kernel_entities.h"

namespace macroscope::analysis::kernel {

namespace {

struct Prefixes {
  Subsystem subsystem;
  std::vector<std::string_view> prefixes;
};

// The seed's table, then system calls (LTTng's syscall_entry_/exit_ and
// compat_, older LTTng's sys_X and exit_syscall, perf's sys_enter_/exit_),
// which the seed's table leaves out: they are the interface to every
// subsystem, so they form a class of their own rather than "system".
const std::vector<Prefixes>& PrefixTable() {
  static const std::vector<Prefixes> table = {
      {Subsystem::kProcessor, {"timer_", "hrtimer_", "itimer_", "power_", "irq_", "softirq_"}},
      {Subsystem::kMemory, {"kmem_", "mm_"}},
      {Subsystem::kSystem,
       {"workqueue_", "signal_", "sched_", "module_", "rpm_", "lttng_", "rcu_", "regulator_", "regmap_", "regcache_",
        "random_", "console_", "gpio_"}},
      {Subsystem::kGraphics, {"v4l2_", "snd_"}},
      {Subsystem::kDisk, {"scsi_", "jbd2_", "block_"}},
      {Subsystem::kNetwork, {"udp_", "rpc_", "sock_", "skb_", "net_", "netif_", "napi_"}},
      {Subsystem::kSyscall, {"syscall_entry_", "syscall_exit_", "compat_syscall_", "sys_", "exit_syscall"}},
  };
  return table;
}

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The owner of a container: its nearest Process ancestor (or itself).
ContainerId OwnerOf(const Trace& trace, ContainerId c) {
  for (ContainerId x = c; x != kNone && x != kRootContainer; x = trace.container(x).parent) {
    const Type& type = trace.type(trace.container(x).type);
    if (trace.Str(type.alias) == kProcessAlias || trace.Str(type.name) == "Process") return x;
  }
  return c;
}

}  // namespace

std::string_view SubsystemName(Subsystem s) {
  static constexpr std::array<std::string_view, kSubsystemCount> names = {
      "processor", "memory", "system", "graphics", "disk", "network", "syscall", "other"};
  return names[static_cast<size_t>(s)];
}

Subsystem SubsystemOfEvent(std::string_view event_name) {
  const std::string_view base = EventBaseName(event_name);
  for (const Prefixes& row : PrefixTable())
    for (std::string_view prefix : row.prefixes)
      if (StartsWith(base, prefix)) return row.subsystem;
  return Subsystem::kOther;
}

std::optional<Subsystem> SubsystemOfState(std::string_view value) {
  const std::optional<KernelStateValue> state = KernelStateOf(value);
  if (!state) return std::nullopt;
  return state->kind == KernelState::kSyscall ? Subsystem::kSyscall : Subsystem::kProcessor;
}

uint8_t SubsystemTally::ClassOf(std::vector<uint8_t>& cache, StringId id, const Trace& trace, bool state) {
  if (id >= cache.size()) cache.resize(std::max<size_t>(id + 1, cache.size() * 2), kUnknown);
  uint8_t& answer = cache[id];
  if (answer == kUnknown) {
    const std::string_view text = trace.Str(id);
    if (state) {
      const std::optional<Subsystem> s = SubsystemOfState(text);
      answer = s ? static_cast<uint8_t>(*s) : kNoClass;
    } else {
      answer = static_cast<uint8_t>(SubsystemOfEvent(text));
    }
  }
  return answer;
}

void SubsystemTally::Add(const Trace& trace, const EntityChunk& chunk) {
  if (chunk.empty() || (chunk.kind != TypeKind::kEvent && chunk.kind != TypeKind::kState)) return;
  if (chunk.kind == TypeKind::kEvent) {
    std::array<Sums, kSubsystemCount>& sums = per_container_[chunk.container];
    for (size_t i = 0; i < chunk.size(); ++i) ++sums[ClassOf(event_classes_, chunk.Value(i), trace, false)].events;
    return;
  }
  std::array<Sums, kSubsystemCount>* sums = nullptr;  // a container appears once it has a classed state
  for (size_t i = 0; i < chunk.size(); ++i) {
    const uint8_t c = ClassOf(state_classes_, chunk.Value(i), trace, true);
    if (c == kNoClass) continue;
    if (sums == nullptr) sums = &per_container_[chunk.container];
    ++(*sums)[c].states;
    if (chunk.Level(i) == 0) (*sums)[c].ticks += chunk.Duration(i);
  }
}

std::vector<SubsystemRow> SubsystemTally::Rows(const Trace& trace) const {
  const TimeBase& base = trace.time_base();
  std::array<Sums, kSubsystemCount> overall{};
  // (owner type, owner name, owner id) -> sums, so owners come sorted.
  std::map<std::tuple<std::string, std::string, ContainerId>, std::array<Sums, kSubsystemCount>> owners;
  for (const auto& [container, sums] : per_container_) {
    const ContainerId owner = container < trace.containers().size() ? OwnerOf(trace, container) : container;
    std::string type, name;
    if (owner < trace.containers().size()) {
      type = std::string(trace.Str(trace.type(trace.container(owner).type).name));
      name = std::string(trace.Str(trace.container(owner).name));
    }
    auto& into = owners[{type, name, owner}];
    for (size_t c = 0; c < kSubsystemCount; ++c)
      for (Sums* s : {&into[c], &overall[c]}) {
        s->events += sums[c].events;
        s->states += sums[c].states;
        s->ticks += sums[c].ticks;
      }
  }
  auto figures = [&](const Sums& s) { return SubsystemFigures{s.events, s.states, Nanoseconds(base, s.ticks)}; };
  std::vector<SubsystemRow> rows;
  for (size_t c = 0; c < kSubsystemCount; ++c)
    rows.push_back({"", "all", static_cast<Subsystem>(c), figures(overall[c])});
  for (const auto& [key, sums] : owners)
    for (size_t c = 0; c < kSubsystemCount; ++c)
      if (sums[c].events > 0 || sums[c].states > 0)
        rows.push_back({std::get<1>(key), std::get<0>(key), static_cast<Subsystem>(c), figures(sums[c])});
  return rows;
}

std::array<uint64_t, kSubsystemCount> SubsystemTally::EventsPerClass() const {
  std::array<uint64_t, kSubsystemCount> events{};
  for (const auto& [container, sums] : per_container_)
    for (size_t c = 0; c < kSubsystemCount; ++c) events[c] += sums[c].events;
  return events;
}

Table SubsystemTally::ToTable(const Trace& trace, const SubsystemTally* overall_events) const {
  std::vector<SubsystemRow> rows = Rows(trace);
  if (overall_events != nullptr) {
    const std::array<uint64_t, kSubsystemCount> events = overall_events->EventsPerClass();
    for (size_t c = 0; c < kSubsystemCount; ++c) rows[c].figures.events = events[c];  // the overall rows come first
  }
  Table table({"owner", "owner_type", "subsystem", "events", "states", "time_ns"});
  for (const SubsystemRow& row : rows) {
    table.Put(row.owner);
    table.Put(row.owner_type);
    table.Put(SubsystemName(row.subsystem));
    table.Put(row.figures.events);
    table.Put(row.figures.states);
    table.Put(row.figures.time_ns);
  }
  return table;
}

}  // namespace macroscope::analysis::kernel
