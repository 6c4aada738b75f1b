#include "formats/paje/generator.h"

#include <cerrno>
#include <cstring>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "util/atomic_file.h"
#include "util/error.h"

namespace macroscope::paje {

namespace {

constexpr const char* kHeader = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEventType 2
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineVariableType 3
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeDefineLinkType 4
% Alias string
% Type string
% StartContainerType string
% EndContainerType string
% Name string
%EndEventDef
%EventDef PajeDefineEntityValue 5
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeCreateContainer 6
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeDestroyContainer 7
% Time date
% Type string
% Name string
%EndEventDef
%EventDef PajeSetState 10
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePushState 11
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePopState 12
% Time date
% Container string
% Type string
%EndEventDef
%EventDef PajeNewEvent 13
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajeSetVariable 14
% Time date
% Container string
% Type string
% Value double
%EndEventDef
%EventDef PajeStartLink 15
% Time date
% Container string
% Type string
% StartContainer string
% Value string
% Key string
%EndEventDef
%EventDef PajeEndLink 16
% Time date
% Container string
% Type string
% EndContainer string
% Value string
% Key string
%EndEventDef
)";

class Output {
 public:
  explicit Output(std::FILE* f) : f_(f) { buf_.reserve(kFlushAt + 256); }
  void Put(const char* s) { buf_.append(s); }
  void Put(const std::string& s) { buf_.append(s); }
  void Piece(std::string_view s) { buf_.append(s); }
  void Piece(const std::string& s) { buf_.append(s); }
  void Piece(const char* s) { buf_.append(s); }
  void Piece(int v) { Num(static_cast<uint64_t>(v)); }
  void Piece(uint64_t v) { Num(v); }
  void Num(uint64_t v) {
    char tmp[24];
    int n = std::snprintf(tmp, sizeof tmp, "%llu", static_cast<unsigned long long>(v));
    buf_.append(tmp, n);
  }
  // Appends each piece (text or unsigned number), then ends the line.
  template <class... Pieces>
  void Line(const Pieces&... pieces) {
    (Piece(pieces), ...);
    EndLine();
  }
  void EndLine() {
    buf_.push_back('\n');
    if (buf_.size() >= kFlushAt) Flush();
  }
  void Flush() {
    if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size())
      throw UserError(std::string("cannot write the trace: ") + std::strerror(errno));
    buf_.clear();
  }

 private:
  static constexpr size_t kFlushAt = 1 << 20;
  std::FILE* f_;
  std::string buf_;
};

}  // namespace

