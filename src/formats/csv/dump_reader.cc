#include "formats/csv/dump_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <queue>
#include <unordered_set>

#include "formats/csv/table.h"
#include "model/time_base.h"
#include "util/error.h"

namespace macroscope::csv {

namespace {

// Columns of each kind of line, as pj_dump writes them without -u.
constexpr size_t kContainerColumns = 7, kStateColumns = 8, kEventColumns = 5, kVariableColumns = 7,
                 kLinkColumns = 10;

// pj_dump's container times: ostream's default, %g with 6 significant digits.
std::string General(double v) {
  char text[64];
  auto r = std::to_chars(text, text + sizeof text, v, std::chars_format::general, 6);
  return std::string(text, r.ptr);
}

class DumpParser {
 public:
  DumpParser(Trace& trace, size_t memory) : table_(trace, true, memory) {}
  // `mapped`: the file `text` is mapped from (table.h's ForEachLine); the
  // table keeps nothing that points into the text.
  void AddFile(std::string_view text, const std::string& name, const MappedFile* mapped);
  void Build(const paje::SimulatorOptions& options);
  uint64_t lines() const { return lines_; }

 private:
  void Line(std::string_view line);
  void ContainerLine();
  void EntityLine(TypeKind kind, size_t columns);
  double Time(std::string_view text);
  // The trace end: the latest entity time (container times are rounded).
  void Last(double t) {
    if (!any_time_ || t > last_) last_ = t;
    any_time_ = true;
  }
  uint32_t Container(std::string_view name);
  uint32_t LinkEnd(std::string_view name);
  void ResolveLinks();
  void Rank();
  [[noreturn]] void Fail(std::string_view message) const { table_.Fail(at_, message); }

  Table table_;
  Source at_;
  std::vector<std::string_view> f_;
  uint64_t lines_ = 0;
  // The clock: unknown until the root container's line; then either
  // pj_dump's seconds (doubles) or exact ticks of the printed decimals.
  bool clock_known_ = false, whole_ticks_ = false;
  TimeBase base_;
  std::string root_name_ = "0";
  double last_ = 0, root_end_ = 0;
  std::string root_end_text_;
  bool any_time_ = false;
  std::vector<std::string> end_texts_;  // per container: its End column
  std::vector<double> last_end_;        // per container: its entities' latest end (-1: none)
  // Links' ends are named by containers that the lines after them may
  // define: each name gets a number, resolved once all lines are read
  // (Table::link_containers), reported at its first use when unknown.
  std::unordered_map<std::string, uint32_t> link_end_index_;
  std::vector<std::string> link_ends_;
  std::vector<Source> link_end_sources_;
  // A link type's ends are the container types of its first link not
  // from the root to the root (known once the root's name is: the links
  // before the root's line are all kept).
  struct LinkEnds {
    uint32_t type, start, end;
  };
  std::unordered_map<uint32_t, LinkEnds> first_link_;
  std::vector<LinkEnds> early_links_;
  // Rank()'s "type a before type b" pairs from each container's entity
  // types in line order (the last per container, root at 0, others at c+1).
  std::vector<uint32_t> last_entity_type_;
  std::vector<std::pair<uint32_t, uint32_t>> type_order_;
  std::unordered_set<uint64_t> type_order_seen_;
};

void DumpParser::AddFile(std::string_view text, const std::string& name, const MappedFile* mapped) {
  at_ = {static_cast<uint32_t>(table_.files.size()), 0};
  table_.files.push_back(name);
  ForEachLine(text, mapped, [&](std::string_view line) {
    ++at_.line;
    Line(line);
  });
}

void DumpParser::Line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) return;
  ++lines_;
  SplitFields(line, f_);
  const std::string_view kind = f_[0];
  // -h: one column-name line per kind.
  if (f_.size() > 1 && (f_[1] == "Parent" || (kind != "Container" && f_[1] == "Container"))) return;
  if (kind == "Container") return ContainerLine();
  if (kind == "State") return EntityLine(TypeKind::kState, kStateColumns);
  if (kind == "Event") return EntityLine(TypeKind::kEvent, kEventColumns);
  if (kind == "Variable") return EntityLine(TypeKind::kVariable, kVariableColumns);
  if (kind == "Link") return EntityLine(TypeKind::kLink, kLinkColumns);
  Fail("unknown kind of line '" + std::string(kind) + "' (Container, State, Event, Variable or Link)");
}

