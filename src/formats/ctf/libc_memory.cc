#include "formats/ctf/libc_memory.h"

#include <string>

namespace macroscope::ctf {

void LibcMemory::Map(const CtfEvent& e, std::string_view alias_prefix, double time) {
  if (!analysis::kernel::LibcCallOf(e.name)) return;
  std::optional<analysis::kernel::LibcEvent> libc =
      analysis::kernel::ParseLibcEvent(e.name, [&](std::string_view name) {
        const CtfField* f = e.Field(name);
        return f ? std::string_view(f->text) : std::string_view();
      });
  // Without vtid and vpid the mapper made no process container for it.
  if (!libc || libc->pid < 0 || !e.Integer("vtid")) return;
  libc->time_ns = e.time_ns.value_or(0);
  std::optional<int64_t> bytes = trackers_[e.trace].Apply(*libc);
  if (!bytes) return;
  StringPool& s = trace_.strings();
  if (type_ == kEmptyString) {
    type_ = s.Intern("ctf.process.memory");
    sim_.DefineEntityType(TypeKind::kVariable, s.Intern("ctf.process"), s.Intern("Memory"), type_, kEmptyString);
  }
  StringId process = s.Intern(std::string(alias_prefix) + "pid:" + std::to_string(libc->pid));
  sim_.ChangeVariable(paje::Simulator::VariableOp::kSet, time, type_, process, static_cast<double>(*bytes), {});
}

}  // namespace macroscope::ctf
