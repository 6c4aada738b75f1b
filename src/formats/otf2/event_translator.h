// Stage 2 of the OTF2 reader: turns the globally time-ordered event records
// of an archive into calls of the Pajé simulator, which owns state stacks,
// link matching and variables for every format.
//
// Mapping (docs/otf2.md has the long form):
//   system tree node  -> container, type = its class ("machine", "node")
//   location group    -> container, type = its OTF2 type ("PROCESS")
//   location          -> container, type = its OTF2 type ("CPU_THREAD")
//   ENTER / LEAVE     -> push / pop of state type "Region" of the location,
//                        value = the region's name
//   MPI_SEND / MPI_ISEND and MPI_RECV / MPI_IRECV
//                     -> start / end of a link of type "MPI message" in the
//                        lowest container holding both locations, matched
//                        by (communicator, sender, receiver, tag, n-th such
//                        message), value = the communicator's name
//   METRIC            -> one variable per metric member, set to the value
//   any other record  -> a punctual event, one event type per record kind
//                        ("PROGRAM_BEGIN"), value = the program name for
//                        PROGRAM_BEGIN and the record kind otherwise
//   attributes        -> user fields (name = attribute name, value = text)
// Times: seconds since the clock's global offset; containers are created
// at the first event's time.
//
// Shared reading (formats/part_exchange.h): a translator that sees only
// some locations holds its message halves instead of simulating them; at
// the end, each half goes to the part that reads the sender, which
// simulates the links in the order they complete, and every part finishes
// at the span of the whole archive (FinishShared).
//
// Errors: per-record problems throw paje::SimulationError (no position);
// callbacks run inside the OTF2 library (C code), so nothing may
// be thrown through them: a callback stores the first exception, asks the
// library to stop, and the reader rethrows it (see error()).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <otf2/otf2.h>

#include "formats/otf2/definitions.h"
#include "formats/otf2/event_record.h"
#include "formats/format.h"
#include "formats/otf2/part_types.h"
#include "formats/part_exchange.h"
#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::otf2 {

class EventTranslator : public RecordSink {
 public:
  // All three must outlive the translator.
  EventTranslator(const Definitions& defs, Trace& trace, paje::Simulator& simulator);

  // One record (event_record.h), in the global reader's order.
  OTF2_CallbackCode Take(const EventRecord& record) override;

  // After the last record: ends the simulation and sets the trace's span
  // [first event, last event] (both 0 when there was no event).
  void Finish();

  // Shared reading: messages are held from now on, and the first use of
  // every entity type noted (part_types.h; call before the records).
  void HoldMessages() { hold_messages_ = true; }
  // Only these kinds of entities from now on: regions' enter and leave
  // records without states, messages without links, metrics without
  // variables, other records without events are counted in the span and
  // left out (call before the records).
  void Read(formats::EntityKinds kinds) { kinds_ = kinds; }
  // Instead of Finish(), collectively with the other parts: `owner` says
  // which part reads a location. Collective calls come first, so that a
  // part that throws here (SimulationError) throws after its last one.
  // With several parts, the trace ends with the whole reading's types.
  void FinishShared(formats::PartExchange& share, const std::function<int(OTF2_LocationRef)>& owner);

  // Shared reading: where a whole reading creates each store of the trace
  // (part_stores.h), the positions of the stores created by records, in
  // store order (the stores after them are links, created at the end) ...
  const std::vector<ReadingPosition>& stores_at() const { return stores_at_; }
  // ... and the first half of a message this part read per link store
  // (container, type), a whole reading creating a link store at the first.
  const std::vector<StoreUse>& link_store_uses() const { return link_store_uses_; }

  uint64_t records() const { return records_; }
  // The first exception thrown while translating a record (null if none).
  std::exception_ptr error() const { return error_; }

 private:
  struct Location {
    StringId identifier = kEmptyString;  // the container's alias
    ContainerId container = kNone;
    OTF2_TimeStamp latest = 0;  // the greatest time of its records so far
  };
  // One end of an MPI message; `n`: the message's rank among those of its
  // (communicator, sender, receiver, tag), counted by the side that saw it.
  struct MessageHalf {
    bool send = false;
    double time = 0;
    OTF2_LocationRef sender = 0, receiver = 0;
    OTF2_CommRef comm = 0;
    uint32_t tag = 0;
    uint64_t length = 0, n = 0;
    std::vector<ExtraField> fields;  // the record's attributes
    ReadingPosition at;              // its record's, in a whole reading
  };