double DumpParser::Time(std::string_view text) {
  double t = 0;
  if (whole_ticks_) {
    int64_t ticks = 0;
    if (!ParseClockTicks(base_, text, ticks)) table_.FailTime(at_, text);
    t = table_.FromOrigin(ticks, base_.origin, at_);
  } else {
    // pj_dump's seconds as its doubles: a number, finite ("inf" and "nan"
    // are no time), below 2^53 s, as the whole-tick times.
    auto r = std::from_chars(text.data(), text.data() + text.size(), t);
    if (r.ec == std::errc::result_out_of_range || (r.ec == std::errc() && !std::isfinite(t)))
      Fail("a time '" + std::string(text) + "' that is not a finite double");
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || text.empty())
      Fail("bad number '" + std::string(text) + "'");
    if (std::fabs(t) >= kMaxWholeTicks)
      Fail("a time '" + std::string(text) + "', 2^53 s or more from 0, which macroscope cannot hold exactly");
  }
  return t;
}

void DumpParser::ContainerLine() {
  if (f_.size() != kContainerColumns)
    Fail("a Container line has " + std::to_string(kContainerColumns) + " columns, this one " +
         std::to_string(f_.size()) + " (user fields, -u, are not read back)");
  const std::string_view parent = f_[1], type = f_[2], start = f_[3], end = f_[4], name = f_[6];
  if (!clock_known_) {
    // The root container comes first: its start says how times are printed.
    clock_known_ = true;
    size_t point = start.find('.');
    if (point != std::string_view::npos) {
      const size_t decimals = start.size() - point - 1;
      if (decimals > 12) Fail("times with more than 12 decimals");
      whole_ticks_ = true;
      base_.den = 1;
      for (size_t i = 0; i < decimals; ++i) base_.den *= 10;
      base_.whole_ticks = true;
      int64_t origin = 0;
      if (!ParseClockTicks(base_, start, origin)) table_.FailTime(at_, start);
      base_.origin = origin;
    }
    if (parent == name) {  // the root: "Container, 0, 0, 0, END, END, 0"
      root_name_ = std::string(name);
      root_end_ = Time(end);
      root_end_text_ = std::string(end);
      if (whole_ticks_) Last(root_end_);  // exact: the trace end
      return;
    }
  }
  const uint32_t p = parent == root_name_ ? kNone : Container(parent);
  const uint32_t parent_type = p == kNone ? kNone : table_.containers[p].type;
  TableContainer c{.name = std::string(name), .type = table_.TypeNamed(type, TypeKind::kContainer, parent_type, at_),
                   .parent = p, .start = Time(start), .end = Time(end), .rank = kNone, .source = at_};
  if (c.end < c.start) Fail("end before start");
  end_texts_.emplace_back(end);
  last_end_.push_back(-1);
  table_.AddContainer(std::move(c));
}

uint32_t DumpParser::Container(std::string_view name) {
  if (name == root_name_) return kNone;
  uint32_t c = table_.ContainerNamed(name);
  if (c == kNone) Fail("unknown container '" + std::string(name) + "'");
  return c;
}

uint32_t DumpParser::LinkEnd(std::string_view name) {
  auto [it, added] = link_end_index_.try_emplace(std::string(name), static_cast<uint32_t>(link_ends_.size()));
  if (added) {
    link_ends_.emplace_back(name);
    link_end_sources_.push_back(at_);
  }
  return it->second;
}

