// Per-key data of the modules that aggregate per key (count, statistics),
// one table per source trace: keys hold StringIds, which are per trace, so
// each trace numbers its own keys (key_index.h) and the keys become text
// only at the end, once per key and table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/modules/entity_attributes.h"
#include "pipeline/modules/key_index.h"
#include "pipeline/stream_types.h"

namespace macroscope::pipeline {

// `T`: the data of one key (a count, moments), value-initialised for a new key.
template <class T>
class PerTraceTables {
 public:
  struct Table {
    std::shared_ptr<const Trace> trace;
    KeyIndex keys;
    std::vector<T> values;  // by key number

    // The data of `key` (KeyOf), added when new.
    T& Of(uint64_t key) {
      const uint32_t k = keys.Number(key);
      if (k == values.size()) values.emplace_back();
      return values[k];
    }
  };

  // The table of the batch's source trace, added when new (the previous
  // batch's table is found at once).
  Table& For(const EntityBatch& batch) {
    if (last_ == nullptr || last_->trace != batch.trace) {
      last_ = nullptr;
      for (Table& t : tables_)
        if (t.trace == batch.trace) last_ = &t;
      if (last_ == nullptr) last_ = &tables_.emplace_back(Table{batch.trace, {}, {}});
    }
    return *last_;
  }

  // Calls f(texts, data) for every key of every table, table by table in
  // order of first appearance, with the key's texts (AppendKeyTexts with `by`).
  template <class F>
  void ForEachKey(EntityKey by, F&& f) const {
    std::vector<std::string> texts;
    for (const Table& t : tables_) {
      for (size_t k = 0; k < t.values.size(); ++k) {
        texts.clear();
        AppendKeyTexts(t.keys.keys()[k], by, *t.trace, texts);
        f(texts, t.values[k]);
      }
    }
  }

 private:
  std::vector<Table> tables_;
  Table* last_ = nullptr;
};

}  // namespace macroscope::pipeline
