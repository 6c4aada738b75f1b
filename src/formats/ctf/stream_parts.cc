#include "formats/ctf/stream_parts.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "formats/ctf/babeltrace_source.h"
#include "formats/ctf/stream_merge.h"
#include "formats/ctf/stream_threads.h"
#include "util/abort_guard.h"
#include "util/error.h"

namespace macroscope::ctf {

namespace {

using formats::BytesIn;
using formats::BytesOut;

constexpr size_t kRoundBlocks = 8;               // a part's blocks per round: 16 384 events
constexpr size_t kRoundBytes = size_t{4} << 20;  // or about this much

// --- blocks as bytes ------------------------------------------------------------

template <class T>
void PutOptional(BytesOut& out, const std::optional<T>& x) {
  out.Put<uint8_t>(x.has_value());
  if (x) out.Put(*x);
}
template <class T>
std::optional<T> GetOptional(BytesIn& in) {
  if (in.Get<uint8_t>() == 0) return std::nullopt;
  return in.Get<T>();
}

void PutUuid(BytesOut& out, const std::optional<CtfStreamIdentity::Uuid>& uuid) {
  out.Put<uint8_t>(uuid.has_value());
  if (uuid)
    for (uint8_t byte : *uuid) out.Put(byte);
}
std::optional<CtfStreamIdentity::Uuid> GetUuid(BytesIn& in) {
  if (in.Get<uint8_t>() == 0) return std::nullopt;
  CtfStreamIdentity::Uuid uuid;
  for (uint8_t& byte : uuid) byte = in.Get<uint8_t>();
  return uuid;
}

void PutStream(BytesOut& out, uint32_t index, const CtfStreamIdentity& id) {
  out.Put(index);
  out.PutString(id.path);
  PutUuid(out, id.trace_uuid);
  out.Put<uint8_t>(id.trace_name.has_value());
  if (id.trace_name) out.PutString(*id.trace_name);
  out.Put(id.stream_class_id);
  out.Put(id.stream_id);
  out.Put<uint8_t>(id.has_clock);
  out.Put<uint8_t>(id.clock_unix_epoch);
  PutUuid(out, id.clock_uuid);
  out.PutString(id.clock_name);
}
std::pair<uint32_t, CtfStreamIdentity> GetStream(BytesIn& in) {
  std::pair<uint32_t, CtfStreamIdentity> stream;
  stream.first = in.Get<uint32_t>();
  CtfStreamIdentity& id = stream.second;
  id.path = in.GetString();
  id.trace_uuid = GetUuid(in);
  if (in.Get<uint8_t>() != 0) id.trace_name = std::string(in.GetString());
  id.stream_class_id = in.Get<uint64_t>();
  id.stream_id = in.Get<uint64_t>();
  id.has_clock = in.Get<uint8_t>() != 0;
  id.clock_unix_epoch = in.Get<uint8_t>() != 0;
  id.clock_uuid = GetUuid(in);
  id.clock_name = in.GetString();
  return stream;
}

// A share's failure: 0 none, 1 a UserError, 2 another error; its message.
void PutFailure(BytesOut& out, const std::exception_ptr& failure) {
  if (!failure) return out.Put<uint8_t>(0);
  try {
    std::rethrow_exception(failure);
  } catch (const UserError& e) {
    out.Put<uint8_t>(1);
    out.PutString(e.what());
  } catch (const std::exception& e) {
    out.Put<uint8_t>(2);
    out.PutString(e.what());
  } catch (...) {
    out.Put<uint8_t>(2);
    out.PutString("unknown error decoding a CTF stream");
  }
}
std::exception_ptr GetFailure(BytesIn& in) {
  auto kind = in.Get<uint8_t>();
  if (kind == 0) return nullptr;
  std::string message(in.GetString());
  if (kind == 1) return std::make_exception_ptr(UserError(message));
  return std::make_exception_ptr(std::runtime_error(message));
}

// An integer field's text as babeltrace_source.cc writes it from the
// value (decimal, unsigned decimal, hexadecimal): only the form is sent.
enum class TextForm : uint8_t { kAsIs, kSigned, kUnsigned, kHex };

using IntegerBuffer = std::array<char, 24>;

std::string_view IntegerText(TextForm form, int64_t value, IntegerBuffer& buffer) {
  char* first = buffer.data();
  char* end = first + buffer.size();
  if (form == TextForm::kSigned) return {first, std::to_chars(first, end, value).ptr};
  if (form == TextForm::kUnsigned) return {first, std::to_chars(first, end, static_cast<uint64_t>(value)).ptr};
  first[0] = '0';
  first[1] = 'x';
  char* last = std::to_chars(first + 2, end, static_cast<uint64_t>(value), 16).ptr;
  std::transform(first + 2, last, first + 2, [](char c) { return c >= 'a' ? static_cast<char>(c - 'a' + 'A') : c; });
  return {first, last};
}

void PutText(BytesOut& out, const CtfField& f) {
  if (f.integer) {
    const TextForm form = f.text.starts_with("0x")                ? TextForm::kHex
                          : *f.integer < 0 && f.text[0] != '-'    ? TextForm::kUnsigned
                                                                  : TextForm::kSigned;
    IntegerBuffer buffer;
    if (f.text == IntegerText(form, *f.integer, buffer)) return out.Put(static_cast<uint8_t>(form));
  }
  out.Put(static_cast<uint8_t>(TextForm::kAsIs));
  out.PutString(f.text);
}
void GetText(BytesIn& in, CtfField& f) {
  IntegerBuffer buffer;
  auto form = static_cast<TextForm>(in.Get<uint8_t>());
  f.text = form == TextForm::kAsIs ? in.GetString() : IntegerText(form, f.integer.value_or(0), buffer);
}

// A part's blocks as bytes, its traces and names (of streams, events,
// fields) sent once: by number, with what they are the first time.
class BlockWriter {
 public:
  // `counted`: the part's overlaps, final by its last block.
  void Put(BytesOut& out, const Block& block, const PacketOverlaps& counted) {
    out.Put<uint64_t>(block.streams.size());
    for (const auto& [index, id] : block.streams) PutStream(out, index, id);
    out.Put<uint64_t>(block.count);
    for (size_t i = 0; i < block.count; ++i) {
      const CtfEvent& e = block.events[i];
      auto [it, added] = traces_.emplace(e.trace, static_cast<uint32_t>(traces_.size()));
      out.Put(it->second);
      if (added) {
        out.PutString(e.trace->name);
        out.PutString(e.trace->hostname);
        out.PutString(e.trace->domain);
        out.PutString(e.trace->tracer_name);
      }
      out.Put(e.stream);
      PutName(out, e.stream_name);
      PutOptional(out, e.time_ns);
      out.Put<uint8_t>(e.unix_epoch);
      PutName(out, e.name);
      out.Put(e.event_class_id);
      PutOptional(out, e.cpu_id);
      out.Put<uint32_t>(static_cast<uint32_t>(e.fields.size()));
      for (const CtfField& f : e.fields) {
        PutName(out, f.name);
        PutOptional(out, f.integer);
        PutText(out, f);
      }
    }
    out.Put<uint8_t>(block.last);
    if (!block.last) return;
    PutFailure(out, block.failure);
    out.Put(counted.packets);
    out.Put(counted.max_ns);
    out.Put(counted.total_ns);
  }