void DumpParser::EntityLine(TypeKind kind, size_t columns) {
  if (f_.size() != columns)
    Fail(std::string(kind == TypeKind::kEvent ? "an " : "a ") + std::string(f_[0]) + " line has " + std::to_string(columns) + " columns, this one " +
         std::to_string(f_.size()) + " (user fields, -u, are not read back)");
  TableEntity e{.kind = kind, .container = Container(f_[1]), .source = at_};
  const uint32_t container_type = e.container == kNone ? kNone : table_.containers[e.container].type;
  e.type = table_.TypeNamed(f_[2], kind, container_type, at_);
  e.start = e.end = Time(f_[3]);
  if (kind != TypeKind::kEvent) {
    e.end = Time(f_[4]);
    // pj_dump prints states ending before they start (a pop older than its push).
    if (e.end < e.start && kind != TypeKind::kState) Fail("end before start");
  }
  Last(e.start);
  Last(e.end);
  auto number = [&](std::string_view text) {
    double v = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || text.empty())
      Fail("bad number '" + std::string(text) + "'");
    return v;
  };
  switch (kind) {
    case TypeKind::kState: {
      const double level = number(f_[6]);
      if (level < 0 || level > 65535 || level != static_cast<double>(static_cast<uint32_t>(level)))
        Fail("bad imbrication '" + std::string(f_[6]) + "'");
      e.level = static_cast<uint32_t>(level);
      e.value = table_.Intern(f_[7]);
      break;
    }
    case TypeKind::kEvent: e.value = table_.Intern(f_[4]); break;
    case TypeKind::kVariable: e.number = number(f_[6]); break;
    case TypeKind::kLink: {
      e.value = table_.Intern(f_[6]);
      e.key = table_.Intern(f_[9]);
      e.start_container = LinkEnd(f_[7]);
      e.end_container = LinkEnd(f_[8]);
      const LinkEnds ends{e.type, e.start_container, e.end_container};
      if (!clock_known_)
        early_links_.push_back(ends);
      else if (f_[7] != root_name_ || f_[8] != root_name_)
        first_link_.try_emplace(e.type, ends);
      break;
    }
    case TypeKind::kContainer: break;
  }
  if (e.container != kNone) last_end_[e.container] = std::max(last_end_[e.container], e.end);
  const size_t slot = e.container == kNone ? 0 : e.container + 1;
  if (last_entity_type_.size() <= slot) last_entity_type_.resize(slot + 1, kNone);
  uint32_t& last = last_entity_type_[slot];
  if (last != kNone && last != e.type && type_order_seen_.insert((uint64_t{last} << 32) | e.type).second)
    type_order_.emplace_back(last, e.type);
  last = e.type;
  table_.AddEntity(e);
}

// The dump lists a container's types in identifier order and its
// children in reverse identifier order (pj_dump's walk), but prints
// names only. Where names sort otherwise (the trace had aliases), the
// rebuilt types and containers get aliases that sort like the lines came.
void DumpParser::Rank() {
  auto& types = table_.types;
  auto& containers = table_.containers;
  // Types: "a before b" from each container's entity types in line order
  // and its children's container types in reverse line order.
  std::vector<std::vector<uint32_t>> after(types.size());
  std::vector<uint32_t> before_count(types.size(), 0);
  auto precede = [&](uint32_t a, uint32_t b) {
    if (a == b) return;
    after[a].push_back(b);
    ++before_count[b];
  };
  for (auto [a, b] : type_order_) precede(a, b);
  std::vector<uint32_t> last_child_type(containers.size() + 1, kNone);
  auto slot = [&](uint32_t c) { return c == kNone ? containers.size() : c; };
  for (const TableContainer& c : containers) {
    uint32_t& last = last_child_type[slot(c.parent)];
    if (last != c.type && last != kNone) precede(c.type, last);
    last = c.type;
  }
  bool names_agree = true;
  for (uint32_t a = 0; a < types.size(); ++a)
    for (uint32_t b : after[a]) names_agree = names_agree && types[a].name < types[b].name;
  if (!names_agree) {
    // Kahn's order, ties by first appearance; a cycle (lines not in
    // pj_dump's order) leaves the names alone.
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t t = 0; t < types.size(); ++t)
      if (before_count[t] == 0) ready.push(t);
    std::vector<uint32_t> order;
    while (!ready.empty()) {
      uint32_t t = ready.top();
      ready.pop();
      order.push_back(t);
      for (uint32_t b : after[t])
        if (--before_count[b] == 0) ready.push(b);
    }
    if (order.size() == types.size())
      for (uint32_t r = 0; r < order.size(); ++r) types[order[r]].rank = r;
  }
  // Containers: siblings of one type come in reverse identifier order.
  std::unordered_map<uint64_t, uint32_t> last_sibling;
  bool reversed = true;
  for (uint32_t i = 0; i < containers.size(); ++i) {
    const uint64_t group = (static_cast<uint64_t>(containers[i].parent) << 32) | containers[i].type;
    auto [it, added] = last_sibling.try_emplace(group, i);
    if (!added && !(containers[i].name < containers[it->second].name)) reversed = false;
    it->second = i;
  }
  if (!reversed)
    for (uint32_t i = 0; i < containers.size(); ++i)
      containers[i].rank = static_cast<uint32_t>(containers.size() - i);
}

