#include "loops/report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "loops/expression.h"

namespace macroscope::loops {

namespace {

constexpr int64_t kShownPeriod = 16;   // longest [A] X + [B] line printed
constexpr size_t kShownValues = 20;    // literal values shown before "..."

std::string Var(int depth) {
  std::string name = "t";  // appended, not "t" + ...: avoids a GCC 12 -Wrestrict false positive
  name += std::to_string(depth);
  return name;
}

std::string List(const std::vector<int64_t>& values, size_t limit) {
  std::string text = "[";
  for (size_t i = 0; i < values.size() && i < limit; ++i) {
    if (i) text += ", ";
    text += std::to_string(values[i]);
  }
  if (values.size() > limit) text += ", ... (" + std::to_string(values.size()) + " values)";
  return text + "]";
}

class Printer {
 public:
  explicit Printer(std::ostringstream& out) : out_(out) {}

  // Prints the nodes of a sequence of width `width` enclosed by `depth`
  // loops.
  void Nodes(const std::vector<Node>& nodes, int width, int depth, int indent) {
    for (const Node& node : nodes) One(node, width, depth, indent);
  }

  void One(const Node& node, int width, int depth, int indent);

 private:
  void Line(int indent, const std::string& text) { out_ << std::string(2 * indent, ' ') << text << "\n"; }

  std::vector<std::string> Vars(int depth) const {
    std::vector<std::string> vars;
    for (int d = 1; d <= depth; ++d) vars.push_back(Var(d));
    return vars;
  }

  std::ostringstream& out_;
};

void Printer::One(const Node& node, int width, int depth, int indent) {
    switch (node.kind) {
      case NodeKind::kLiteral: {
        const size_t m = node.values.size() / width;
        if (depth == 0) {
          std::vector<int64_t> values(node.values.begin(), node.values.end());
          Line(indent, "values " + List(values, kShownValues));
          return;
        }
        if (m == 1) {
          Line(indent, FactorPolynomial(ConstantCoefficients(node.values.data(), width), Vars(depth)));
          return;
        }
        // A table: each coefficient is a periodic number over the selector.
        const std::string selector = Var(depth + 1);
        std::vector<Coefficient> coefs(static_cast<size_t>(width));
        for (int j = 0; j < width; ++j) {
          std::vector<int64_t> column;
          for (size_t i = 0; i < m; ++i) column.push_back(static_cast<int64_t>(node.values[i * width + j]));
          Coefficient& c = coefs[j];
          c.zero = std::all_of(column.begin(), column.end(), [](int64_t v) { return v == 0; });
          c.constant = std::all_of(column.begin(), column.end(), [&](int64_t v) { return v == column[0]; });
          c.value = column[0];
          c.text = List(column, 8) + "_" + selector;
        }
        Line(indent, "for " + selector + " = 0.." + std::to_string(m - 1));
        Line(indent + 1, FactorPolynomial(coefs, Vars(depth)));
        return;
      }
      case NodeKind::kLoop: {
        const std::string var = Var(depth + 1);
        if (node.count_coefs.empty()) {
          Line(indent, "for " + var + " = 0.." + std::to_string(node.count - 1));
        } else {
          // The last index is the count minus one, affine in the outer indices.
          std::vector<Coefficient> last = ConstantCoefficients(node.count_coefs.data(), width);
          Coefficient& constant = last[static_cast<size_t>(width) - 1];
          constant.value -= 1;
          constant.zero = constant.value == 0;
          Line(indent, "for " + var + " = 0.." + FactorPolynomial(last, Vars(depth)));
        }
        if (node.period_step != 0) {
          // Interval `var` holds body positions 0 .. period + period_step*var - 1.
          std::vector<Coefficient> bound(2);
          bound[0].value = node.period_step;
          bound[0].zero = false;
          bound[1].value = node.period - 1;
          bound[1].zero = node.period - 1 == 0;
          const std::string last = FactorPolynomial(bound, {var});
          const Node* only = node.body.size() == 1 ? &node.body[0] : nullptr;
          if (only && only->kind == NodeKind::kLoop && only->period == 1 && only->period_step == 0) {
            // The seed's form: the inner loop bound is affine in var.
            Line(indent + 1, "for " + Var(depth + 2) + " = 0.." + last);
            Nodes(only->body, 4 * width, depth + 2, indent + 2);
          } else {
            Line(indent + 1, "(body positions 0.." + last + " only)");
            Nodes(node.body, 2 * width, depth + 1, indent + 1);
          }
        } else {
          Nodes(node.body, 2 * width, depth + 1, indent + 1);
        }
        if (node.gap != 0 || node.gap_step != 0) {
          std::vector<Coefficient> gap(2);
          gap[0].value = node.gap_step;
          gap[0].zero = node.gap_step == 0;
          gap[1].value = node.gap;
          gap[1].zero = node.gap == 0;
          const int64_t total = node.gaps ? node.gaps->length : 0;
          const int64_t size = node.gaps ? ModelSize(*node.gaps) : 0;
          Line(indent + 1, "gap of " + FactorPolynomial(gap, {var}) + " values (" + std::to_string(total) +
                               " in all, modelled apart in " + std::to_string(size) + " integers)");
        }
        return;
      }
      case NodeKind::kRecurrence: {
        const int64_t p = node.rec_period, k = node.order;
        std::string formula = "u(i) = ";
        for (int64_t j = 0; j <= k; ++j) {
          std::vector<int64_t> column;
          for (int64_t y = 0; y < p; ++y) column.push_back(static_cast<int64_t>(node.coefficients[y * (k + 1) + j]));
          std::string c = p == 1 ? std::to_string(column[0]) : List(column, 8);
          if (j < k) formula += c + "*u(i-" + std::to_string((j + 1) * p) + ") + ";
          else formula += c;
        }
        Line(indent, formula + (p > 1 ? "   (coefficients indexed by i mod " + std::to_string(p) + ")" : ""));
        std::vector<int64_t> initial(node.values.begin(), node.values.end());
        Line(indent, "initial values " + List(initial, kShownValues) + ", i = 0.." + std::to_string(node.length - 1));
        return;
      }
    }
}

std::string Ratio(int64_t a, int64_t b) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b));
  return text;
}

}  // namespace