 private:
  void PutName(BytesOut& out, std::string_view name) {
    auto it = names_.find(name);
    if (it != names_.end()) return out.Put(it->second);
    out.Put(static_cast<uint32_t>(names_.size()));
    out.PutString(name);
    names_.emplace(name, static_cast<uint32_t>(names_.size()));
  }

  std::map<const CtfTraceInfo*, uint32_t> traces_;
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> names_;
};

// What a part sent once: its traces and names, by number.
struct Sent {
  std::deque<CtfTraceInfo> traces;
  std::deque<std::string> names;

  const std::string& Name(BytesIn& in) {
    auto name = in.Get<uint32_t>();
    if (name == names.size()) names.emplace_back(in.GetString());
    return names.at(name);
  }
};

// A part's block from its bytes, into `block` (maybe one used before: its
// vectors keep their capacity); its views point into `sent` (the part's);
// the part's overlaps, with its last block, add to `overlaps`.
void GetBlock(BytesIn& in, Sent& sent, PacketOverlaps& overlaps, Block& block) {
  std::deque<CtfTraceInfo>& traces = sent.traces;
  for (auto n = in.Get<uint64_t>(); n > 0; --n) block.streams.push_back(GetStream(in));
  block.count = in.Get<uint64_t>();
  if (block.events.size() < block.count) block.events.resize(block.count);
  for (size_t i = 0; i < block.count; ++i) {
    CtfEvent& e = block.events[i];
    auto trace = in.Get<uint32_t>();
    if (trace == traces.size()) {
      CtfTraceInfo& info = traces.emplace_back();
      info.name = in.GetString();
      info.hostname = in.GetString();
      info.domain = in.GetString();
      info.tracer_name = in.GetString();
    }
    e.trace = &traces.at(trace);
    e.stream = in.Get<uint32_t>();
    e.stream_name = sent.Name(in);
    e.time_ns = GetOptional<int64_t>(in);
    e.unix_epoch = in.Get<uint8_t>() != 0;
    e.name = sent.Name(in);
    e.event_class_id = in.Get<uint64_t>();
    e.cpu_id = GetOptional<int64_t>(in);
    e.fields.resize(in.Get<uint32_t>());
    for (CtfField& f : e.fields) {
      f.name = sent.Name(in);
      f.integer = GetOptional<int64_t>(in);
      GetText(in, f);
    }
  }
  block.last = in.Get<uint8_t>() != 0;
  if (block.last) {
    block.failure = GetFailure(in);
    PacketOverlaps counted;
    counted.packets = in.Get<uint64_t>();
    counted.max_ns = in.Get<int64_t>();
    counted.total_ns = in.Get<int64_t>();
    overlaps.Add(counted);
  }
}

// --- the rounds -------------------------------------------------------------------

// The merge's blocks of every part, received in rounds (stream_parts.h).
// `local`: this part's graph on a worker thread (null for a part beyond
// the plan's shares).
class Rounds : public BlockSource {
 public:
  Rounds(formats::PartExchange& share, size_t sources, Workers* local, const PacketOverlaps& counted)
      : share_(share), local_(local), counted_(counted), queued_(sources), sent_(sources) {}

