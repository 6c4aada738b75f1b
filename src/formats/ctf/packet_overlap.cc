#include "formats/ctf/packet_overlap.h"

#include <babeltrace2/babeltrace.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <string>

namespace macroscope::ctf {

void PacketOverlaps::Add(const PacketOverlaps& other) {
  packets += other.packets;
  total_ns += other.total_ns;
  max_ns = std::max(max_ns, other.max_ns);
}

std::string PacketOverlaps::Warning() const {
  if (packets == 0) return "";
  return std::to_string(packets) + (packets == 1 ? " packet" : " packets") +
         " overlapped the previous packet of their stream (by up to " + std::to_string(max_ns) + " ns)";
}

namespace {

// What the filter's initialize method needs; the component keeps only
// `overlaps` (its user data), which the caller owns.
struct FilterSetup {
  uint64_t ports = 0;
  PacketOverlaps* overlaps = nullptr;
};

// One stream's messages, passed on in order, except that a packet end is
// held until the stream's next message shows whether it overlaps.
struct StreamIterator {
  bt_self_message_iterator* self = nullptr;
  bt_message_iterator* upstream = nullptr;
  PacketOverlaps* overlaps = nullptr;
  const bt_message* held_end = nullptr;  // owned
  std::optional<uint64_t> last_event;    // raw clock value of the held packet's last event
  std::deque<const bt_message*> ready;   // owned, in order
  bool upstream_ended = false;

