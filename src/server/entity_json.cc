#include "server/entity_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <nlohmann/json.hpp>

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

std::pair<uint32_t, uint32_t> ParseEntityId(const std::string& text) {
  uint32_t store = 0, index = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  auto [colon, ec1] = std::from_chars(begin, end, store);
  if (ec1 != std::errc() || colon == begin || colon == end || *colon != ':') NotFound("unknown entity " + text);
  auto [last, ec2] = std::from_chars(colon + 1, end, index);
  if (ec2 != std::errc() || last != end || last == colon + 1) NotFound("unknown entity " + text);
  return {store, index};
}

std::string EntityJson(const Trace& trace, uint32_t store_index, uint32_t index) {
  if (store_index >= trace.stores().size() || index >= trace.stores()[store_index].size()) {
    NotFound("unknown entity " + std::to_string(store_index) + ":" + std::to_string(index));
  }
  const EntityStore& s = trace.stores()[store_index];
  const size_t i = index;
  auto text_or_null = [&](const std::vector<StringId>& column) {
    return column.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(trace.Str(column[i]));
  };
  auto container_json = [&](ContainerId c) {
    if (c >= trace.containers().size()) return nlohmann::ordered_json(nullptr);
    return nlohmann::ordered_json{{"id", c}, {"path", trace.ContainerPath(c)}};
  };
  nlohmann::ordered_json out;
  out["id"] = std::to_string(store_index) + ":" + std::to_string(index);
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
  s.extras.ForEach(i, [&](const ExtraField& f) {
    fields.push_back({{"name", trace.Str(f.name)}, {"value", trace.Str(f.value)}});
  });
  out["fields"] = std::move(fields);
  return out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string SearchJson(const Trace& trace, const std::string& query, size_t limit) {
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
  found = 0;
  bool more_entities = false;
  for (uint32_t index = 0; index < trace.stores().size() && !more_entities; ++index) {
    const EntityStore& s = trace.stores()[index];
    if (s.value.empty()) continue;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!matches(s.value[i])) continue;
      if (found++ == limit) {
        more_entities = true;
        break;
      }
      w.BeginObject().Key("id").String(std::to_string(index) + ":" + std::to_string(i));
      w.Key("start").Number(s.start[i]).Key("end").Number(s.End(i));
      w.Key("value").String(trace.Str(s.value[i]));
      w.Key("container").Integer(s.container).Key("type").Integer(s.type).EndObject();
    }
  }
  w.EndArray().Key("truncated").Bool(truncated || more_entities).EndObject();
  return w.Take();
}

}  // namespace macroscope::server
