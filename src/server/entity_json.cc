#include "server/entity_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <nlohmann/json.hpp>

#include "query/entity_tables.h"
#include "server/api_error.h"
#include "server/json_writer.h"
#include "server/trace_json.h"

namespace macroscope::server {

namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool Contains(std::string_view haystack, const std::string& lowered_needle) {
  return Lower(haystack).find(lowered_needle) != std::string::npos;
}

}  // namespace

std::pair<uint32_t, uint64_t> ParseEntityId(const std::string& text, const EntitySource& source) {
  uint32_t store = 0;
  uint64_t index = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  int64_t id = 0;
  if (auto [last, ec] = std::from_chars(begin, end, id); ec == std::errc() && last == end && last != begin) {
    if (!query::EntityIds(source).Place(id, store, index)) NotFound("unknown entity " + text);
    return {store, index};
  }
  auto [colon, ec1] = std::from_chars(begin, end, store);
  if (ec1 != std::errc() || colon == begin || colon == end || *colon != ':') NotFound("unknown entity " + text);
  auto [last, ec2] = std::from_chars(colon + 1, end, index);
  if (ec2 != std::errc() || last != end || last == colon + 1) NotFound("unknown entity " + text);
  return {store, index};
}

namespace {

// The JSON of entity i of chunk `s`, named `id`.
std::string EntityJson(const Trace& trace, const EntityChunk& s, size_t i, const std::string& id) {
  auto text_or_null = [&](std::span<const StringId> column) {
    return column.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(trace.Str(column[i]));
  };
  auto container_json = [&](ContainerId c) {
    if (c >= trace.containers().size()) return nlohmann::ordered_json(nullptr);
    return nlohmann::ordered_json{{"id", c}, {"path", trace.ContainerPath(c)}};
  };
  nlohmann::ordered_json out;
  out["id"] = id;
  out["kind"] = TypeKindName(s.kind);
  out["type"] = {{"id", s.type}, {"name", trace.Str(trace.type(s.type).name)}};
  out["container"] = container_json(s.container);
  out["value"] = text_or_null(s.value);
  out["start"] = s.start[i];
  out["end"] = s.End(i);
  out["duration"] = s.End(i) - s.start[i];
  out["level"] = s.level.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.level[i]);
  out["number"] = s.number.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.number[i]);
  out["key"] = text_or_null(s.key);
  out["from"] = s.peer_start.empty() ? nlohmann::ordered_json(nullptr) : container_json(s.peer_start[i]);
  out["to"] = s.peer_end.empty() ? nlohmann::ordered_json(nullptr) : container_json(s.peer_end[i]);
  auto fields = nlohmann::ordered_json::array();
  s.ForEachField(i, [&](const ExtraField& f) {
    fields.push_back({{"name", trace.Str(f.name)}, {"value", trace.Str(f.value)}});
  });
  out["fields"] = std::move(fields);
  return out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

std::string EntityJson(const EntitySource& source, uint32_t store_index, uint64_t index) {
  const Trace& trace = source.trace();
  std::string text;
  const std::string id = std::to_string(store_index) + ":" + std::to_string(index);
  const bool found = store_index < trace.stores().size() &&
                     source.Find(store_index, index, [&](const EntityChunk& s, size_t i) {
                       text = EntityJson(trace, s, i, id);
                     });
  if (!found) NotFound("unknown entity " + id);
  return text;
}

std::string SearchJson(const EntitySource& source, const std::string& query, size_t limit,
                       const analysis::Cancellation* cancel) {
  const Trace& trace = source.trace();
  if (query.empty() || query.size() > kMaxQueryLength) {
    BadRequest("parameter q must have 1 to " + std::to_string(kMaxQueryLength) + " characters");
  }
  const std::string needle = Lower(query);
  bool truncated = false;
  JsonWriter w;
  w.BeginObject().Key("containers").BeginArray();
  size_t found = 0;
  for (ContainerId c = 1; c < trace.containers().size(); ++c) {
    if (!Contains(trace.Str(trace.container(c).name), needle)) continue;
    if (found++ == limit) {
      truncated = true;
      break;
    }
    w.Integer(c);
  }
  w.EndArray().Key("entities").BeginArray();
  // Which interned strings match, decided once per distinct value rather
  // than once per entity.
  std::vector<int8_t> verdict(trace.strings().size(), -1);  // -1: not decided yet
  auto matches = [&](StringId id) {
    if (verdict[id] < 0) verdict[id] = Contains(trace.Str(id), needle) ? 1 : 0;
    return verdict[id] == 1;
  };
  // Per store, the matches in the store's order (a store on disk gives its
  // chunks in file order, and a streamed state may sit in a later chunk):
  // the first `room + 1` by place are kept in a heap, the last on top.
  struct Match {
    uint64_t index;
    double start, end;
    StringId value;
    bool operator<(const Match& other) const { return index < other.index; }
  };
  size_t room = limit;
  bool more_entities = false;
  std::vector<Match> heap;
  for (uint32_t k = 0; k < trace.stores().size() && !more_entities; ++k) {
    const EntityStore& store = trace.stores()[k];
    if (store.kind == TypeKind::kVariable) continue;
    heap.clear();
    source.ForEachChunk(k, [&](const EntityChunk& s) {
      analysis::ThrowIfCancelled(cancel);
      for (size_t i = 0; i < s.size(); ++i) {
        if (!matches(s.value[i])) continue;
        const Match m{s.index + i, s.start[i], s.End(i), s.value[i]};
        if (heap.size() == room + 1) {
          if (!(m < heap.front())) continue;
          std::pop_heap(heap.begin(), heap.end());
          heap.pop_back();
        }
        heap.push_back(m);
        std::push_heap(heap.begin(), heap.end());
      }
    });
    std::sort_heap(heap.begin(), heap.end());
    more_entities = heap.size() > room;
    for (size_t m = 0; m < heap.size() && m < room; ++m) {
      w.BeginObject().Key("id").String(std::to_string(k) + ":" + std::to_string(heap[m].index));
      w.Key("start").Number(heap[m].start).Key("end").Number(heap[m].end);
      w.Key("value").String(trace.Str(heap[m].value));
      w.Key("container").Integer(store.container).Key("type").Integer(store.type).EndObject();
    }
    room -= std::min(room, heap.size());
  }
  w.EndArray().Key("truncated").Bool(truncated || more_entities).EndObject();
  return w.Take();
}

}  // namespace macroscope::server
