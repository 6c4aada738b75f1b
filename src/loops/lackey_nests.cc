#include "loops/lackey_nests.h"

#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "loops/expression.h"

namespace macroscope::loops {

namespace {

// The count of a loop inside `depth` others: a number, or an affine
// expression of the enclosing indices t1..t<depth>, as the report names them.
std::string Count(const Node& loop, int width, int depth) {
  if (loop.count_coefs.empty()) return std::to_string(loop.count);
  std::vector<std::string> vars;
  for (int d = 1; d <= depth; ++d) vars.push_back("t" + std::to_string(d));
  const std::string count = FactorPolynomial(ConstantCoefficients(loop.count_coefs.data(), width), vars);
  return count.find(' ') == std::string::npos ? count : "(" + count + ")";
}

// A node of a sequence of width `width` inside `depth` loops, as loop counts.
std::string Part(const Node& node, int width, int depth) {
  switch (node.kind) {
    case NodeKind::kLiteral:
      return std::to_string(NodeLength(node, width));
    case NodeKind::kRecurrence:
      return "recurrence";
    case NodeKind::kLoop:
      break;
  }
  std::string body;
  for (const Node& part : node.body) body += (body.empty() ? "" : " + ") + Part(part, 2 * width, depth + 1);
  if (node.body.size() > 1) body = "(" + body + ")";
  std::string text = Count(node, width, depth) + " x ";
  if (node.period_step != 0) {
    // Interval t runs over the first period + period_step * t elements of the body.
    text += "(" + body + ", intervals of " + std::to_string(node.period) + (node.period_step > 0 ? " + " : " - ") +
            std::to_string(std::llabs(node.period_step)) + "*t)";
  } else {
    text += body;
  }
  if (node.gap != 0 || node.gap_step != 0) text += " + gaps";
  return text;
}

struct Place {
  std::string name;
  int64_t loads = 0, stores = 0, modifies = 0;
};

std::string Counted(const Place& place) {
  std::string counts;
  const auto add = [&](const char* what, int64_t n) {
    if (n > 0) counts += (counts.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(n);
  };
  add("loads", place.loads);
  add("stores", place.stores);
  add("modifies", place.modifies);
  return place.name + " (" + counts + ")";
}

}  // namespace

std::string PhaseShape(const Node& phase) {
  switch (phase.kind) {
    case NodeKind::kLiteral: {
      const int64_t n = NodeLength(phase, 1);
      return std::to_string(n) + (n == 1 ? " listed value" : " listed values");
    }
    case NodeKind::kRecurrence:
      return "recurrence of order " + std::to_string(phase.order) + ", period " + std::to_string(phase.rec_period);
    case NodeKind::kLoop:
      break;
  }
  return "for " + Part(phase, 1, 0);
}

std::string NestsSection(const Model& model, std::span<const int64_t> addresses, std::span<const AccessKind> kinds,
                         const ElfSymbols& symbols, std::optional<uint64_t> stack_top) {
  static const char stack_key = 0, other_key = 0;  // places that are neither symbols nor sections
  std::string text = "\nnests:\n";
  for (const Node& phase : model.phases) {
    const int64_t length = NodeLength(phase, 1);
    std::vector<Place> places;  // in order of first access
    std::unordered_map<const void*, size_t> index;
    for (int64_t i = phase.start; i < phase.start + length && i < static_cast<int64_t>(addresses.size()); ++i) {
      const auto address = static_cast<uint64_t>(addresses[static_cast<size_t>(i)]);
      const ElfSymbol* symbol = SymbolAt(symbols.objects, address);
      if (!symbol) symbol = SymbolAt(symbols.sections, address);
      const bool stack = !symbol && stack_top && address < *stack_top + kStackAbove &&
                         address + kStackBelow >= *stack_top;
      const void* key = symbol ? static_cast<const void*>(symbol) : stack ? &stack_key : &other_key;
      auto [it, added] = index.try_emplace(key, places.size());
      if (added) places.push_back({symbol ? symbol->name : stack ? "stack" : "other"});
      Place& place = places[it->second];
      switch (kinds[static_cast<size_t>(i)]) {
        case AccessKind::kLoad: ++place.loads; break;
        case AccessKind::kStore: ++place.stores; break;
        case AccessKind::kModify: ++place.modifies; break;
      }
    }
    text += "  phase [" + std::to_string(phase.start) + ", " + std::to_string(phase.start + length - 1) +
            "]: " + PhaseShape(phase);
    if (phase.kind == NodeKind::kLoop) text += " (depth " + std::to_string(NodeDepth(phase)) + ")";
    for (size_t p = 0; p < places.size(); ++p) text += (p ? ", " : ": ") + Counted(places[p]);
    text += "\n";
  }
  return text;
}

}  // namespace macroscope::loops