  // Runs `f` for one record at `time`, counting it, creating the containers
  // on the first record and storing any exception.
  template <class F>
  OTF2_CallbackCode Record(OTF2_TimeStamp time, OTF2_LocationRef location, F&& f);
  // Throws paje::SimulationError naming `location` beyond 2^53 ticks.
  double ModelTime(OTF2_TimeStamp time, OTF2_LocationRef location) const;
  void CreateContainers(double time);
  ContainerId CreateSystemTreeNode(OTF2_SystemTreeNodeRef ref, double time, int depth);
  ContainerId CreateLocationGroup(OTF2_LocationGroupRef ref, double time);
  ContainerId Create(double time, ContainerId parent, const std::string& type_name, StringId name,
                     const std::string& identifier, const std::vector<TextField>& properties);
  // The identifier of the container type `name` under `parent_type`, defined on first use.
  StringId ContainerType(TypeId parent_type, const std::string& name);
  // The identifier of the entity type (kind, name) under the type of
  // `container`, defined on first use.
  StringId EntityType(TypeKind kind, ContainerId container, const std::string& name);
  // EntityType of the "Region" states of `container`, and a region's name
  // (its definition's, else "region N"), each made once.
  StringId RegionType(ContainerId container);
  StringId RegionName(uint64_t region);
  StringId LinkType(ContainerId parent, ContainerId start, ContainerId end);
  // The lowest container holding both.
  ContainerId Common(ContainerId a, ContainerId b) const;
  // Shared reading: where the record at `time` of `location` comes in a
  // whole reading, and the first uses of types there.
  void Position(OTF2_LocationRef location, OTF2_TimeStamp time);
  void NoteUse(TypeKey type);
  void NoteLinkUse(OTF2_LocationRef sender, OTF2_LocationRef receiver);
  StringId Identifier(ContainerId container) const;
  const Location& At(OTF2_LocationRef location) const;
  // The record's attributes as user fields, in extras_.
  paje::Extras Attributes(std::span<const RawAttribute> attributes);
  void Punctual(OTF2_LocationRef location, double time, const std::string& kind, StringId value,
                std::span<const RawAttribute> attributes);
  void Message(bool send, OTF2_LocationRef location, double time, uint32_t peer_rank, OTF2_CommRef comm,
               uint32_t tag, uint64_t length, std::span<const RawAttribute> attributes, const char* kind);
  void Metric(const EventRecord& record, double time);
  // Simulates one half; `attributes`: the record's, when not held.
  void Simulate(const MessageHalf& half, std::span<const RawAttribute> attributes);
  void Finish(double first, double last);

  const Definitions& defs_;
  Trace& trace_;
  paje::Simulator& simulator_;
  uint64_t records_ = 0;
  bool started_ = false;
  double first_ = 0, last_ = 0;
  std::exception_ptr error_;

  absl::flat_hash_map<OTF2_LocationRef, Location> locations_;  // made before the first record, then only read
  std::unordered_map<OTF2_SystemTreeNodeRef, ContainerId> nodes_;
  std::unordered_map<OTF2_LocationGroupRef, ContainerId> groups_;
  std::map<std::tuple<TypeId, TypeKind, std::string>, StringId> types_;  // (parent, kind, name) -> identifier
  std::map<std::tuple<TypeId, TypeId, TypeId>, StringId> link_types_;   // (parent, start, end) -> identifier
  absl::flat_hash_map<ContainerId, StringId> region_types_;  // RegionType
  absl::flat_hash_map<uint64_t, StringId> region_names_;    // RegionName
  // Messages seen so far per (communicator, sender, receiver, tag), on the
  // sending and on the receiving side: the n-th send matches the n-th
  // receive (MPI's non-overtaking rule).
  // In a flat hash map: a trace whose tags never repeat (a tag a round)
  // has a channel a message, millions of them.
  struct Channel {
    OTF2_CommRef comm;
    OTF2_LocationRef sender, receiver;
    uint32_t tag;
    bool operator==(const Channel&) const = default;
    template <class H>
    friend H AbslHashValue(H h, const Channel& c) {
      return H::combine(std::move(h), c.comm, c.sender, c.receiver, c.tag);
    }
  };
  absl::flat_hash_map<Channel, uint64_t> sent_, received_;
  // What every message between two containers shares, made once: its link
  // type and the container holding it (the lowest holding both ends).
  struct Route {
    StringId type, holder;
  };
  absl::flat_hash_map<std::pair<ContainerId, ContainerId>, Route> routes_;
  absl::flat_hash_map<OTF2_CommRef, StringId> comm_names_;
  StringId tag_field_ = kEmptyString, length_field_ = kEmptyString;  // "Tag", "Length" once interned
  std::vector<ExtraField> extras_;
  std::string key_;  // a message's key, formatted here (its capacity kept)
  bool hold_messages_ = false;
  formats::EntityKinds kinds_ = formats::EntityKinds::All();
  std::vector<MessageHalf> held_;
  ReadingPosition now_;  // the current record's, seq counting the notes
  std::vector<ReadingPosition> stores_at_;
  std::vector<StoreUse> link_store_uses_;
  std::vector<TypeUse> type_uses_;
  std::set<TypeKey> noted_;
  std::set<std::pair<OTF2_LocationRef, OTF2_LocationRef>> noted_pairs_;
};

}  // namespace macroscope::otf2
