#include "formats/otf2/definitions.h"

#include <cinttypes>
#include <cstdio>

#include "formats/otf2/library_errors.h"
#include "util/error.h"

namespace macroscope::otf2 {

namespace {

Definitions& Defs(void* user) { return *static_cast<Definitions*>(user); }

OTF2_CallbackCode OnClock(void* user, uint64_t resolution, uint64_t offset, uint64_t, uint64_t realtime) {
  Defs(user).timer_resolution = resolution;
  Defs(user).global_offset = offset;
  if (realtime != OTF2_UNDEFINED_TIMESTAMP && realtime <= static_cast<uint64_t>(INT64_MAX))
    Defs(user).realtime_ns = static_cast<int64_t>(realtime);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnString(void* user, OTF2_StringRef self, const char* text) {
  Defs(user).strings[self] = text != nullptr ? text : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnSystemTreeNode(void* user, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                   OTF2_StringRef class_name, OTF2_SystemTreeNodeRef parent) {
  Defs(user).system_tree_nodes[self] = {name, class_name, parent, {}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnLocationGroup(void* user, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                  OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                  OTF2_LocationGroupRef) {
  Defs(user).location_groups[self] = {name, type, parent, {}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnLocation(void* user, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                             uint64_t, OTF2_LocationGroupRef group) {
  Defs(user).locations[self] = {name, type, group, {}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnRegion(void* user, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                           OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t) {
  Defs(user).regions[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnGroup(void* user, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                          OTF2_GroupFlag, uint32_t count, const uint64_t* members) {
  Defs(user).groups[self] = {type, paradigm, std::vector<uint64_t>(members, members + count)};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnComm(void* user, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef,
                         OTF2_CommFlag) {
  Defs(user).comms[self] = {name, group};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnMetricMember(void* user, OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef,
                                 OTF2_MetricType, OTF2_MetricMode, OTF2_Type, OTF2_Base, int64_t, OTF2_StringRef) {
  Defs(user).metric_members[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnMetricClass(void* user, OTF2_MetricRef self, uint8_t count, const OTF2_MetricMemberRef* members,
                                OTF2_MetricOccurrence, OTF2_RecorderKind) {
  Definitions::Metric& m = Defs(user).metrics[self];
  m.members.assign(members, members + count);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnMetricInstance(void* user, OTF2_MetricRef self, OTF2_MetricRef metric_class, OTF2_LocationRef,
                                   OTF2_MetricScope scope_kind, uint64_t scope) {
  Definitions::Metric& m = Defs(user).metrics[self];
  m.instance = true;
  m.instance_class = metric_class;
  m.scope_kind = scope_kind;
  m.scope = scope;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnAttribute(void* user, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef,
                              OTF2_Type type) {
  Defs(user).attributes[self] = {name, type};
  return OTF2_CALLBACK_SUCCESS;
}

// *_PROPERTY definitions become user fields of the container they describe.
template <class Map>
void AddProperty(Definitions& d, Map& map, uint64_t owner, OTF2_StringRef name, OTF2_Type type,
                 OTF2_AttributeValue value) {
  auto it = map.find(owner);
  if (it != map.end()) it->second.properties.emplace_back(d.String(name), d.ValueText(type, value));
}

OTF2_CallbackCode OnSystemTreeNodeProperty(void* user, OTF2_SystemTreeNodeRef node, OTF2_StringRef name,
                                           OTF2_Type type, OTF2_AttributeValue value) {
  AddProperty(Defs(user), Defs(user).system_tree_nodes, node, name, type, value);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnLocationGroupProperty(void* user, OTF2_LocationGroupRef group, OTF2_StringRef name,
                                          OTF2_Type type, OTF2_AttributeValue value) {
  AddProperty(Defs(user), Defs(user).location_groups, group, name, type, value);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnLocationProperty(void* user, OTF2_LocationRef location, OTF2_StringRef name, OTF2_Type type,
                                     OTF2_AttributeValue value) {
  AddProperty(Defs(user), Defs(user).locations, location, name, type, value);
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

const std::string& Definitions::String(OTF2_StringRef ref) const {
  static const std::string kEmpty;
  auto it = strings.find(ref);
  return it == strings.end() ? kEmpty : it->second;
}

std::optional<OTF2_LocationRef> Definitions::RankLocation(OTF2_CommRef comm, uint32_t rank,
                                                          OTF2_LocationRef self) const {
  auto c = comms.find(comm);
  if (c == comms.end()) return std::nullopt;
  auto g = groups.find(c->second.group);
  if (g == groups.end()) return std::nullopt;
  const Group& group = g->second;
  switch (group.type) {
    case OTF2_GROUP_TYPE_COMM_SELF:
      if (rank == 0) return self;
      return std::nullopt;
    case OTF2_GROUP_TYPE_COMM_LOCATIONS:
      if (rank < group.members.size()) return group.members[rank];
      return std::nullopt;
    case OTF2_GROUP_TYPE_COMM_GROUP: {
      // Ranks of a COMM_GROUP index the COMM_LOCATIONS group of the same
      // paradigm (the OTF2 definition of communicators).
      if (rank >= group.members.size()) return std::nullopt;
      uint64_t index = group.members[rank];
      for (const auto& [ref, other] : groups)
        if (other.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && other.paradigm == group.paradigm)
          return index < other.members.size() ? std::optional<OTF2_LocationRef>(other.members[index]) : std::nullopt;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::string Definitions::ValueText(OTF2_Type type, const OTF2_AttributeValue& v) const {
  auto name_of = [this](const auto& map, uint64_t ref) -> std::string {
    auto it = map.find(ref);
    return it == map.end() ? std::to_string(ref) : String(it->second);
  };
  char buffer[64];
  switch (type) {
    case OTF2_TYPE_UINT8: return std::to_string(v.uint8);
    case OTF2_TYPE_UINT16: return std::to_string(v.uint16);
    case OTF2_TYPE_UINT32: return std::to_string(v.uint32);
    case OTF2_TYPE_UINT64: return std::to_string(v.uint64);
    case OTF2_TYPE_INT8: return std::to_string(v.int8);
    case OTF2_TYPE_INT16: return std::to_string(v.int16);
    case OTF2_TYPE_INT32: return std::to_string(v.int32);
    case OTF2_TYPE_INT64: return std::to_string(v.int64);
    case OTF2_TYPE_FLOAT: std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(v.float32)); return buffer;
    case OTF2_TYPE_DOUBLE: std::snprintf(buffer, sizeof buffer, "%.17g", v.float64); return buffer;
    case OTF2_TYPE_STRING: return String(v.stringRef);
    case OTF2_TYPE_REGION: return name_of(regions, v.regionRef);
    case OTF2_TYPE_LOCATION: {
      auto it = locations.find(v.locationRef);
      return it == locations.end() ? std::to_string(v.locationRef) : String(it->second.name);
    }
    case OTF2_TYPE_COMM: {
      auto it = comms.find(v.commRef);
      return it == comms.end() ? std::to_string(v.commRef) : String(it->second.name);
    }
    default:  // other references: their id, as otf2-print shows when it has no name
      return std::to_string(v.uint64);
  }
}

void ReadDefinitions(OTF2_Reader* reader, const std::string& anchor, const LibraryErrorCapture& capture,
                     Definitions& defs) {
  OTF2_GlobalDefReader* def_reader = OTF2_Reader_GetGlobalDefReader(reader);
  if (def_reader == nullptr)
    throw UserError(anchor + ": cannot read the global definitions" +
                    (capture.first_message().empty() ? "" : ": " + capture.first_message()));
  OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, OnClock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, OnString);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(callbacks, OnSystemTreeNode);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(callbacks, OnLocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, OnLocation);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, OnRegion);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, OnGroup);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, OnComm);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(callbacks, OnMetricMember);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(callbacks, OnMetricClass);
  OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(callbacks, OnMetricInstance);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(callbacks, OnAttribute);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodePropertyCallback(callbacks, OnSystemTreeNodeProperty);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupPropertyCallback(callbacks, OnLocationGroupProperty);
  OTF2_GlobalDefReaderCallbacks_SetLocationPropertyCallback(callbacks, OnLocationProperty);
  OTF2_ErrorCode code = OTF2_Reader_RegisterGlobalDefCallbacks(reader, def_reader, callbacks, &defs);
  OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
  Check(code, anchor, "cannot read the global definitions", capture);
  uint64_t count = 0;
  Check(OTF2_Reader_ReadAllGlobalDefinitions(reader, def_reader, &count), anchor, "bad global definitions", capture);
  Check(OTF2_Reader_CloseGlobalDefReader(reader, def_reader), anchor, "bad global definitions", capture);

  if (defs.timer_resolution == 0)
    throw UserError(anchor + ": no CLOCK_PROPERTIES definition (or a zero timer resolution): "
                             "ticks cannot be converted to seconds");
  // Model times count ticks from the global offset, and the clock's own
  // times (origin + ticks) are 64-bit signed integers (time_base.h).
  if (defs.global_offset > static_cast<uint64_t>(INT64_MAX))
    throw UserError(anchor + ": a CLOCK_PROPERTIES global offset of " + std::to_string(defs.global_offset) +
                    " ticks, 2^63 or more, which macroscope cannot hold exactly");
  for (auto& [ref, metric] : defs.metrics) {
    if (!metric.instance) continue;
    auto cls = defs.metrics.find(metric.instance_class);
    if (cls == defs.metrics.end() || cls->second.instance)
      throw UserError(anchor + ": METRIC_INSTANCE " + std::to_string(ref) + " refers to an unknown METRIC_CLASS " +
                      std::to_string(metric.instance_class));
    metric.members = cls->second.members;
  }
}

}  // namespace macroscope::otf2
