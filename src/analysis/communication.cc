#include "analysis/communication.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <utility>

#include "analysis/container_scope.h"
#include "analysis/relative_time.h"
#include "util/error.h"

namespace macroscope::analysis {

namespace {

__extension__ typedef __int128 Int128;  // exact products of a span in ticks and a bin's number

// A user field's name that says its value is a message's size in bytes.
bool IsSizeName(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower == "length" || lower == "size";
}

// The bins a request asks for, checked.
int64_t Bins(const CommunicationRequest& request, int64_t default_bins) {
  const int64_t bins = request.bins.value_or(default_bins);
  if (bins < 1 || bins > kMaxCommunicationBins)
    throw UserError(request.bins_name + " " + std::to_string(bins) + ": from 1 to " +
                    std::to_string(kMaxCommunicationBins));
  return bins;
}

// Depth of each container in the tree (the root 0, its children 1).
std::vector<int64_t> Depths(const Trace& trace) {
  std::vector<int64_t> depth(trace.containers().size(), 0);
  for (ContainerId c = 0; c < depth.size(); ++c)
    for (ContainerId p = trace.container(c).parent; p != kNone && p < depth.size(); p = trace.container(p).parent)
      ++depth[c];
  return depth;
}

// The messages of a row or a bin, and their bytes while each has a size.
struct Tally {
  uint64_t messages = 0;
  int64_t bytes = 0;
  bool sized = true;

