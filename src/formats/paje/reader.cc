#include "formats/paje/reader.h"

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>

#include "formats/paje/decoder.h"
#include "formats/paje/record.h"
#include "util/error.h"

namespace macroscope::paje {

namespace {

// The back half of the reader: records, in file order, into the simulator.
void Simulate(const Record& r, std::span<const ExtraField> extras, Simulator& sim) {
  using K = EventKind;
  using F = Field;
  auto f = [&](Field field) { return r.Get(field); };
  switch (r.kind) {
    case K::kDefineContainerType: sim.DefineContainerType(f(F::kType), f(F::kName), f(F::kAlias)); break;
    case K::kDefineStateType:
      sim.DefineEntityType(TypeKind::kState, f(F::kType), f(F::kName), f(F::kAlias), f(F::kColor));
      break;
    case K::kDefineEventType:
      sim.DefineEntityType(TypeKind::kEvent, f(F::kType), f(F::kName), f(F::kAlias), f(F::kColor));
      break;
    case K::kDefineVariableType:
      sim.DefineEntityType(TypeKind::kVariable, f(F::kType), f(F::kName), f(F::kAlias), f(F::kColor));
      break;
    case K::kDefineLinkType:
      sim.DefineLinkType(f(F::kType), f(F::kStartContainerType), f(F::kEndContainerType), f(F::kName), f(F::kAlias));
      break;
    case K::kDefineEntityValue: sim.DefineValue(f(F::kType), f(F::kName), f(F::kAlias), f(F::kColor)); break;
    case K::kCreateContainer:
      sim.CreateContainer(r.time, f(F::kType), f(F::kContainer), f(F::kName), f(F::kAlias), extras);
      break;
    case K::kDestroyContainer: sim.DestroyContainer(r.time, f(F::kType), f(F::kName)); break;
    case K::kNewEvent: sim.NewEvent(r.time, f(F::kType), f(F::kContainer), f(F::kValue), extras); break;
    case K::kSetState: sim.SetState(r.time, f(F::kType), f(F::kContainer), f(F::kValue), extras); break;
    case K::kPushState: sim.PushState(r.time, f(F::kType), f(F::kContainer), f(F::kValue), extras); break;
    case K::kPopState: sim.PopState(r.time, f(F::kType), f(F::kContainer), extras); break;
    case K::kResetState: sim.ResetState(r.time, f(F::kType), f(F::kContainer), extras); break;
    case K::kSetVariable:
      sim.ChangeVariable(Simulator::VariableOp::kSet, r.time, f(F::kType), f(F::kContainer), r.number, extras);
      break;
    case K::kAddVariable:
      sim.ChangeVariable(Simulator::VariableOp::kAdd, r.time, f(F::kType), f(F::kContainer), r.number, extras);
      break;
    case K::kSubVariable:
      sim.ChangeVariable(Simulator::VariableOp::kSub, r.time, f(F::kType), f(F::kContainer), r.number, extras);
      break;
    case K::kStartLink:
      sim.StartLink(r.time, f(F::kType), f(F::kContainer), f(F::kStartContainer), f(F::kValue), f(F::kKey), extras);
      break;
    case K::kEndLink:
      sim.EndLink(r.time, f(F::kType), f(F::kContainer), f(F::kEndContainer), f(F::kValue), f(F::kKey), extras);
      break;
    case K::kTraceFile: break;  // the decoder reads the named file
  }
}

// Fuzz builds decode first, then simulate, on one thread: the threads'
// timing would change what the fuzzer sees from run to run (fuzz/run's
// check mode must give the same result for the same commit).
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool kDecoderThread = false;
#else
constexpr bool kDecoderThread = true;
#endif

// Runs `decode` (which fills the queue) on a second thread while this one
// simulates, so parsing and simulation overlap.
template <class Decode>
ReadStats Run(Trace& trace, const ReadOptions& options, Decode decode) {
  BlockQueue queue(kDecoderThread ? 4 : SIZE_MAX);
  Decoder decoder(trace.strings(), options.no_strict, queue);
  if (options.sort) decoder.SortLines(std::max<size_t>(options.sort_memory, 1));
  Simulator simulator(trace, options.simulator);
  std::exception_ptr decoder_failure;
  auto decode_all = [&] {
    try {
      decode(decoder);
    } catch (...) {  // not a UserError (those travel in the block): an internal error
      decoder_failure = std::current_exception();
      // No Cancel() first: a cancelled queue drops what is pushed, and the
      // simulating side would wait for this last block for ever.
      auto last = std::make_unique<Block>();
      last->last = true;
      queue.Push(std::move(last));
    }
  };
  std::thread worker;
  if (kDecoderThread) {
    worker = std::thread([&] {
      pthread_setname_np(pthread_self(), "paje-decoder");  // tells the threads apart in profiles
      decode_all();
    });
  } else {
    decode_all();
  }
  auto stop = [&] {
    queue.Cancel();
    worker.join();
  };
  double last_time = -1;  // pj_dump's "no event yet"
  try {
    for (;;) {
      std::unique_ptr<Block> block = queue.Pop();
      const std::vector<Record>& records = block->records;
      constexpr size_t kAhead = 16;  // lines between a prefetch stage and the next
      for (size_t k = 0; k < records.size(); ++k) {
        const Record& r = records[k];
        if (k + 2 * kAhead < records.size()) {
          const Record& far = records[k + 2 * kAhead];
          simulator.Prefetch(far.Get(Field::kType), far.Get(Field::kContainer), 0);
        }
        if (k + kAhead < records.size()) {
          const Record& near = records[k + kAhead];
          simulator.Prefetch(near.Get(Field::kType), near.Get(Field::kContainer), 1);
        }
        last_time = r.time;
        try {
          Simulate(r, {block->extras.data() + r.extras_begin, r.extras_count}, simulator);
        } catch (const TimeOrderError& e) {
          ThrowAt(block->file, r.line, std::string(e.what()) + (options.sort ? "" : " (read it with --sort)"));
        } catch (const SimulationError& e) {
          ThrowAt(block->file, r.line, e.what());
        }
      }
      if (block->last) {
        if (worker.joinable()) worker.join();
        if (decoder_failure) std::rethrow_exception(decoder_failure);
        if (!block->error.empty()) throw UserError(block->error);
        break;
      }
      queue.Recycle(std::move(block));
    }
  } catch (...) {
    if (worker.joinable()) stop();
    throw;
  }
  try {
    simulator.Finish(last_time);
  } catch (const SimulationError& e) {
    throw UserError(std::string("end of trace: ") + e.what());
  }
  const DecodeStats& s = decoder.stats();
  return {s.lines, s.events, s.bytes};
}

}  // namespace

ReadStats ReadPaje(const std::vector<std::string>& files, const ReadOptions& options, Trace& trace) {
  return Run(trace, options, [&](Decoder& d) { d.DecodeFiles(files); });
}

ReadStats ReadPajeText(std::string_view text, const std::string& name, const ReadOptions& options, Trace& trace) {
  return Run(trace, options, [&](Decoder& d) { d.DecodeText(name, text); });
}

bool LooksLikePaje(std::string_view head) {
  return head.find("%EventDef") != std::string_view::npos || head.find("% EventDef") != std::string_view::npos;
}

}  // namespace macroscope::paje
