#include "formats/ctf/stream_threads.h"

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>

#include "formats/ctf/babeltrace_source.h"
#include "formats/ctf/stream_merge.h"
#include "util/abort_guard.h"

namespace macroscope::ctf {

uint64_t ForEachCtfEventOnThreads(const std::vector<std::string>& trace_directories, const std::string& label,
                                  const std::function<void(const CtfEvent&)>& on_event, PacketOverlaps& overlaps,
                                  int threads) {
  if (threads <= 1) return ForEachCtfEvent(trace_directories, label, on_event, overlaps);
  AbortGuard guard(CtfAbortMessage(label));
  // The one graph, as ForEachCtfEvent (under this guard).
  auto sequential = [&](const std::function<void(const CtfEvent&)>& handler) {
    return CtfGraph(trace_directories, label, overlaps).Run([&](CtfEvent& e) { handler(e); });
  };
  // Opening the whole trace indexes every stream file: its errors are the
  // sequential reading's.
  const Plan plan = MakePlan(trace_directories, CtfStreamPorts(trace_directories, label), threads);
  if (plan.workers.size() <= 1) return sequential(on_event);

  std::optional<ScratchFolders> folders;
  std::vector<PacketOverlaps> counted(plan.workers.size());
  std::vector<std::unique_ptr<CtfGraph>> graphs;
  try {
    folders.emplace(trace_directories, plan);
    for (size_t w = 0; w < plan.workers.size(); ++w)
      graphs.push_back(std::make_unique<CtfGraph>(folders->inputs(w), label, counted[w]));
  } catch (const std::exception&) {  // no scratch folder, or a part refused where the whole was not
    graphs.clear();
    return sequential(on_event);
  }
  std::exception_ptr failure;
  uint64_t events = 0;
  {
    Workers workers(graphs);
    Merge merge(trace_directories, label, plan, workers);
    bool ran = merge.Run(on_event);
    if (!ran) {
      workers.Stop();
      graphs.clear();
      return sequential(on_event);
    }
    failure = merge.failure();
    events = merge.events();
  }
  graphs.clear();
  // A worker failed after its first event: the one graph's message for it.
  if (failure) ThrowWorkerFailure(trace_directories, label, failure);
  for (const PacketOverlaps& c : counted) overlaps.Add(c);
  return events;
}

}  // namespace macroscope::ctf
