#include "formats/ctf/event_mapper.h"

namespace macroscope::ctf {

namespace {

using types::kStreamFunction;
using types::kThreadFunction;
constexpr std::string_view kTraceType = types::kTrace;
constexpr std::string_view kProcessType = types::kProcess;
constexpr std::string_view kThreadType = types::kThread;
constexpr std::string_view kStreamType = types::kStream;

}  // namespace

struct EventMapper::Owner {
  StringId container = kEmptyString;
  std::string_view type;  // kThreadType or kStreamType
  int* function_depth = nullptr;
};

EventMapper::EventMapper(Trace& trace, paje::Simulator& simulator) : trace_(trace), sim_(simulator) {}
EventMapper::~EventMapper() = default;

StringId EventMapper::Type(TypeKind kind, std::string_view parent, std::string_view name, std::string_view alias) {
  StringPool& s = trace_.strings();
  StringId id = s.Intern(alias);
  if (defined_types_.insert(id).second) {
    if (kind == TypeKind::kContainer)
      sim_.DefineContainerType(s.Intern(parent), s.Intern(name), id);
    else
      sim_.DefineEntityType(kind, s.Intern(parent), s.Intern(name), id, kEmptyString);
  }
  return id;
}

EventMapper::TraceState& EventMapper::StateOf(const CtfTraceInfo& info, double time) {
  auto& slot = traces_[&info];
  if (slot) return *slot;
  slot = std::make_unique<TraceState>();
  TraceState& t = *slot;
  trace_order_.push_back(&t);
  t.prefix = "t" + std::to_string(info.index) + ".";
  t.kernel = info.domain == "kernel";
  StringPool& s = trace_.strings();
  StringId type = Type(TypeKind::kContainer, "0", "Trace", kTraceType);
  std::string name = TraceContainerName(info, [&](std::string_view candidate) {
    for (const TraceState* other : trace_order_)  // two traces of one host: keep the names apart
      if (other != &t && trace_.Str(trace_.container(other->root_id).name) == candidate) return true;
    return false;
  });
  t.root = s.Intern("t" + std::to_string(info.index));
  std::vector<ExtraField> extras;
  for (auto [key, value] : {std::pair<const char*, const std::string*>{"domain", &info.domain},
                            {"tracer_name", &info.tracer_name},
                            {"trace_name", &info.name}})
    if (!value->empty()) extras.push_back({s.Intern(key), s.Intern(*value)});
  sim_.CreateContainer(time, type, s.Intern("0"), s.Intern(name), t.root, extras);
  t.root_id = static_cast<ContainerId>(trace_.containers().size() - 1);
  return t;
}

StringId EventMapper::Process(TraceState& t, const std::string& key, std::string_view name, double time) {
  auto [it, inserted] = t.processes.try_emplace(key, kEmptyString);
  if (inserted) {
    StringPool& s = trace_.strings();
    StringId type = Type(TypeKind::kContainer, kTraceType, "Process", kProcessType);
    it->second = s.Intern(t.prefix + key);
    sim_.CreateContainer(time, type, t.root, s.Intern(name), it->second, {});
  }
  return it->second;
}

const std::vector<ExtraField>& EventMapper::Extras(const CtfEvent& e) {
  extras_.clear();
  StringPool& s = trace_.strings();
  for (const CtfField& f : e.fields) extras_.push_back({s.Intern(f.name), s.Intern(f.text)});
  return extras_;
}

void EventMapper::Punctual(const CtfEvent& e, std::string_view parent_alias, StringId container, double time) {
  std::string alias = std::string(parent_alias) + "/" + std::string(e.name);
  StringId type = Type(TypeKind::kEvent, parent_alias, e.name, alias);
  sim_.NewEvent(time, type, container, trace_.strings().Intern(e.name), Extras(e));
}

void EventMapper::Push(StringId type, StringId container, std::string_view value, int& depth, double time) {
  sim_.PushState(time, type, container, trace_.strings().Intern(value), extras_);
  ++depth;
}

void EventMapper::Pop(StringId type, StringId container, int& depth, double time) {
  if (depth == 0) {  // its entry came before the trace began
    ++unmatched_exits_;
    return;
  }
  sim_.PopState(time, type, container, extras_);
  --depth;
}

void EventMapper::Map(const CtfEvent& e, double time) {
  TraceState& t = StateOf(*e.trace, time);
  ++t.events;
  // perf names its events "subsystem:name"; LTTng-UST "provider:name".
  std::string_view base = e.name;
  if (auto colon = base.rfind(':'); colon != std::string_view::npos) base = base.substr(colon + 1);
  if (t.kernel && e.cpu_id)
    MapKernel(t, e, base, time);
  else
    MapUser(t, e, base, time);
}

EventMapper::Owner EventMapper::UserOwner(TraceState& t, const CtfEvent& e, double time) {
  if (auto vtid = e.Integer("vtid")) {
    auto vpid = e.Integer("vpid");
    std::string_view procname = FieldText(e, "procname");
    auto [it, inserted] = t.threads.try_emplace(*vtid);
    if (inserted) {
      StringId process = vpid ? Process(t, "pid:" + std::to_string(*vpid),
                                        (procname.empty() ? "pid " : std::string(procname) + " ") +
                                            std::to_string(*vpid),
                                        time)
                              : Process(t, "proc:" + std::string(procname), procname.empty() ? "process" : procname,
                                        time);
      StringPool& s = trace_.strings();
      StringId type = Type(TypeKind::kContainer, kProcessType, "Thread", kThreadType);
      it->second.alias = s.Intern(t.prefix + "tid:" + std::to_string(*vtid));
      std::string label = procname.empty() ? std::string("tid ") : std::string(procname) + " ";
      sim_.CreateContainer(time, type, process, s.Intern(label + std::to_string(*vtid)), it->second.alias, {});
    }
    return {it->second.alias, kThreadType, &it->second.function_depth};
  }
  auto [it, inserted] = t.streams.try_emplace(e.stream);
  if (inserted) {
    StringPool& s = trace_.strings();
    StringId type = Type(TypeKind::kContainer, kTraceType, "Stream", kStreamType);
    it->second.alias = s.Intern(t.prefix + "stream:" + std::to_string(e.stream));
    sim_.CreateContainer(time, type, t.root, s.Intern(e.stream_name), it->second.alias, {});
  }
  return {it->second.alias, kStreamType, &it->second.function_depth};
}

void EventMapper::MapUser(TraceState& t, const CtfEvent& e, std::string_view base, double time) {
  Owner owner = UserOwner(t, e, time);
  bool cyg = e.name.find("cyg_profile") != std::string_view::npos;
  if (cyg && (base == "func_entry" || base == "func_exit")) {
    Extras(e);
    StringId type = owner.type == kThreadType ? Type(TypeKind::kState, kThreadType, "Function", kThreadFunction)
                                              : Type(TypeKind::kState, kStreamType, "Function", kStreamFunction);
    if (base == "func_entry") {
      std::string_view addr = FieldText(e, "addr");
      Push(type, owner.container, addr.empty() ? "?" : addr, *owner.function_depth, time);
    } else {
      Pop(type, owner.container, *owner.function_depth, time);
    }
    return;
  }
  libc_memory_.Map(e, t.prefix, time);
  Punctual(e, owner.type, owner.container, time);
}

void EventMapper::Finish(double last_time) {
  for (TraceState* t : trace_order_)
    if (t->kernel) FinishKernel(*t, last_time);
  sim_.Finish(last_time);
  trace_.SetTimeSpan(0, last_time);
  StringPool& s = trace_.strings();
  for (TraceState* t : trace_order_)
    trace_.container(t->root_id).extras.push_back({s.Intern("events"), s.Intern(std::to_string(t->events))});
}

}  // namespace macroscope::ctf
