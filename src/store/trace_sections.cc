#include "store/trace_sections.h"

namespace macroscope::store {

std::vector<std::vector<uint8_t>> EncodeTraceSections(const Trace& trace, const StoreStats& stats) {
  std::vector<std::vector<uint8_t>> sections(kStores);
  const StringPool& pool = trace.strings();
  {
    Out lengths;
    std::vector<uint8_t> bytes;
    for (size_t i = 1; i < pool.size(); ++i) {
      std::string_view s = pool.View(static_cast<StringId>(i));
      bytes.insert(bytes.end(), s.begin(), s.end());
      lengths.U(s.size());
    }
    sections[kStringBytes] = std::move(bytes);
    sections[kStringLengths] = std::move(lengths.bytes);
  }
  {
    Out m;
    m.U(stats.events);
    m.U(stats.bytes);
    m.D(trace.start_time());
    m.D(trace.end_time());
    m.U(pool.size());
    m.U(sections[kStringBytes].size());
    m.U(trace.types().size());
    m.U(trace.values().size());
    m.U(trace.containers().size());
    m.U(trace.stores().size());
    // Since version 2: the time base (model/time_base.h).
    const TimeBase& tb = trace.time_base();
    m.U(tb.num); m.U(tb.den); m.U(tb.whole_ticks ? 1 : 0); m.S(tb.origin);
    m.U(tb.epoch_ns ? 1 : 0); m.S(tb.epoch_ns.value_or(0));
    sections[kMeta] = std::move(m.bytes);
  }
  {
    Out o;
    for (const Type& t : trace.types()) {
      o.U(t.name); o.U(t.alias); o.U(static_cast<uint8_t>(t.kind));
      o.Id(t.parent); o.Id(t.start_type); o.Id(t.end_type); o.U(t.color);
      o.U(t.children.size());
      for (TypeId c : t.children) o.U(c);
    }
    sections[kTypes] = std::move(o.bytes);
  }
  {
    Out o;
    for (const EntityValue& v : trace.values()) { o.Id(v.type); o.U(v.name); o.U(v.alias); o.U(v.color); }
    sections[kValues] = std::move(o.bytes);
  }
  {
    Out o;
    for (const Container& c : trace.containers()) {
      o.U(c.name); o.U(c.alias); o.Id(c.type); o.Id(c.parent);
      o.D(c.start); o.D(c.end); o.U(c.destroyed ? 1 : 0);
      o.U(c.children.size());
      for (ContainerId k : c.children) o.U(k);
      o.U(c.stores.size());
      for (auto [t, i] : c.stores) { o.U(t); o.U(i); }
      o.U(c.extras.size());
      for (const ExtraField& f : c.extras) { o.U(f.name); o.U(f.value); }
    }
    sections[kContainers] = std::move(o.bytes);
  }
  return sections;
}

StoreMeta ReadTraceSections(const StoreFile& file, Trace& trace) {
  auto raw = [&](uint32_t id) { return file.section(id).raw; };
  StoreMeta meta;
  {
    In in = file.OpenSection(kMeta, "meta");
    meta.stats.events = in.U();
    meta.stats.bytes = in.U();
    double start = in.D(), end = in.D();
    trace.SetTimeSpan(start, end);
    meta.strings = in.U();
    meta.string_bytes = in.U();
    meta.types = in.U();
    meta.values = in.U();
    meta.containers = in.U();
    meta.stores = in.U();
    if (file.version() >= 2) {
      TimeBase tb;
      tb.num = in.U();
      tb.den = in.U();
      tb.whole_ticks = in.U() != 0;
      tb.origin = in.S();
      const bool epoch = in.U() != 0;
      const int64_t epoch_ns = in.S();
      if (epoch) tb.epoch_ns = epoch_ns;
      if (tb.num == 0 || tb.den == 0) in.Fail();
      trace.SetTimeBase(tb);
    }
    if (meta.strings < 2 || meta.strings > UINT32_MAX || meta.types < 1 || meta.types > UINT32_MAX ||
        meta.containers < 1 || meta.containers > UINT32_MAX || meta.stores > UINT32_MAX || meta.values > UINT32_MAX)
      in.Fail();
    // Every element takes at least one byte of its section: bounds the sizes.
    if (meta.types > raw(kTypes) || meta.values > raw(kValues) || meta.containers > raw(kContainers) ||
        meta.stores > raw(kStores) || meta.strings - 1 > raw(kStringLengths) || meta.string_bytes != raw(kStringBytes))
      in.Fail();
  }
  const uint64_t n_strings = meta.strings, n_types = meta.types, n_containers = meta.containers;
  {
    In in = file.OpenSection(kTypes, "types");
    for (uint64_t i = 0; i < n_types; ++i) {
      Type t;
      t.name = in.Below(n_strings);
      t.alias = in.Below(n_strings);
      uint8_t kind = static_cast<uint8_t>(in.Below(5));
      t.kind = static_cast<TypeKind>(kind);
      t.parent = in.IdBelow(n_types);
      t.start_type = in.IdBelow(n_types);
      t.end_type = in.IdBelow(n_types);
      t.color = in.Below(n_strings);
      uint64_t children = in.Below(n_types + 1);
      for (uint64_t c = 0; c < children; ++c) t.children.push_back(in.Below(n_types));
      if (i == 0) trace.type(0) = std::move(t);
      else trace.AppendType(std::move(t));
    }
    in.ExpectDone();
  }
  {
    In in = file.OpenSection(kValues, "values");
    for (uint64_t i = 0; i < meta.values; ++i) {
      TypeId type = in.IdBelow(n_types);
      StringId name = in.Below(n_strings), alias = in.Below(n_strings), color = in.Below(n_strings);
      trace.AddValue(type, name, alias, color);
    }
    in.ExpectDone();
  }
  {
    In in = file.OpenSection(kContainers, "containers");
    for (uint64_t i = 0; i < n_containers; ++i) {
      Container c;
      c.name = in.Below(n_strings);
      c.alias = in.Below(n_strings);
      c.type = in.IdBelow(n_types);
      c.parent = in.IdBelow(n_containers);
      c.start = in.D();
      c.end = in.D();
      c.destroyed = in.Below(2) != 0;
      uint64_t children = in.Below(n_containers + 1);
      for (uint64_t k = 0; k < children; ++k) c.children.push_back(in.Below(n_containers));
      uint64_t stores = in.Below(meta.stores + 1);
      for (uint64_t k = 0; k < stores; ++k) {
        TypeId t = in.Below(n_types);
        c.stores.emplace_back(t, in.Below(meta.stores));
      }
      uint64_t extras = in.Below(raw(kContainers) + 1);
      for (uint64_t k = 0; k < extras; ++k) {
        StringId name = in.Below(n_strings);
        c.extras.push_back({name, in.Below(n_strings)});
      }
      if (i == 0) trace.container(0) = std::move(c);
      else trace.AppendContainer(std::move(c));
    }
    in.ExpectDone();
  }
  return meta;
}

void ReadStrings(const StoreFile& file, const StoreMeta& meta, Trace& trace) {
  In bytes = file.OpenSection(kStringBytes, "string bytes");
  In lengths = file.OpenSection(kStringLengths, "string lengths");
  StringPool& pool = trace.strings();
  std::string spill;  // a string longer than a decompressed block
  uint64_t left = meta.string_bytes;
  for (uint64_t i = 1; i < meta.strings; ++i) {
    uint64_t n = lengths.U();
    if (n > left) lengths.Fail();
    left -= n;
    std::string_view s = bytes.Bytes(n, spill);
    if (i < pool.size()) {  // "0", interned by the Trace constructor
      if (pool.View(static_cast<StringId>(i)) != s) lengths.Fail();
    } else {
      pool.AddUnindexed(s);  // distinct as written: not looked up (string_pool.h)
    }
  }
  lengths.ExpectDone();
  bytes.ExpectDone();
}

}  // namespace macroscope::store
