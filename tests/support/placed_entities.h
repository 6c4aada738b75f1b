// Where a streamed chunk's entities sit in their store (EntityChunk::index):
// a sink that puts each chunk's entities at index..index+n of an array per
// store must fill every place exactly once and rebuild the in-memory
// stores, column by column, although a streaming read hands a store's
// entities out of order (a state still open comes after those opened
// after it). Shared by the Pajé tests (tests/paje/chunk_index_test.cc) and
// the test of every reader (tests/formats/streamed_readers_test.cc).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/entity_chunk.h"
#include "model/entity_sink.h"
#include "model/trace.h"

namespace macroscope::testing {

// An entity's cells, one per column of kRowColumns, as text: the two reads
// compared have string pools of their own.
using Row = std::vector<std::string>;
inline constexpr const char* kRowColumns[] = {"start", "end", "value", "level", "number", "key",
                                              "peer_start", "peer_end", "fields"};

Row RowOf(const Trace& trace, const EntityChunk& chunk, size_t i);

// Puts each entity at its chunk's index + i in its store's array.
class PlacingSink : public EntitySink {
 public:
  void Completed(const Trace& trace, const EntityChunk& chunk) override;

  // By (container, type): the same in both reads, whose trees are built alike.
  using StoreKey = std::pair<ContainerId, TypeId>;
  std::map<StoreKey, std::vector<std::optional<Row>>> stores;
  size_t filled_twice = 0;
};

// Every place of every store of `model` filled exactly once, with its
// entity, column by column; nothing placed beyond. Fails the test on the
// first difference, naming the store, column and place.
void ExpectPlacedAs(const Trace& model, const PlacingSink& sink);

}  // namespace macroscope::testing