  std::unique_ptr<Block> Pop(size_t w) override {
    if (queued_[w].empty()) Round();
    // Every part merges the same blocks: a part's blocks used up are sent
    // in the next round, until its last.
    if (queued_[w].empty()) throw std::logic_error("ctf parts: a part sent nothing");
    std::unique_ptr<Block> block = std::move(queued_[w].front());
    queued_[w].pop_front();
    return block;
  }
  void Recycle(size_t, std::unique_ptr<Block> block) override {
    block->streams.clear();
    block->count = 0;
    block->failure = nullptr;
    if (spare_.size() < kRoundBlocks * queued_.size()) spare_.push_back(std::move(block));
  }
  // Every part's packet overlaps, once every last block has arrived.
  const PacketOverlaps& overlaps() const { return overlaps_; }

 private:
  void Round() {
    BytesOut out;
    const auto me = static_cast<size_t>(share_.part());
    if (local_ != nullptr && !done_ && queued_[me].empty()) {
      for (size_t blocks = 0; blocks < kRoundBlocks && out.bytes().size() < kRoundBytes && !done_; ++blocks) {
        std::unique_ptr<Block> block = local_->Pop(0);
        done_ = block->last;
        writer_.Put(out, *block, counted_);
        local_->Recycle(0, std::move(block));
      }
    }
    std::vector<std::string> all = share_.AllGather(out.bytes());
    for (size_t w = 0; w < queued_.size(); ++w) {
      if (all[w].empty()) continue;
      BytesIn in(all[w]);
      while (!in.done()) {
        std::unique_ptr<Block> block;
        if (spare_.empty()) {
          block = std::make_unique<Block>();
        } else {
          block = std::move(spare_.back());
          spare_.pop_back();
        }
        GetBlock(in, sent_[w], overlaps_, *block);
        queued_[w].push_back(std::move(block));
      }
    }
  }

