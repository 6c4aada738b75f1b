#include "formats/ctf/raw_events.h"

#include <algorithm>

#include "formats/ctf/event_mapper.h"

namespace macroscope::ctf {

RawEvents::RawEvents(Trace& trace, paje::Simulator& simulator) : trace_(trace), sim_(simulator) {
  StringPool& s = trace_.strings();
  trace_type_ = s.Intern("ctf.trace");
  stream_type_ = s.Intern("ctf.stream");
  event_type_ = s.Intern("ctf.stream.event");
  sim_.DefineContainerType(s.Intern("0"), s.Intern("Trace"), trace_type_);
  sim_.DefineContainerType(trace_type_, s.Intern("Stream"), stream_type_);
  sim_.DefineEntityType(TypeKind::kEvent, stream_type_, s.Intern("event"), event_type_, kEmptyString);
}

StringId RawEvents::StreamOf(const CtfEvent& e, double time) {
  auto [stream, added] = streams_.try_emplace(e.stream, kEmptyString);
  if (!added) return stream->second;
  StringPool& s = trace_.strings();
  auto [root, new_trace] = traces_.try_emplace(e.trace, kEmptyString);
  if (new_trace) {
    std::string name = TraceContainerName(*e.trace, [&](std::string_view candidate) {
      return std::find(trace_names_.begin(), trace_names_.end(), candidate) != trace_names_.end();
    });
    trace_names_.push_back(name);
    root->second = s.Intern("t" + std::to_string(e.trace->index));
    sim_.CreateContainer(time, trace_type_, s.Intern("0"), s.Intern(name), root->second, {});
  }
  stream->second = s.Intern("t" + std::to_string(e.trace->index) + ".stream:" + std::to_string(e.stream));
  sim_.CreateContainer(time, stream_type_, root->second, s.Intern(e.stream_name), stream->second, {});
  return stream->second;
}

void RawEvents::Map(const CtfEvent& e, double time) {
  StringId stream = StreamOf(e, time);
  StringPool& s = trace_.strings();
  extras_.clear();
  for (const CtfField& f : e.fields) extras_.push_back({s.Intern(f.name), s.Intern(f.text)});
  sim_.NewEvent(time, event_type_, stream, s.Intern(e.name), extras_);
}

void RawEvents::Finish(double last_time) {
  sim_.Finish(last_time);
  trace_.SetTimeSpan(0, last_time);
}

}  // namespace macroscope::ctf
