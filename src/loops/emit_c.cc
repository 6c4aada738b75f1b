#include "loops/emit_c.h"

#include <sstream>
#include <vector>

namespace macroscope::loops {

namespace {

constexpr const char* kPrologue = R"(#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A sink either prints (buf == NULL) or fills an array. */
typedef struct {
  uint64_t* buf;
  uint64_t pos;
} sink_t;

static char out_buf[1 << 16];
static size_t out_len = 0;

static void flush_out(void) {
  fwrite(out_buf, 1, out_len, stdout);
  out_len = 0;
}

static void print_value(int64_t v) {
  char digits[24];
  int n = 0;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (out_len + 22 > sizeof out_buf) flush_out();
  if (v < 0) out_buf[out_len++] = '-';
  while (n > 0) out_buf[out_len++] = digits[--n];
  out_buf[out_len++] = '\n';
}
)";

std::string U64(uint64_t v) { return "UINT64_C(" + std::to_string(v) + ")"; }

class Emitter {
 public:
  std::string Run(const Model& model) {
    EmitModel(model, 0);
    out_ << kPrologue << "\n";
    // Exceptions, patched in by the printing sink.
    const size_t e = model.exceptions.size();
    out_ << "static const uint64_t exc_count = " << e << ";\n";
    out_ << "static const uint64_t exc_index[" << (e ? e : 1) << "] = {";
    for (size_t i = 0; i < e; ++i) out_ << (i ? ", " : "") << model.exceptions[i].index;
    if (!e) out_ << "0";
    out_ << "};\nstatic const uint64_t exc_value[" << (e ? e : 1) << "] = {";
    for (size_t i = 0; i < e; ++i) out_ << (i ? ", " : "") << U64(model.exceptions[i].value);
    if (!e) out_ << "0";
    out_ << "};\nstatic uint64_t exc_next = 0;\n\n";
    out_ << R"(static void emit(sink_t* s, uint64_t v) {
  if (s->buf) {
    s->buf[s->pos++] = v;
    return;
  }
  if (exc_next < exc_count && exc_index[exc_next] == s->pos) v = exc_value[exc_next++];
  s->pos++;
  print_value((int64_t)v);
}

)";
    out_ << tables_.str() << "\n";
    // A gap model's function is queued before the function using it.
    for (const std::string& function : functions_) out_ << function << "\n";
    out_ << "int main(void) {\n  sink_t s = {NULL, 0};\n  model_0(&s);\n  flush_out();\n"
         << "  return ferror(stdout) ? 1 : 0;\n}\n";
    return out_.str();
  }

 private:
  // Queues the text of function model_<id>, after the functions of the
  // gap models it uses.
  void EmitModel(const Model& model, int id) {
    std::ostringstream body;
    body << "/* " << model.length << " values */\nstatic void model_" << id << "(sink_t* s) {\n";
    for (const Node& node : model.phases) {
      body << "  /* phase [" << node.start << ", " << node.start + NodeLength(node, 1) - 1 << "] */\n";
      Node1(node, 1, 0, 1, body);
    }
    body << "}\n";
    functions_.push_back(body.str());
  }

  std::string Indent(int n) const { return std::string(2 * n, ' '); }

  static std::string Var(int d) {
    std::string name = "t";  // appended: avoids a GCC 12 -Wrestrict false positive
    name += std::to_string(d);
    return name;
  }

  // C expression of sum_j coef_j * monomial_j, coef_j given as C text
  // (or skipped when zero).
  std::string Polynomial(const std::vector<std::string>& coefs, const std::vector<bool>& zero, int depth) const {
    std::string text;
    for (size_t j = 0; j < coefs.size(); ++j) {
      if (zero[j]) continue;
      std::string term = coefs[j];
      for (int b = 0; b < depth; ++b) {
        if ((j >> b & 1) == 0) term += " * " + Var(b + 1);
      }
      if (text.empty()) text = term;
      else if (term[0] == '-') text += " - " + term.substr(1);
      else text += " + " + term;
    }
    return text.empty() ? "UINT64_C(0)" : text;
  }

  // The loop count: a constant, or affine in the enclosing indices.
  std::string Count(const Node& node, int width, int depth) const {
    if (node.count_coefs.empty()) return std::to_string(node.count) + "u";
    std::vector<std::string> coefs;
    std::vector<bool> zero;
    for (int j = 0; j < width; ++j) {
      const uint64_t v = node.count_coefs[j];
      coefs.push_back(static_cast<int64_t>(v) < 0 ? "-" + U64(0 - v) : U64(v));
      zero.push_back(v == 0);
    }
    return "(" + Polynomial(coefs, zero, depth) + ")";
  }

  std::string Emission(const std::string& value, int indent) const {
    std::string text;
    if (!guard_.empty()) text += Indent(indent) + guard_ + "\n";
    return text + Indent(indent) + "emit(s, " + value + ");\n";
  }

  void Node1(const Node& node, int width, int depth, int indent, std::ostringstream& body) {
    switch (node.kind) {
      case NodeKind::kLiteral: {
        const size_t m = node.values.size() / width;
        std::vector<bool> zero(static_cast<size_t>(width), true);
        for (size_t i = 0; i < m; ++i) {
          for (int j = 0; j < width; ++j) {
            if (node.values[i * width + j] != 0) zero[j] = false;
          }
        }
        if (m == 1) {
          // Negative coefficients are subtracted, for readability.
          std::vector<std::string> coefs;
          for (int j = 0; j < width; ++j) {
            const uint64_t v = node.values[j];
            coefs.push_back(static_cast<int64_t>(v) < 0 ? "-" + U64(0 - v) : U64(v));
          }
          body << Emission(Polynomial(coefs, zero, depth), indent);
          return;
        }
        const std::string table = "lit_" + std::to_string(next_table_++);
        tables_ << "static const uint64_t " << table << "[" << node.values.size() << "] = {";
        for (size_t i = 0; i < node.values.size(); ++i) {
          tables_ << (i % 8 == 0 ? "\n  " : " ") << node.values[i] << "u,";
        }
        tables_ << "\n};\n";
        const std::string index = "i" + std::to_string(depth);
        body << Indent(indent) << "for (uint64_t " << index << " = 0; " << index << " < " << m << "; ++" << index
             << ") {\n";
        std::vector<std::string> coefs;
        for (int j = 0; j < width; ++j) {
          coefs.push_back(table + "[" + index + " * " + std::to_string(width) + " + " + std::to_string(j) + "]");
        }
        body << Emission(Polynomial(coefs, zero, depth), indent + 1);
        body << Indent(indent) << "}\n";
        return;
      }
      case NodeKind::kLoop: {
        const std::string var = Var(depth + 1);
        const int label = next_label_++;
        std::string gap_array;
        if (node.gaps) {
          const int id = next_model_++;
          gap_array = "gap_" + std::to_string(id);
          tables_ << "static uint64_t " << gap_array << "[" << (node.gaps->length ? node.gaps->length : 1) << "];\n";
          EmitModel(*node.gaps, id);
          body << Indent(indent) << "{\n" << Indent(indent + 1) << "sink_t g = {" << gap_array << ", 0};\n"
               << Indent(indent + 1) << "model_" << id << "(&g);\n" << Indent(indent) << "}\n";
          body << Indent(indent) << "uint64_t gc_" << label << " = 0;\n";
        }
        body << Indent(indent) << "for (uint64_t " << var << " = 0; " << var << " < " << Count(node, width, depth)
             << "; ++" << var << ") {\n";
        const bool variable = node.period_step != 0;
        const std::string saved_guard = guard_;
        if (variable) {
          body << Indent(indent + 1) << "const uint64_t lim_" << label << " = " << U64(node.period) << " + "
               << U64(static_cast<uint64_t>(node.period_step)) << " * " << var << ";\n";
          body << Indent(indent + 1) << "uint64_t y_" << label << " = 0;\n";
          // An enclosing variable interval may end inside this one: both
          // guards count every emission.
          guard_ = saved_guard + (saved_guard.empty() ? "" : " ") + "if (y_" + std::to_string(label) + "++ == lim_" +
                   std::to_string(label) + ") goto done_" + std::to_string(label) + ";";
        }
        for (const Node& child : node.body) Node1(child, 2 * width, depth + 1, indent + 1, body);
        guard_ = saved_guard;
        if (variable) body << Indent(indent) << "done_" << label << ":;\n";
        if (node.gaps) {
          body << Indent(indent + 1) << "for (uint64_t g = 0; g < " << U64(static_cast<uint64_t>(node.gap)) << " + "
               << U64(static_cast<uint64_t>(node.gap_step)) << " * " << var << "; ++g) emit(s, " << gap_array
               << "[gc_" << label << "++]);\n";
        }
        body << Indent(indent) << "}\n";
        return;
      }
      case NodeKind::kRecurrence: {
        const int64_t p = node.rec_period, k = node.order, kp = k * p;
        const std::string id = std::to_string(next_table_++);
        tables_ << "static const uint64_t rec_init_" << id << "[" << kp << "] = {";
        for (int64_t i = 0; i < kp; ++i) tables_ << (i ? ", " : "") << U64(node.values[i]);
        tables_ << "};\nstatic const uint64_t rec_coef_" << id << "[" << node.coefficients.size() << "] = {";
        for (size_t i = 0; i < node.coefficients.size(); ++i) tables_ << (i ? ", " : "") << U64(node.coefficients[i]);
        tables_ << "};\n";
        const std::string in = Indent(indent);
        body << in << "{\n"
             << in << "  uint64_t ring[" << kp << "];\n"
             << in << "  for (uint64_t i = 0; i < " << node.length << "u; ++i) {\n"
             << in << "    uint64_t v;\n"
             << in << "    if (i < " << kp << "u) {\n"
             << in << "      v = rec_init_" << id << "[i];\n"
             << in << "    } else {\n"
             << in << "      const uint64_t* row = &rec_coef_" << id << "[(i % " << p << "u) * " << k + 1 << "u];\n"
             << in << "      v = row[" << k << "];\n"
             << in << "      for (uint64_t j = 1; j <= " << k << "u; ++j) v += row[j - 1] * ring[(i - j * " << p
             << "u) % " << kp << "u];\n"
             << in << "    }\n"
             << in << "    ring[i % " << kp << "u] = v;\n"
             << in << "    emit(s, v);\n"
             << in << "  }\n"
             << in << "}\n";
        return;
      }
    }
  }

  std::ostringstream out_;
  std::ostringstream tables_;
  std::vector<std::string> functions_;
  std::string guard_;
  int next_table_ = 0;
  int next_label_ = 0;
  int next_model_ = 1;
};

}  // namespace

std::string EmitC(const Model& model) { return Emitter().Run(model); }

}  // namespace macroscope::loops
