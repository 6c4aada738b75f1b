// Entities in the pipeline's tests: test batches made through
// EntityBatch::Append from entities given by the ids of their source
// trace, and any entity (a batch's, a sink's chunk's, a trace's) as one
// comparable line.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/entity_chunk.h"
#include "pipeline/stream_types.h"

namespace macroscope::pipeline::testing {

// One entity, by ids of its trace. The columns its type's kind has are
// used (model/trace.h): a state's start, end, value, level; an event's
// start, value; a variable's start, end, number; a link's start, end,
// value, key, peers.
struct TestEntity {
  ContainerId container = kRootContainer;
  TypeId type = kNone;
  double start = 0, end = 0;
  StringId value = kEmptyString;
  double number = 0;
  uint16_t level = 0;
  StringId key = kEmptyString;
  ContainerId peer_start = kNone, peer_end = kNone;
  std::vector<ExtraField> fields = {};
};

// Appends the entities to `batch`, whose trace has their types and
// containers (and names the chunks).
inline void AppendEntities(EntityBatch& batch, std::span<const TestEntity> entities) {
  const Trace& trace = *batch.trace;
  EntityStore s;  // one entity at a time
  for (const TestEntity& e : entities) {
    s = EntityStore();
    s.container = e.container;
    s.type = e.type;
    s.kind = trace.type(e.type).kind;
    s.start.push_back(e.start);
    if (s.kind != TypeKind::kEvent) s.end.push_back(e.end);
    if (s.kind != TypeKind::kVariable) s.value.push_back(e.value);
    if (s.kind == TypeKind::kState) s.level.push_back(e.level);
    if (s.kind == TypeKind::kVariable) s.number.push_back(e.number);
    if (s.kind == TypeKind::kLink) {
      s.key.push_back(e.key);
      s.peer_start.push_back(e.peer_start);
      s.peer_end.push_back(e.peer_end);
    }
    s.extras.SetStart(0, s.extras.AddList(e.fields));
    batch.Append(EntityChunk::Of(trace, s), 0);
  }
}

// The entities as one batch of `trace`, in its time base.
inline EntityBatch BatchOf(std::shared_ptr<const Trace> trace, std::span<const TestEntity> entities) {
  EntityBatch batch;
  batch.base = trace->time_base();
  batch.trace = std::move(trace);
  AppendEntities(batch, entities);
  return batch;
}

inline std::string Number(double d) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", d);
  return buffer;
}

// Entity i of `c` as one line: kind|type|container|start|end, then the
// columns the chunk has (v= value, n= number, l= level, k= key, from= to=
// peers) and the user fields. Names are read in `trace`, whose containers
// must be readable on this thread (for the peers).
inline std::string Line(const Trace& trace, const EntityChunk& c, size_t i) {
  auto name = [&](ContainerId id) {
    return id == kNone ? std::string("-") : std::string(trace.Str(trace.container(id).name));
  };
  std::string line = std::string(TypeKindName(c.kind)) + "|" + std::string(trace.Str(c.type_name)) + "|" +
                     std::string(trace.Str(c.container_name)) + "|" + Number(c.start[i]) + "|" + Number(c.End(i));
  if (!c.value.empty()) line += "|v=" + std::string(trace.Str(c.value[i]));
  if (!c.number.empty()) line += "|n=" + Number(c.number[i]);
  if (!c.level.empty()) line += "|l=" + std::to_string(c.level[i]);
  if (!c.key.empty()) line += "|k=" + std::string(trace.Str(c.key[i]));
  if (!c.peer_start.empty()) line += "|from=" + name(c.peer_start[i]) + "|to=" + name(c.peer_end[i]);
  c.ForEachField(i, [&](const ExtraField& f) {
    line += "|" + std::string(trace.Str(f.name)) + "=" + std::string(trace.Str(f.value));
  });
  return line;
}

// Every entity of the batch, in order (its trace complete).
inline std::vector<std::string> Lines(const EntityBatch& batch) {
  std::vector<std::string> out;
  for (size_t k = 0; k < batch.chunks(); ++k) {
    const EntityChunk c = batch.chunk(k);
    for (size_t i = 0; i < c.size(); ++i) out.push_back(Line(*batch.trace, c, i));
  }
  return out;
}

// Every entity of the trace's stores, store by store.
inline std::vector<std::string> Lines(const Trace& trace) {
  std::vector<std::string> out;
  for (const EntityStore& s : trace.stores()) {
    const EntityChunk c = EntityChunk::Of(trace, s);
    for (size_t i = 0; i < c.size(); ++i) out.push_back(Line(trace, c, i));
  }
  return out;
}

}  // namespace macroscope::pipeline::testing
