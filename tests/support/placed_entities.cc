#include "placed_entities.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <iterator>

namespace macroscope::testing {

namespace {

// Every bit of a double, so that two reads differing in the last bit differ.
std::string Number(double d) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", d);
  return buffer;
}

}  // namespace

Row RowOf(const Trace& trace, const EntityChunk& c, size_t i) {
  std::string fields;
  c.ForEachField(i, [&](const ExtraField& f) {
    fields += std::string(trace.Str(f.name)) + "=" + std::string(trace.Str(f.value)) + ";";
  });
  return {Number(c.start[i]),
          Number(c.End(i)),
          std::string(trace.Str(c.Value(i))),
          std::to_string(c.Level(i)),
          Number(c.Number(i)),
          std::string(trace.Str(c.Key(i))),
          std::to_string(c.PeerStart(i)),
          std::to_string(c.PeerEnd(i)),
          fields};
}

void PlacingSink::Completed(const Trace& trace, const EntityChunk& c) {
  std::vector<std::optional<Row>>& places = stores[{c.container, c.type}];
  if (places.size() < c.index + c.size()) places.resize(c.index + c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    std::optional<Row>& place = places[c.index + i];
    if (place) ++filled_twice;
    place = RowOf(trace, c, i);
  }
}

void ExpectPlacedAs(const Trace& model, const PlacingSink& sink) {
  EXPECT_EQ(sink.filled_twice, 0u);
  size_t filled_stores = 0;
  for (const EntityStore& s : model.stores()) {
    const std::string store = std::string(model.Str(model.container(s.container).name)) + " " +
                              std::string(model.Str(model.type(s.type).name));
    auto it = sink.stores.find({s.container, s.type});
    const std::vector<std::optional<Row>> none;
    const std::vector<std::optional<Row>>& got = it == sink.stores.end() ? none : it->second;
    filled_stores += got.empty() ? 0 : 1;
    ASSERT_EQ(got.size(), s.size()) << "store " << store;
    std::vector<Row> want;
    const EntityChunk whole = EntityChunk::Of(model, s);
    for (size_t i = 0; i < whole.size(); ++i) {
      ASSERT_TRUE(got[i].has_value()) << "store " << store << ": place " << i << " never filled";
      want.push_back(RowOf(model, whole, i));
    }
    for (size_t column = 0; column < std::size(kRowColumns); ++column)
      for (size_t i = 0; i < want.size(); ++i)  // the first difference tells
        ASSERT_EQ((*got[i])[column], want[i][column])
            << "store " << store << ", column " << kRowColumns[column] << ", place " << i;
  }
  EXPECT_EQ(filled_stores, sink.stores.size()) << "entities of a store the model does not have";
}

}  // namespace macroscope::testing
