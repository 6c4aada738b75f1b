// Packets that start before the previous packet of their stream ends (LTTng
// 2.1 wrote such traces): babeltrace2's muxer refuses them ("time going
// backwards"), because a stream's packet-end message comes after the next
// packet's beginning in time. A filter between each src.ctf.fs output and
// the muxer moves such a packet end back to the next packet's beginning
// (never before the packet's last event) and counts the overlaps; the
// events themselves are untouched. Normal streams pass through unchanged.
#pragma once

#include <cstdint>
#include <string>

struct bt_graph;
struct bt_component_filter;

namespace macroscope::ctf {

struct PacketOverlaps {
  uint64_t packets = 0;   // packets that began before the previous one of their stream ended
  int64_t max_ns = 0;     // the largest of those overlaps
  int64_t total_ns = 0;   // their sum

  // Adds the overlaps another graph counted (over other streams).
  void Add(const PacketOverlaps& other);

  // The user's warning line ("" without overlaps).
  std::string Warning() const;
};

// Adds the filter to `graph` with `ports` input ports (`in0`...) and as many
// output ports (`out0`...; `outN` carries what `inN` receives). Counts into
// `overlaps`, which must outlive the graph. Null when babeltrace2 fails.
const bt_component_filter* AddPacketOverlapFilter(bt_graph* graph, uint64_t ports, PacketOverlaps* overlaps);

}  // namespace macroscope::ctf
