#include "server/trace_json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "analysis/time_json.h"

namespace macroscope::server {

namespace {

const char* StateName(ServedTrace::State state) {
  switch (state) {
    case ServedTrace::State::kLoading:
      return "loading";
    case ServedTrace::State::kReady:
      return "ready";
    case ServedTrace::State::kFailed:
      return "failed";
  }
  return "failed";
}

}  // namespace

nlohmann::ordered_json TraceSummary(const ServedTrace& served, size_t id) {
  nlohmann::ordered_json out;
  out["id"] = id;
  out["name"] = served.name();
  out["format"] = served.format();
  const ServedTrace::State state = served.state();
  out["state"] = StateName(state);
  if (state == ServedTrace::State::kLoading) {
    // What the reader has counted so far; total_bytes is 0 where the
    // reader does not know its input's size (only Pajé counts bytes).
    const Progress& progress = served.progress();
    out["progress"] = {{"bytes", progress.bytes()},
                       {"total_bytes", progress.total_bytes()},
                       {"entities", progress.entities()}};
  }
  if (state != ServedTrace::State::kReady) return out;
  const analysis::TraceSummary& summary = served.summary();
  out["start"] = summary.start;
  out["end"] = summary.end;
  out["time"] = TimeBaseJson(served.trace());     // what model times mean, for people's units (docs/time.md)
  out["totals"] = analysis::TotalsJson(summary);  // as `macroscope info --json`'s
  return out;
}

std::optional<std::string> HexColor(std::string_view color) {
  if (color.size() == 7 && color[0] == '#') return std::string(color);
  double rgb[3];
  const char* p = color.data();
  const char* end = p + color.size();
  for (double& c : rgb) {
    while (p < end && (*p == ' ' || *p == ',')) ++p;
    auto [next, ec] = std::from_chars(p, end, c);
    if (ec != std::errc() || !(c >= 0 && c <= 1)) return std::nullopt;
    p = next;
  }
  char hex[8];
  std::snprintf(hex, sizeof hex, "#%02x%02x%02x", static_cast<int>(std::lround(rgb[0] * 255)),
                static_cast<int>(std::lround(rgb[1] * 255)), static_cast<int>(std::lround(rgb[2] * 255)));
  return std::string(hex);
}

nlohmann::ordered_json TraceDetails(const ServedTrace& served, size_t id) {
  const Trace& t = served.trace();
  nlohmann::ordered_json out = TraceSummary(served, id);
  std::vector<nlohmann::ordered_json> values(t.types().size(), nlohmann::ordered_json::array());
  for (const EntityValue& v : t.values()) {
    auto color = HexColor(t.Str(v.color));
    values[v.type].push_back({{"name", t.Str(v.name)}, {"color", color ? nlohmann::ordered_json(*color) : nullptr}});
  }
  auto types = nlohmann::ordered_json::array();
  for (TypeId id = 1; id < t.types().size(); ++id) {
    const Type& ty = t.type(id);
    nlohmann::ordered_json e;
    e["id"] = id;
    e["name"] = t.Str(ty.name);
    e["alias"] = t.Str(ty.alias);
    e["kind"] = TypeKindName(ty.kind);
    e["parent"] = ty.parent;
    if (ty.kind == TypeKind::kLink) {
      e["start_type"] = ty.start_type;
      e["end_type"] = ty.end_type;
    }
    auto color = HexColor(t.Str(ty.color));
    e["color"] = color ? nlohmann::ordered_json(*color) : nullptr;
    e["values"] = std::move(values[id]);
    types.push_back(std::move(e));
  }
  out["types"] = std::move(types);
  auto containers = nlohmann::ordered_json::array();
  // Paths are built parent first, so each is its parent's plus one name.
  std::vector<std::string> paths(t.containers().size());
  for (ContainerId c = 1; c < t.containers().size(); ++c) {
    const Container& k = t.container(c);
    const std::string& parent_path = paths[k.parent];
    paths[c] = parent_path.empty() ? std::string(t.Str(k.name)) : parent_path + "/" + std::string(t.Str(k.name));
    nlohmann::ordered_json e;
    e["id"] = c;
    e["name"] = t.Str(k.name);
    e["type"] = k.type;
    e["parent"] = k.parent;
    e["path"] = paths[c];
    e["start"] = k.start;
    e["end"] = k.destroyed ? k.end : t.end_time();
    containers.push_back(std::move(e));
  }
  out["containers"] = std::move(containers);
  return out;
}

}  // namespace macroscope::server