  ~StreamIterator() {
    if (held_end) bt_message_put_ref(held_end);
    for (const bt_message* m : ready) bt_message_put_ref(m);
    bt_message_iterator_put_ref(upstream);
  }
};

const bt_clock_snapshot* PacketBeginningClock(const bt_message* m) {
  const bt_stream* stream = bt_packet_borrow_stream_const(bt_message_packet_beginning_borrow_packet_const(m));
  if (!bt_stream_class_packets_have_beginning_default_clock_snapshot(bt_stream_borrow_class_const(stream)))
    return nullptr;
  return bt_message_packet_beginning_borrow_default_clock_snapshot_const(m);
}

const bt_clock_snapshot* PacketEndClock(const bt_message* m) {
  const bt_stream* stream = bt_packet_borrow_stream_const(bt_message_packet_end_borrow_packet_const(m));
  if (!bt_stream_class_packets_have_end_default_clock_snapshot(bt_stream_borrow_class_const(stream)))
    return nullptr;
  return bt_message_packet_end_borrow_default_clock_snapshot_const(m);
}

int64_t Ns(const bt_clock_snapshot* c) {
  int64_t ns = 0;
  bt_clock_snapshot_get_ns_from_origin(c, &ns);
  return ns;
}

// The held packet end, followed by `next` (a message of the same stream):
// when `next` begins a packet before the held one ends, the end moves back
// to that beginning, or to the held packet's last event if that is later
// (then the beginning moves forward to it). False when out of memory.
bool Release(StreamIterator& it, const bt_message* next) {
  const bt_message* end = it.held_end;
  it.held_end = nullptr;
  const bt_clock_snapshot* end_clock = end ? PacketEndClock(end) : nullptr;
  const bt_clock_snapshot* begin_clock =
      next && bt_message_get_type(next) == BT_MESSAGE_TYPE_PACKET_BEGINNING ? PacketBeginningClock(next) : nullptr;
  if (end_clock && begin_clock && bt_clock_snapshot_get_value(begin_clock) < bt_clock_snapshot_get_value(end_clock)) {
    int64_t overlap = Ns(end_clock) - Ns(begin_clock);
    ++it.overlaps->packets;
    it.overlaps->max_ns = std::max(it.overlaps->max_ns, overlap);
    it.overlaps->total_ns += overlap;
    uint64_t at = std::max(bt_clock_snapshot_get_value(begin_clock), it.last_event.value_or(0));
    bt_message* moved_end = bt_message_packet_end_create_with_default_clock_snapshot(
        it.self, bt_message_packet_end_borrow_packet_const(end), std::min(at, bt_clock_snapshot_get_value(end_clock)));
    bt_message_put_ref(end);
    if (moved_end == nullptr) return false;
    end = moved_end;
    if (at > bt_clock_snapshot_get_value(begin_clock)) {
      bt_message* moved_begin = bt_message_packet_beginning_create_with_default_clock_snapshot(
          it.self, bt_message_packet_beginning_borrow_packet_const(next), at);
      bt_message_put_ref(next);
      next = moved_begin;
      if (next == nullptr) {
        bt_message_put_ref(end);
        return false;
      }
    }
  }
  if (end) it.ready.push_back(end);
  if (next) it.ready.push_back(next);
  return true;
}

// Takes one upstream message (owned).
bool Take(StreamIterator& it, const bt_message* m) {
  bt_message_type type = bt_message_get_type(m);
  if (type == BT_MESSAGE_TYPE_EVENT && bt_message_event_borrow_stream_class_default_clock_class_const(m))
    it.last_event = bt_clock_snapshot_get_value(bt_message_event_borrow_default_clock_snapshot_const(m));
  if (type == BT_MESSAGE_TYPE_PACKET_END) {
    if (!Release(it, nullptr)) return false;
    it.held_end = m;
    return true;
  }
  if (it.held_end) return Release(it, m);
  it.ready.push_back(m);
  return true;
}

bt_message_iterator_class_next_method_status Next(bt_self_message_iterator* self, bt_message_array_const messages,
                                                  uint64_t capacity, uint64_t* count) {
  auto& it = *static_cast<StreamIterator*>(bt_self_message_iterator_get_data(self));
  while (it.ready.empty()) {
    if (it.upstream_ended) {
      if (!it.held_end) return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
      if (!Release(it, nullptr)) return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_MEMORY_ERROR;
      break;
    }
    bt_message_array_const batch = nullptr;
    uint64_t n = 0;
    switch (bt_message_iterator_next(it.upstream, &batch, &n)) {
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK: break;
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_END: it.upstream_ended = true; continue;
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN: return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_AGAIN;
      case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
        return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_MEMORY_ERROR;
      default: return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
    }
    bool ok = true;
    for (uint64_t i = 0; i < n; ++i) {
      if (ok)
        ok = Take(it, batch[i]);
      else
        bt_message_put_ref(batch[i]);
    }
    if (!ok) return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_MEMORY_ERROR;
  }
  uint64_t n = 0;
  for (; n < capacity && !it.ready.empty(); ++n) {
    messages[n] = it.ready.front();
    it.ready.pop_front();
  }
  *count = n;
  return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

bt_message_iterator_class_initialize_method_status InitializeIterator(bt_self_message_iterator* self,
                                                                      bt_self_message_iterator_configuration*,
                                                                      bt_self_component_port_output* port) {
  auto* input = static_cast<bt_self_component_port_input*>(
      bt_self_component_port_get_data(bt_self_component_port_output_as_self_component_port(port)));
  auto it = std::make_unique<StreamIterator>();
  it->self = self;
  it->overlaps =
      static_cast<PacketOverlaps*>(bt_self_component_get_data(bt_self_message_iterator_borrow_component(self)));
  switch (bt_message_iterator_create_from_message_iterator(self, input, &it->upstream)) {
    case BT_MESSAGE_ITERATOR_CREATE_FROM_MESSAGE_ITERATOR_STATUS_OK: break;
    case BT_MESSAGE_ITERATOR_CREATE_FROM_MESSAGE_ITERATOR_STATUS_MEMORY_ERROR:
      return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    default: return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
  }
  bt_self_message_iterator_set_data(self, it.release());
  return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

void FinalizeIterator(bt_self_message_iterator* self) {
  delete static_cast<StreamIterator*>(bt_self_message_iterator_get_data(self));
}

bt_component_class_initialize_method_status InitializeFilter(bt_self_component_filter* self,
                                                             bt_self_component_filter_configuration*, const bt_value*,
                                                             void* initialize_method_data) {
  auto* setup = static_cast<FilterSetup*>(initialize_method_data);
  bt_self_component_set_data(bt_self_component_filter_as_self_component(self), setup->overlaps);
  for (uint64_t i = 0; i < setup->ports; ++i) {
    bt_self_component_port_input* input = nullptr;
    std::string in = "in" + std::to_string(i), out = "out" + std::to_string(i);
    // An output port's data is its input port: its iterator reads there.
    if (bt_self_component_filter_add_input_port(self, in.c_str(), nullptr, &input) !=
            BT_SELF_COMPONENT_ADD_PORT_STATUS_OK ||
        bt_self_component_filter_add_output_port(self, out.c_str(), input, nullptr) !=
            BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
      return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
  }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

}  // namespace

const bt_component_filter* AddPacketOverlapFilter(bt_graph* graph, uint64_t ports, PacketOverlaps* overlaps) {
  bt_message_iterator_class* iterator_class = bt_message_iterator_class_create(Next);
  if (iterator_class == nullptr) return nullptr;
  bt_message_iterator_class_set_initialize_method(iterator_class, InitializeIterator);
  bt_message_iterator_class_set_finalize_method(iterator_class, FinalizeIterator);
  bt_component_class_filter* filter_class = bt_component_class_filter_create("packet-overlap", iterator_class);
  bt_message_iterator_class_put_ref(iterator_class);
  if (filter_class == nullptr) return nullptr;
  bt_component_class_filter_set_initialize_method(filter_class, InitializeFilter);
  FilterSetup setup{ports, overlaps};
  const bt_component_filter* filter = nullptr;
  bt_graph_add_component_status status = bt_graph_add_filter_component_with_initialize_method_data(
      graph, filter_class, "packet-overlap", nullptr, &setup, BT_LOGGING_LEVEL_NONE, &filter);
  bt_component_class_filter_put_ref(filter_class);  // the graph keeps its own reference
  return status == BT_GRAPH_ADD_COMPONENT_STATUS_OK ? filter : nullptr;
}

}  // namespace macroscope::ctf