std::string SummaryLine(const Model& model) {
  return "model size: " + std::to_string(ModelSize(model)) + " integers for " + std::to_string(model.length) +
         " values (ratio " + Ratio(ModelSize(model), model.length) + "), " + std::to_string(model.phases.size()) +
         " phases, " + std::to_string(model.exceptions.size()) + " exceptions";
}

std::string PhaseText(const Node& phase, int indent) {
  std::ostringstream out;
  Printer printer(out);
  printer.One(phase, 1, 0, indent);
  return out.str();
}

int64_t PhaseExceptions(const Model& model, const Node& phase) {
  const int64_t first = phase.start, last = phase.start + NodeLength(phase, 1) - 1;
  return std::count_if(model.exceptions.begin(), model.exceptions.end(),
                       [&](const Exception& e) { return e.index >= first && e.index <= last; });
}

std::string Report(const Model& model, const Options& options, const Choice& chosen) {
  std::ostringstream out;
  out << "sequence of " << model.length << " elements (mode ";
  if (options.mode == Mode::kAuto) {
    // The bottom-up recogniser covers af and affine bounds (av) at once.
    out << "auto: " << (chosen.mode == Mode::kAuto ? "af/av" : ModeName(chosen.mode)) << " smallest";
  } else {
    out << ModeName(options.mode);
  }
  out << ", algorithm " << AlgorithmName(chosen.algorithm) << ", tolerance " << options.tolerance << ")\n";
  for (const Node& node : model.phases) {
    const int64_t length = NodeLength(node, 1);
    const int64_t first = node.start, last = node.start + length - 1;
    const int64_t errors = PhaseExceptions(model, node);
    out << "\nphase [" << first << ", " << last << "] (";
    switch (node.kind) {
      case NodeKind::kLiteral:
        out << "no periodic-linear interpolation, " << length << " points";
        break;
      case NodeKind::kLoop:
        if (node.period == kVaryingPeriod) out << "intervals of varying size (inner bounds depend on X)";
        else out << "period = " << node.period;
        if (node.period_step != 0) out << (node.period_step > 0 ? " + " : " - ") << std::abs(node.period_step) << "*X";
        out << ", " << node.count << " intervals, " << length << " points, depth " << NodeDepth(node);
        break;
      case NodeKind::kRecurrence:
        out << "recurrence of order " << node.order << ", period = " << node.rec_period << ", " << length
            << " points";
        break;
    }
    out << ", " << errors << "/" << length << " errs)\n";
    if (node.kind == NodeKind::kLoop && node.period_step == 0 && node.gap == 0 && node.period > 0 &&
        node.period <= kShownPeriod &&
        node.count >= 2) {
      // The seed's [A] X + [B] form, from the first two intervals.
      std::vector<uint64_t> values;
      const uint64_t one = 1;
      Node two = node;
      two.count = 2;
      GenerateNode(two, 1, &one, values);
      std::vector<int64_t> a, b;
      for (int64_t y = 0; y < node.period; ++y) {
        b.push_back(static_cast<int64_t>(values[y]));
        a.push_back(static_cast<int64_t>(values[node.period + y] - values[y]));
      }
      out << "  " << List(a, kShownPeriod) << " X + " << List(b, kShownPeriod) << " (X = 0.." << node.count - 1
          << ")\n";
    }
    out << PhaseText(node, 1);
  }
  if (!model.exceptions.empty()) {
    out << "\nexceptions (index: value), " << model.exceptions.size() << ":\n";
    for (const Exception& e : model.exceptions) out << "  " << e.index << ": " << static_cast<int64_t>(e.value) << "\n";
  }
  out << "\n" << SummaryLine(model) << "\n";
  return out.str();
}

}  // namespace macroscope::loops