  void Add(int64_t size) {
    ++messages;
    if (size < 0) sized = false;
    else bytes += size;
  }
  void PutBytes(Table& table) const {
    if (sized) table.Put(bytes);
    else table.PutEmpty();
  }
};

}  // namespace

Table CommunicationColumns(CommunicationTable table) {
  switch (table) {
    case CommunicationTable::kMatrix: return Table({"sender", "receiver", "messages", "bytes"});
    case CommunicationTable::kHistogram: return Table({"bin_start", "bin_end", "messages"});
    case CommunicationTable::kOverTime: break;
  }
  return Table({"start", "end", "messages", "bytes"});
}

Table CommunicationAccumulator::Finish(const Trace& trace, const CommunicationRequest& request,
                                       CommunicationTable table) const {
  switch (table) {
    case CommunicationTable::kMatrix: return Matrix(trace, request);
    case CommunicationTable::kHistogram: return Histogram(trace, request);
    case CommunicationTable::kOverTime: break;
  }
  return OverTime(trace, request);
}

void CommunicationAccumulator::Add(const Trace& trace, const EntityChunk& chunk) {
  if (chunk.kind != TypeKind::kLink) return;
  for (size_t i = 0; i < chunk.size(); ++i) {
    const ContainerId sender = chunk.PeerStart(i), receiver = chunk.PeerEnd(i);
    if (sender == kNone || receiver == kNone) continue;  // a link without both ends is no message
    int64_t size = -1;
    chunk.ForEachField(i, [&](const ExtraField& f) {
      if (size >= 0) return;
      if (f.name >= size_names_.size()) size_names_.resize(f.name + 1, 0);
      uint8_t& known = size_names_[f.name];
      if (known == 0) known = IsSizeName(trace.Str(f.name)) ? 1 : 2;
      if (known != 1) return;
      const std::string_view text = trace.Str(f.value);
      int64_t bytes = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
      if (error == std::errc() && end == text.data() + text.size() && bytes >= 0) size = bytes;
    });
    messages_.push_back({sender, receiver, chunk.start[i], size});
  }
}

std::vector<const CommunicationAccumulator::Message*> CommunicationAccumulator::Selected(
    const Trace& trace, const CommunicationRequest& request) const {
  const double start = request.start.value_or(-INFINITY), end = request.end.value_or(INFINITY);
  if (request.start && request.end && !(start < end))
    throw UserError("empty time window [" + std::to_string(start) + ", " + std::to_string(end) + "]");
  const std::vector<bool> in_scope = ContainersInScope(trace, request.containers, request.containers_name);
  auto scoped = [&](ContainerId c) { return c < in_scope.size() && in_scope[c]; };
  std::vector<const Message*> out;
  for (const Message& m : messages_) {
    if (m.time < start || m.time > end) continue;
    if (!scoped(m.sender) && !scoped(m.receiver)) continue;
    out.push_back(&m);
  }
  return out;
}

Table CommunicationAccumulator::Matrix(const Trace& trace, const CommunicationRequest& request) const {
  const std::vector<const Message*> messages = Selected(trace, request);
  const std::vector<int64_t> depth = Depths(trace);
  const int64_t deepest = depth.empty() ? 0 : *std::max_element(depth.begin(), depth.end());
  if (request.level && (*request.level < 1 || *request.level > deepest))
    throw UserError(request.level_name + " " + std::to_string(*request.level) +
                    ": beyond the container tree, whose levels are 1 (the root's children) to " +
                    std::to_string(deepest));
  // A container's ancestor at the level (itself when it is not deeper).
  auto group = [&](ContainerId c) {
    if (!request.level || c >= depth.size()) return c;
    while (depth[c] > *request.level) c = trace.container(c).parent;
    return c;
  };
  std::map<std::pair<ContainerId, ContainerId>, Tally> rows;
  for (const Message* m : messages) rows[{group(m->sender), group(m->receiver)}].Add(m->size);
  Table table = CommunicationColumns(CommunicationTable::kMatrix);
  for (const auto& [pair, t] : rows) {
    table.Put(trace.ContainerPath(pair.first));
    table.Put(trace.ContainerPath(pair.second));
    table.Put(t.messages);
    t.PutBytes(table);
  }
  return table;
}

Table CommunicationAccumulator::Histogram(const Trace& trace, const CommunicationRequest& request) const {
  const int64_t bins = Bins(request, kDefaultSizeBins);
  std::vector<double> sizes;
  for (const Message* m : Selected(trace, request))
    if (m->size >= 0) sizes.push_back(static_cast<double>(m->size));
  // numpy.histogram(sizes, bins): the range of the sizes, widened by a half
  // on each side when it is one value, [0, 1] when there is none; the edges
  // as numpy.linspace makes them (i * step + first, the last one exact).
  double first = 0, last = 1;
  if (!sizes.empty()) {
    const auto [low, high] = std::minmax_element(sizes.begin(), sizes.end());
    first = *low;
    last = *high;
    if (first == last) {
      first -= 0.5;
      last += 0.5;
    }
  }
  std::vector<double> edges(static_cast<size_t>(bins) + 1);
  const double step = (last - first) / static_cast<double>(bins);
  for (int64_t i = 0; i < bins; ++i) edges[i] = static_cast<double>(i) * step + first;
  edges[bins] = last;
  // Each size in the bin whose edges hold it (the last bin its end too).
  std::vector<uint64_t> counts(bins, 0);
  for (const double s : sizes) {
    const auto above = std::upper_bound(edges.begin(), edges.end(), s);
    const int64_t k = std::min<int64_t>(above - edges.begin() - 1, bins - 1);
    ++counts[std::max<int64_t>(k, 0)];
  }
  Table table = CommunicationColumns(CommunicationTable::kHistogram);
  for (int64_t i = 0; i < bins; ++i) {
    table.Put(edges[i]);
    table.Put(edges[i + 1]);
    table.Put(counts[i]);
  }
  return table;
}

Table CommunicationAccumulator::OverTime(const Trace& trace, const CommunicationRequest& request) const {
  const int64_t bins = Bins(request, kDefaultTimeBins);
  const std::vector<const Message*> messages = Selected(trace, request);
  const bool whole = trace.time_base().whole_ticks;
  double start = request.start.value_or(trace.start_time()), end = request.end.value_or(trace.end_time());
  if (whole) {  // the ticks inside the window
    start = std::ceil(start);
    end = std::floor(end);
  }
  if (!(start < end)) throw UserError("over time: the span to bin is empty");
  // Edge k at start + k (end - start) / bins: for whole ticks in integers,
  // rounded down to a tick; the last one the end.
  std::vector<double> edges(static_cast<size_t>(bins) + 1);
  for (int64_t k = 0; k < bins; ++k) {
    if (whole) {
      const auto span = static_cast<Int128>(end - start);
      edges[k] = start + static_cast<double>(static_cast<int64_t>(span * k / bins));
    } else {
      edges[k] = start + static_cast<double>(k) * ((end - start) / static_cast<double>(bins));
    }
  }
  edges[bins] = end;
  bool any_size = false;
  for (const Message& m : messages_) any_size = any_size || m.size >= 0;
  std::vector<Tally> tallies(bins);
  for (const Message* m : messages) {
    if (m->time < start || m->time > end) continue;  // the window's ticks: the same messages
    const auto above = std::upper_bound(edges.begin(), edges.end(), m->time);
    tallies[std::min<int64_t>(above - edges.begin() - 1, bins - 1)].Add(m->size);
  }
  Table table = CommunicationColumns(CommunicationTable::kOverTime);
  for (int64_t k = 0; k < bins; ++k) {
    table.Put(RelativeTime(trace, edges[k]));
    table.Put(RelativeTime(trace, edges[k + 1]));
    table.Put(tallies[k].messages);
    if (any_size) tallies[k].PutBytes(table);
    else table.PutEmpty();
  }
  return table;
}

}  // namespace macroscope::analysis
