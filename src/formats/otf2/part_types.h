// The entity types of an archive read in parts (formats/part_exchange.h),
// numbered as a whole reading numbers them.
//
// The translator defines an entity type ("type:N") when a record first
// needs it, so the parts, each reading some locations, define them in
// orders of their own. A whole reading meets the records in the global
// reader's order: the record of least (time, location) among the
// locations' next records (location_threads.h). That merge puts record i of
// a location before record j of another exactly when the greatest time of
// the first location's records up to i is less than the second's up to j
// (ties: the lesser location), so the position of a record in the whole
// reading is known from its own location alone: (greatest time so far,
// location, and the part's own order for the records of one location).
// Each part notes that position for every type at the first record that
// needs it (for a link type, at either half of a message, as a whole
// reading simulates each half at its record); the least over the parts,
// all-gathered, orders the types as the whole reading defines them. Every
// part then holds all of them, with the whole reading's ids and aliases.
// Container types come first and are the same in every part (all
// containers are created at the first record, from the definitions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <otf2/otf2.h>

#include "formats/part_exchange.h"
#include "model/trace.h"

namespace macroscope::otf2 {

// Where a record comes in a whole reading (see above); `seq` orders the
// notes of one part, compared only between records of one location.
struct ReadingPosition {
  OTF2_TimeStamp latest = 0;  // the greatest time of its location's records so far
  OTF2_LocationRef location = 0;
  uint64_t seq = 0;
  auto operator<=>(const ReadingPosition&) const = default;
};

// A position as the parts send it to one another (part_exchange.h).
void PutPosition(formats::BytesOut& out, const ReadingPosition& at);
ReadingPosition GetPosition(formats::BytesIn& in);

// An entity type as every part names it: container type ids are the same
// in every part.
struct TypeKey {
  TypeKind kind = TypeKind::kState;
  TypeId parent = kNone;
  TypeId start = kNone, end = kNone;  // links
  std::string name;
  auto operator<=>(const TypeKey&) const = default;
};

struct TypeUse {
  ReadingPosition at;
  TypeKey type;
};

// The first use of the store of (container, type).
struct StoreUse {
  ReadingPosition at;
  ContainerId container = kNone;
  TypeKey type;
};

// Collective: every part's first uses, the whole reading's entity types in
// the order it defines them (each at its least position).
std::vector<TypeKey> AgreeOnTypes(const std::vector<TypeUse>& mine, formats::PartExchange& share);

// Gives `trace` (its container types first, then entity types defined in
// any order) exactly the entity types `order`, in that order, with the
// aliases "type:N" the translator gives them; its stores and containers'
// store lists follow. Every type of `trace` must be in `order`.
void NumberTypesAsWhole(Trace& trace, const std::vector<TypeKey>& order);

}  // namespace macroscope::otf2
