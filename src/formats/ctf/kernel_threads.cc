#include "formats/ctf/kernel_threads.h"

namespace macroscope::ctf {

bool IsPreempted(int64_t prev_state) {
  return prev_state == 0 || prev_state == 0x100 || prev_state == 0x400 || prev_state == 0x800 ||
         prev_state == 0x1000;
}

bool IsDead(int64_t prev_state) { return (prev_state & 0x70) != 0; }

std::string CommAfterExec(std::string_view filename) {
  if (auto slash = filename.rfind('/'); slash != std::string_view::npos) filename.remove_prefix(slash + 1);
  return std::string(filename.substr(0, 15));
}

CounterValues CountersOf(const CtfEvent& e, std::string_view prefix) {
  CounterValues c;
  for (const CtfField& f : e.fields)
    if (f.integer && f.name.size() > prefix.size() && f.name.compare(0, prefix.size(), prefix) == 0)
      c.values.emplace(f.name, *f.integer);
  return c;
}

void AddDeltas(const CounterValues& before, const CounterValues& now,
               std::map<std::string, int64_t, std::less<>>& totals) {
  for (const auto& [name, value] : now.values)
    if (auto it = before.values.find(name); it != before.values.end())  // unsigned counters: wrap as they do
      totals[name] += static_cast<int64_t>(static_cast<uint64_t>(value) - static_cast<uint64_t>(it->second));
}

}  // namespace macroscope::ctf