  formats::PartExchange& share_;
  Workers* local_;
  const PacketOverlaps& counted_;
  BlockWriter writer_;
  bool done_ = false;  // this part has sent its last block
  std::vector<std::deque<std::unique_ptr<Block>>> queued_;  // per part: received, not yet merged
  std::vector<Sent> sent_;                                 // per part
  std::vector<std::unique_ptr<Block>> spare_;              // merged, for the next blocks received
  PacketOverlaps overlaps_;
};

// The reading in parts, under the AbortGuard; nothing (having handed no
// event) when every part must read the whole trace instead.
std::optional<uint64_t> ReadInParts(const std::vector<std::string>& dirs, const std::string& label,
                                    const std::function<void(const CtfEvent&)>& on_event, PacketOverlaps& overlaps,
                                    formats::PartExchange& share) {
  // Opening the whole trace indexes every stream file: its errors are the
  // sequential reading's (the same on every part).
  Plan plan;
  std::string error;
  try {
    plan = MakePlan(dirs, CtfStreamPorts(dirs, label), share.parts());
  } catch (const UserError& e) {
    error = e.what();
  }
  share.Agree(error);
  if (plan.workers.size() <= 1) return std::nullopt;

  const auto me = static_cast<size_t>(share.part());
  const size_t n = plan.workers.size();
  std::optional<ScratchFolders> folder;
  PacketOverlaps counted;
  std::vector<std::unique_ptr<CtfGraph>> graphs;
  bool built = true;
  if (me < n) {
    try {
      folder.emplace(dirs, plan, me);
      graphs.push_back(std::make_unique<CtfGraph>(folder->inputs(me), label, counted));
    } catch (const std::exception&) {  // no scratch folder, or a share refused where the whole was not
      graphs.clear();
      built = false;
    }
  }
  if (share.Min(built ? 1 : 0) == 0) return std::nullopt;

  std::exception_ptr failure;
  uint64_t events = 0;
  PacketOverlaps all;
  {
    std::optional<Workers> local;
    if (!graphs.empty()) local.emplace(graphs);
    Rounds rounds(share, n, local ? &*local : nullptr, counted);
    Merge merge(dirs, label, plan, rounds);
    if (!merge.Run(on_event)) return std::nullopt;
    failure = merge.failure();
    events = merge.events();
    all = rounds.overlaps();
  }
  graphs.clear();
  // A share failed after its first event: the one graph's message for it.
  if (failure) ThrowWorkerFailure(dirs, label, failure);
  overlaps.Add(all);
  return events;
}

}  // namespace

uint64_t ForEachCtfEventInParts(const std::vector<std::string>& trace_directories, const std::string& label,
                                const std::function<void(const CtfEvent&)>& on_event, PacketOverlaps& overlaps,
                                int threads, formats::PartExchange& share) {
  std::optional<uint64_t> events;
  {
    AbortGuard guard(CtfAbortMessage(label));
    events = ReadInParts(trace_directories, label, on_event, overlaps, share);
  }
  return events ? *events : ForEachCtfEventOnThreads(trace_directories, label, on_event, overlaps, threads);
}

}  // namespace macroscope::ctf
