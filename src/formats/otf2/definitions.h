// The global definitions of an OTF2 archive that the event translation
// needs, read once before any event (stage 1 of the OTF2 reader; stage 2,
// event_translator.h, turns events into the model).
//
// Only what the mapping uses is kept: clock, strings, the system tree,
// location groups, locations, regions, groups and communicators (to turn
// MPI ranks into locations), metrics and attributes. Every other definition
// is skipped by the OTF2 library (no callback registered).
//
// Errors: ReadDefinitions throws UserError naming the anchor file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <otf2/otf2.h>

namespace macroscope::otf2 {

// One `name = text` pair of a *_PROPERTY definition or of an event's
// attribute list, before interning.
using TextField = std::pair<std::string, std::string>;

struct Definitions {
  // CLOCK_PROPERTIES: seconds = (ticks - global_offset) / timer_resolution.
  uint64_t timer_resolution = 0;  // 0 until the definition is read
  uint64_t global_offset = 0;
  // ns since 1970 at global_offset, when the archive records it.
  std::optional<int64_t> realtime_ns;

  struct SystemTreeNode {
    OTF2_StringRef name, class_name;
    OTF2_SystemTreeNodeRef parent;  // OTF2_UNDEFINED_SYSTEM_TREE_NODE at the top
    std::vector<TextField> properties;
  };
  struct LocationGroup {
    OTF2_StringRef name;
    OTF2_LocationGroupType type;
    OTF2_SystemTreeNodeRef parent;
    std::vector<TextField> properties;
  };
  struct Location {
    OTF2_StringRef name;
    OTF2_LocationType type;
    OTF2_LocationGroupRef group;
    std::vector<TextField> properties;
  };
  struct Group {
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    std::vector<uint64_t> members;
  };
  struct Comm {
    OTF2_StringRef name;
    OTF2_GroupRef group;
  };
  struct Metric {  // a METRIC_CLASS, or a METRIC_INSTANCE resolved to its class's members
    std::vector<OTF2_MetricMemberRef> members;
    bool instance = false;
    OTF2_MetricScope scope_kind = OTF2_SCOPE_LOCATION;
    uint64_t scope = 0;
    OTF2_MetricRef instance_class = OTF2_UNDEFINED_METRIC;
  };
  struct Attribute {
    OTF2_StringRef name;
    OTF2_Type type;
  };

  std::unordered_map<OTF2_StringRef, std::string> strings;
  // Ordered maps: containers are created in id order, which is definition
  // order for every writer we know (Score-P, the OTF2 writer examples).
  std::map<OTF2_SystemTreeNodeRef, SystemTreeNode> system_tree_nodes;
  std::map<OTF2_LocationGroupRef, LocationGroup> location_groups;
  std::map<OTF2_LocationRef, Location> locations;
  std::unordered_map<OTF2_RegionRef, OTF2_StringRef> regions;  // region -> its name
  std::unordered_map<OTF2_GroupRef, Group> groups;
  std::unordered_map<OTF2_CommRef, Comm> comms;
  std::unordered_map<OTF2_MetricMemberRef, OTF2_StringRef> metric_members;  // member -> its name
  std::unordered_map<OTF2_MetricRef, Metric> metrics;  // classes and instances share these ids
  std::unordered_map<OTF2_AttributeRef, Attribute> attributes;

  // The text of a string definition; "" for OTF2_UNDEFINED_STRING or an
  // unknown reference.
  const std::string& String(OTF2_StringRef ref) const;
  // The location of `rank` in communicator `comm`, as seen from `self` (the
  // location that recorded the event, the answer for MPI_COMM_SELF); none
  // when the definitions do not say.
  std::optional<OTF2_LocationRef> RankLocation(OTF2_CommRef comm, uint32_t rank, OTF2_LocationRef self) const;
  // The text of an attribute value of OTF2 type `type`: the referenced
  // string, region or location name for references, the number otherwise.
  std::string ValueText(OTF2_Type type, const OTF2_AttributeValue& value) const;
};

class LibraryErrorCapture;

// Registers the callbacks for the definitions above on `reader` and reads
// all global definitions. `anchor` names the archive in errors; `capture`
// holds the library's messages.
void ReadDefinitions(OTF2_Reader* reader, const std::string& anchor, const LibraryErrorCapture& capture,
                     Definitions& defs);

}  // namespace macroscope::otf2