uint64_t GeneratePaje(const GeneratorOptions& o, std::FILE* f) {
  if (o.depth < 1 || o.depth > 8) throw UserError("--depth must be in 1..8");
  if (o.arity < 1 || o.arity > 1000) throw UserError("--arity must be in 1..1000");
  if (o.values < 1) throw UserError("--values must be at least 1");
  if (o.nesting < 1 || o.nesting > 8) throw UserError("--nesting must be in 1..8");
  Output out(f);
  out.Put(kHeader);
  // Types: L1 under the root, L2 under L1, ...; entity types on the leaf type.
  for (int d = 1; d <= o.depth; ++d) {
    if (d == 1) out.Line("0 L1 0 \"Level 1\"");
    else out.Line("0 L", d, " L", d - 1, " \"Level ", d, "\"");
  }
  const int leaf = o.depth;
  out.Line("1 S L", leaf, " \"State\"");
  if (o.nested) out.Line("1 N L", leaf, " \"Nested\"");
  if (o.punctual) out.Line("2 E L", leaf, " \"Event\"");
  if (o.variables) out.Line("3 V L", leaf, " \"Load\" \"0 0 1\"");
  if (o.links) out.Line("4 K L1 L", leaf, " L", leaf, " \"Message\"");
  for (int v = 0; v < o.values; ++v) out.Line("5 v", v, " S \"value ", v, "\" \"0.", v * 37 % 10, " 0.5 0.5\"");
  // Inner levels: state type S<d> (same value names) and variable type V<d>.
  for (int d = 1; o.inner && d < o.depth; ++d) {
    out.Line("1 S", d, " L", d, " \"State ", d, "\"");
    if (o.variables) out.Line("3 V", d, " L", d, " \"Load ", d, "\" \"0 0 1\"");
    for (int v = 0; v < o.values; ++v)
      out.Line("5 v", v, " S", d, " \"value ", v, "\" \"0.", v * 37 % 10, " 0.5 0.5\"");
  }
  // Containers, breadth first; names are paths of child numbers.
  std::vector<std::string> level{""};
  std::vector<std::string> top_of_leaf;  // level-1 ancestor of each leaf
  std::vector<std::pair<std::string, int>> inner;  // inner emitters: name, level
  for (int d = 1; d <= o.depth; ++d) {
    std::vector<std::string> next;
    for (const auto& parent : level) {
      for (int a = 0; a < o.arity; ++a) {
        std::string name = parent.empty() ? std::string("c") : parent;
        name.append(parent.empty() ? "" : ".").append(std::to_string(a));
        out.Line("6 0 ", name, " L", d, " ", parent.empty() ? std::string("0") : parent, " ", name);
        if (o.inner && d < o.depth) inner.emplace_back(name, d);
        next.push_back(std::move(name));
      }
    }
    level = std::move(next);
  }
  const std::vector<std::string>& leaves = level;
  for (const auto& leaf : leaves) top_of_leaf.push_back(leaf.substr(0, leaf.find('.')));

  // Each emitter (the leaves, then the inner containers) has a next-change
  // time; a min-heap keeps lines in time order.
  std::mt19937_64 rng(o.seed);
  std::uniform_int_distribution<int> duration(1, 100);
  std::uniform_int_distribution<int> value(0, o.values - 1);
  std::uniform_int_distribution<size_t> any_leaf(0, leaves.size() - 1);
  using Next = std::pair<uint64_t, uint32_t>;  // (time, emitter)
  std::priority_queue<Next, std::vector<Next>, std::greater<>> heap;
  for (uint32_t i = 0; i < leaves.size() + inner.size(); ++i) heap.push({0, i});
  uint64_t written = 0, link_key = 0;
  uint64_t latest = 0;  // the latest time written (pushes run ahead of the heap's time)
  std::vector<uint8_t> pushed(leaves.size(), 0);
  while (written < o.events) {
    const uint64_t t = heap.top().first;
    const uint32_t leaf = heap.top().second;
    heap.pop();
    if (leaf >= leaves.size()) {  // an inner container: a state, and its variable
      const auto& [name, d] = inner[leaf - leaves.size()];
      out.Line("10 ", t, " ", name, " S", d, " v", static_cast<uint64_t>(value(rng)));
      ++written;
      if (o.variables) {
        out.Line("14 ", t, " ", name, " V", d, " ", rng() % 1000);
        ++written;
      }
      heap.push({t + static_cast<uint64_t>(duration(rng)), leaf});
      continue;
    }
    const std::string& name = leaves[leaf];
    auto line = [&](const char* id) {
      out.Put(id);
      out.Put(" ");
      out.Num(t);
      out.Put(" ");
      out.Put(name);
    };
    for (; pushed[leaf] > 0; --pushed[leaf]) {
      line("12");
      out.Put(" N");
      out.EndLine();
      ++written;
    }
    line("10");
    out.Put(" S v");
    out.Num(static_cast<uint64_t>(value(rng)));
    out.EndLine();
    ++written;
    int d = duration(rng);
    if (o.nested && d > 2 && rng() % 4 == 0) {
      out.Line("11 ", t + 1, " ", name, " N v", static_cast<uint64_t>(value(rng)));
      pushed[leaf] = 1;
      ++written;
      // Deeper pushes, one instant apart, all popped at the next change.
      for (int k = 2; k <= o.nesting && d > k + 1 && rng() % 2 == 0; ++k) {
        out.Line("11 ", t + static_cast<uint64_t>(k), " ", name, " N v", static_cast<uint64_t>(value(rng)));
        pushed[leaf] = static_cast<uint8_t>(k);
        ++written;
      }
    }
    if (o.punctual && rng() % 4 == 0) {
      line("13");
      out.Put(" E tick");
      out.EndLine();
      ++written;
    }
    if (o.variables) {
      line("14");
      out.Put(" V ");
      out.Num(rng() % 1000);
      out.EndLine();
      ++written;
    }
    if (o.links && rng() % 8 == 0) {
      size_t peer = any_leaf(rng);
      if (top_of_leaf[peer] == top_of_leaf[leaf]) {
        // A message inside the level-1 container common to both leaves,
        // sent and received at this instant so time order holds.
        std::string key = std::to_string(link_key++);
        const std::string& top = top_of_leaf[leaf];
        out.Line("15 ", t, " ", top, " K ", name, " msg ", key);
        out.Line("16 ", t, " ", top, " K ", leaves[peer], " msg ", key);
        written += 2;
      }
    }
    heap.push({t + static_cast<uint64_t>(d), leaf});
    latest = std::max(latest, t + pushed[leaf]);
  }
  // The states pushed ahead of the last instant end with the trace, at the
  // latest time written: the trace's end is never before their start.
  for (uint32_t leaf = 0; leaf < leaves.size(); ++leaf)
    for (; pushed[leaf] > 0; --pushed[leaf]) out.Line("12 ", latest, " ", leaves[leaf], " N");
  out.Flush();
  return written;
}

std::string GeneratePajeFile(const GeneratorOptions& options, const std::string& path) {
  AtomicFile file(path);
  GeneratePaje(options, file.stream());
  file.Commit();
  return path;
}

}  // namespace macroscope::paje
