#include "loops/trace_series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <unordered_map>

#include "loops/series_scaling.h"
#include "util/error.h"

namespace macroscope::loops {

namespace {

constexpr size_t kListedNames = 10;  // names listed in an error message

std::string Quoted(std::string_view text) {
  std::string quoted = "'";  // appended, not "'" + ...: avoids a GCC 12 -Wrestrict false positive
  quoted += text;
  quoted += '\'';
  return quoted;
}

// "a, b, c" or "a, b, ... (N in all)"; "(none)" when empty.
std::string NameList(std::vector<std::string> names) {
  if (names.empty()) return "(none)";
  std::string text;
  for (size_t i = 0; i < names.size() && i < kListedNames; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > kListedNames) text += ", ... (" + std::to_string(names.size()) + " in all)";
  return text;
}

bool Named(const Trace& trace, StringId name, StringId alias, std::string_view wanted) {
  return trace.Str(name) == wanted || (alias != kEmptyString && trace.Str(alias) == wanted);
}

// The entity types whose name or alias is `wanted`.
std::vector<TypeId> MatchingTypes(const Trace& trace, std::string_view wanted) {
  std::vector<TypeId> found;
  for (size_t t = 0; t < trace.types().size(); ++t) {
    const Type& type = trace.types()[t];
    if (type.kind != TypeKind::kContainer && Named(trace, type.name, type.alias, wanted)) {
      found.push_back(static_cast<TypeId>(t));
    }
  }
  return found;
}

std::vector<std::string> EntityTypeNames(const Trace& trace, TypeId parent) {
  std::vector<std::string> names;
  for (const Type& type : trace.types()) {
    if (type.kind == TypeKind::kContainer || (parent != kNone && type.parent != parent)) continue;
    std::string name(trace.Str(type.name));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  return names;
}

struct Resolved {
  ContainerId container = kNone;
  TypeId type = kNone;
};

Resolved Resolve(const Trace& trace, const SeriesRequest& request) {
  const std::vector<TypeId> types = MatchingTypes(trace, request.type);
  if (types.empty()) {
    throw UserError("unknown type " + Quoted(request.type) +
                    "; entity types: " + NameList(EntityTypeNames(trace, kNone)));
  }
  std::vector<ContainerId> containers;
  for (size_t c = 1; c < trace.containers().size(); ++c) {
    const Container& container = trace.containers()[c];
    const auto id = static_cast<ContainerId>(c);
    if (Named(trace, container.name, container.alias, request.container) ||
        (request.container.find('/') != std::string::npos && trace.ContainerPath(id) == request.container)) {
      containers.push_back(id);
    }
  }
  if (containers.empty()) {
    // The containers that can hold entities of the named type.
    std::vector<std::string> names;
    for (size_t c = 1; c < trace.containers().size(); ++c) {
      const Container& container = trace.containers()[c];
      if (std::any_of(types.begin(), types.end(), [&](TypeId t) { return trace.type(t).parent == container.type; })) {
        names.push_back(trace.ContainerPath(static_cast<ContainerId>(c)));
      }
    }
    throw UserError("unknown container " + Quoted(request.container) + "; containers with " +
                    Quoted(request.type) + " entities: " + NameList(std::move(names)));
  }
  if (containers.size() > 1) {
    std::vector<std::string> paths;
    for (ContainerId c : containers) paths.push_back(trace.ContainerPath(c));
    throw UserError("container name " + Quoted(request.container) + " is ambiguous (" +
                    std::to_string(containers.size()) + " containers); give its path: " + NameList(std::move(paths)));
  }
  Resolved out;
  out.container = containers[0];
  const TypeId container_type = trace.container(out.container).type;
  for (TypeId t : types) {
    if (trace.type(t).parent != container_type) continue;
    if (out.type != kNone) {
      throw UserError("type " + Quoted(request.type) + " is ambiguous in container " +
                      Quoted(request.container) + " (a name and an alias); use the other spelling");
    }
    out.type = t;
  }
  if (out.type == kNone) {
    throw UserError("container " + Quoted(request.container) + " (type " +
                    Quoted(trace.Str(trace.type(container_type).name)) + ") has no type " + Quoted(request.type) +
                    "; its entity types: " + NameList(EntityTypeNames(trace, container_type)));
  }
  return out;
}

// An error in ticks, to two significant digits.
std::string TickError(double error) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", error);
  return text;
}

std::string KindName(TypeKind kind) { return std::string(TypeKindName(kind)); }

// a - b, or a UserError when it does not fit 64 bits.
int64_t Difference(int64_t a, int64_t b) {
  int64_t d;
  if (__builtin_sub_overflow(a, b, &d)) throw UserError("a time difference does not fit 64-bit ticks; use a coarser --unit");
  return d;
}

}  // namespace

bool IsSeriesName(std::string_view series) {
  return series == "start" || series == "end" || series == "duration" || series == "value" ||
         series == "interarrival";
}

bool IsTimeSeries(std::string_view series) { return series != "value"; }

void CheckSeriesRequest(const SeriesRequest& r) {
  if (!IsSeriesName(r.series)) {
    throw UserError("--series must be start, end, duration, value or interarrival, got " + Quoted(r.series));
  }
  if (!r.unit.empty() && !IsTimeSeries(r.series)) throw UserError("--unit applies to time series, not --series value");
  if (!r.unit.empty() && !FindTickUnit(r.unit)) throw UserError("--unit must be s, ms, us or ns, got " + Quoted(r.unit));
  if (r.scale_given && r.series != "value") throw UserError("--scale applies to --series value (of a variable)");
  if (r.scale_given && !(std::isfinite(r.scale) && r.scale != 0)) throw UserError("--scale must be finite and not 0");
}

TraceSeries ExtractSeries(const EntitySource& source, const std::string& file, const SeriesRequest& request) {
  CheckSeriesRequest(request);
  const Trace& trace = source.trace();
  const Resolved where = Resolve(trace, request);
  const Type& type = trace.type(where.type);
  const TypeKind kind = type.kind;
  const std::string& series = request.series;
  const std::string type_name(trace.Str(type.name));
  const std::string container_path = trace.ContainerPath(where.container);

  if (kind == TypeKind::kEvent && (series == "end" || series == "duration")) {
    throw UserError("--series " + series + ": " + Quoted(type_name) +
                    " is an event type, events have no end; use start, interarrival or value");
  }
  if (request.scale_given && !(series == "value" && kind == TypeKind::kVariable)) {
    throw UserError("--scale applies to --series value of a variable type; " + Quoted(type_name) + " is a " +
                    KindName(kind) + " type");
  }
  // The store's entities in its order, whatever order its chunks come in.
  const EntityStore* found = trace.FindStore(where.container, where.type);
  const auto k = found ? static_cast<uint32_t>(found - trace.stores().data()) : 0;
  const size_t n = found ? source.size(k) : 0;
  if (n == 0) throw UserError("container " + Quoted(container_path) + " has no " + Quoted(type_name) + " entities");
  if (series == "interarrival" && n < 2) {
    throw UserError("--series interarrival needs at least 2 entities; container " + Quoted(container_path) +
                    " has 1 " + Quoted(type_name) + " entity");
  }
  std::vector<double> start(n), end(series == "end" || series == "duration" ? n : 0);
  std::vector<StringId> value(series == "value" && kind != TypeKind::kVariable ? n : 0);
  std::vector<double> number(series == "value" && kind == TypeKind::kVariable ? n : 0);
  source.ForEachChunk(k, [&](const EntityChunk& c) {
    for (size_t i = 0; i < c.size(); ++i) {
      const size_t at = c.index + i;
      start[at] = c.start[i];
      if (!end.empty()) end[at] = c.End(i);
      if (!value.empty()) value[at] = c.Value(i);
      if (!number.empty()) number[at] = c.Number(i);
    }
  });

  // Entities by start time; ties keep the store's (completion) order.
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return start[a] < start[b]; });

  TraceSeries out;
  out.name = file + " (" + series + " of " + type_name + " in " + container_path + ")";
  out.header.push_back("series: " + series + " of " + KindName(kind) + " type " + Quoted(type_name) +
                       " in container " + Quoted(container_path) + " of " + file + ", " +
                       std::to_string(series == "interarrival" ? n - 1 : n) + " values, entities ordered by start time");
  nlohmann::ordered_json& d = out.description;
  d["trace"] = file;
  d["container"] = container_path;
  d["type"] = type_name;
  d["kind"] = KindName(kind);
  d["series"] = series;
  d["order"] = "start";

  if (IsTimeSeries(series)) {
    std::vector<double> starts, ends;
    const bool need_starts = series != "end";
    const bool need_ends = series == "end" || series == "duration";
    for (uint32_t i : order) {
      // In seconds: a Pajé trace's times as they are, a clock's ticks
      // (nanoseconds, an OTF2 timer's) divided by its rate.
      if (need_starts) starts.push_back(trace.time_base().Seconds(start[i]));
      if (need_ends) ends.push_back(trace.time_base().Seconds(end[i]));
    }
    std::vector<double> factors;
    for (const TickUnit& unit : TickUnits()) factors.push_back(unit.per_second);
    const TickUnit* unit = nullptr;
    if (!request.unit.empty()) {
      unit = FindTickUnit(request.unit);
      if (!unit) throw UserError("--unit must be s, ms, us or ns, got " + Quoted(request.unit));
    } else {
      std::vector<double> all = starts;
      all.insert(all.end(), ends.begin(), ends.end());
      const int best = CoarsestIntegralFactor(all, factors);
      unit = &TickUnits()[best < 0 ? TickUnits().size() - 1 : static_cast<size_t>(best)];
    }
    const ScaledSeries s = ScaleToIntegers(starts, unit->per_second, "time");
    const ScaledSeries e = ScaleToIntegers(ends, unit->per_second, "time");
    const size_t times = starts.size() + ends.size();
    const int64_t rounded = s.rounded + e.rounded;
    if (series == "start") out.values = s.values;
    if (series == "end") out.values = e.values;
    if (series == "duration") {
      for (size_t k = 0; k < n; ++k) out.values.push_back(Difference(e.values[k], s.values[k]));
    }
    if (series == "interarrival") {
      for (size_t k = 1; k < n; ++k) out.values.push_back(Difference(s.values[k], s.values[k - 1]));
    }
    std::string line = "unit: 1 tick = 1 " + std::string(unit->name) + " (" +
                       (request.unit.empty() ? "the coarsest unit giving integers" : "--unit") + "; ";
    if (rounded == 0) {
      line += "exact)";
    } else {
      line += std::to_string(rounded) + " of " + std::to_string(times) +
              " times rounded to the nearest tick, largest error " +
              TickError(std::max(s.max_error, e.max_error)) + " tick)";
    }
    out.header.push_back(line);
    d["unit"] = unit->name;
    out.unit = unit->name;
    d["unit_chosen"] = request.unit.empty() ? "auto" : "given";
    d["rounded"] = rounded;
    return out;
  }

  // --series value
  if (kind == TypeKind::kVariable) {
    std::vector<double> numbers;
    for (uint32_t i : order) numbers.push_back(number[i]);
    const ScaledSeries s = ScaleToIntegers(numbers, request.scale, "value");
    if (s.rounded > 0) {
      const double bad = numbers[static_cast<size_t>(s.first_rounded)];
      std::string message = Quoted(type_name) + " in " + Quoted(container_path) + ": value " +
                            FormatDouble(bad) + " at time " +
                            FormatDouble(trace.time_base().Seconds(start[order[static_cast<size_t>(s.first_rounded)]]));
      if (request.scale_given) message += " times --scale " + FormatDouble(request.scale);
      message += " is not an integer (" + std::to_string(s.rounded) + " of " + std::to_string(n) + " values are not)";
      // Suggest the smallest power of ten that would do.
      std::vector<double> factors;
      for (double f = 10; f <= 1e9; f *= 10) factors.push_back(request.scale * f);
      const int k = CoarsestIntegralFactor(numbers, factors);
      message += k >= 0 ? "; --scale " + FormatDouble(factors[static_cast<size_t>(k)]) + " makes them integers"
                        : "; give --scale to make them integers";
      throw UserError(message);
    }
    out.values = s.values;
    out.header.push_back(request.scale_given ? "values: variable values times " + FormatDouble(request.scale) +
                                                   " (--scale)"
                                             : "values: variable values");
    d["scale"] = request.scale;
    return out;
  }
  // States, events, links: a code per distinct value, by first appearance.
  std::unordered_map<StringId, int64_t> codes;
  std::vector<std::string> table;
  for (uint32_t i : order) {
    const StringId code = value[i];
    auto [it, added] = codes.try_emplace(code, static_cast<int64_t>(table.size()));
    if (added) table.emplace_back(trace.Str(code));
    out.values.push_back(it->second);
  }
  out.header.push_back("values: " + std::to_string(table.size()) + (table.size() == 1 ? " code" : " codes") +
                       ", in order of first appearance:");
  for (size_t c = 0; c < table.size(); ++c) {
    out.header.push_back("  " + std::to_string(c) + " = " + nlohmann::json(table[c]).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  d["codes"] = table;
  return out;
}

}  // namespace macroscope::loops