// The containers links name, in the order the lines first name them (the
// first unknown one is refused at that line); then each link type's ends.
void DumpParser::ResolveLinks() {
  for (uint32_t i = 0; i < link_ends_.size(); ++i) {
    at_ = link_end_sources_[i];
    table_.link_containers.push_back(Container(link_ends_[i]));
  }
  auto type_of = [&](uint32_t end) {
    const uint32_t c = table_.link_containers[end];
    return c == kNone ? kNone : table_.containers[c].type;
  };
  auto take = [&](const LinkEnds& link) {
    TableType& type = table_.types[link.type];
    if (type.start_type == kNone && type.end_type == kNone) {
      type.start_type = type_of(link.start);
      type.end_type = type_of(link.end);
    }
  };
  for (const LinkEnds& link : early_links_) take(link);
  for (const auto& [type, link] : first_link_) take(link);
}

void DumpParser::Build(const paje::SimulatorOptions& options) {
  Trace& trace = table_.trace();
  trace.SetTimeBase(base_);
  // pj_dump's seconds: the root's End, to 6 digits, tells the trace end
  // from an entity that pj_dump printed past it.
  if (!any_time_ || (!whole_ticks_ && !root_end_text_.empty() && General(last_) != root_end_text_)) last_ = root_end_;
  ResolveLinks();
  // A container's End is its destruction, or the trace end when it lived
  // to it. pj_dump prints it with 6 significant digits: the exact time is
  // that of its last entity when it prints the same.
  for (uint32_t i = 0; i < table_.containers.size(); ++i) {
    TableContainer& c = table_.containers[i];
    if (whole_ticks_) {
      if (c.end == last_) c.end = -1;
    } else if (end_texts_[i] == General(last_)) {
      c.end = -1;
    } else if (last_end_[i] >= 0 && General(last_end_[i]) == end_texts_[i]) {
      c.end = last_end_[i];
    }
  }
  Rank();
  Simulate(table_, last_, options);
}

}  // namespace

ReadCounts ReadDumpText(std::string_view text, const std::string& name, Trace& trace,
                        const paje::SimulatorOptions& options, size_t memory) {
  DumpParser parser(trace, memory);
  parser.AddFile(text, name, nullptr);
  parser.Build(options);
  return {parser.lines(), text.size()};
}

ReadCounts ReadDump(const std::vector<std::string>& files, Trace& trace, const paje::SimulatorOptions& options,
                    size_t memory) {
  DumpParser parser(trace, memory);
  std::vector<std::unique_ptr<MappedFile>> mapped;
  ReadCounts counts;
  counts.bytes = MapFiles(files, mapped, [&](std::string_view text, const std::string& name, const MappedFile* map) {
    parser.AddFile(text, name, map);
  });
  mapped.clear();  // the table holds copies of what it needs of the text
  parser.Build(options);
  counts.lines = parser.lines();
  return counts;
}

bool LooksLikeDump(std::string_view head) { return head.starts_with("Container, "); }

}  // namespace macroscope::csv
