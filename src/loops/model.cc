#include "loops/model.h"

#include <algorithm>
#include <cassert>
#include <functional>

namespace macroscope::loops {

int64_t BodyLength(const Node& node) {
  if (node.count <= 0) return 0;
  return std::max(node.period, node.period + node.period_step * (node.count - 1));
}

namespace {

uint64_t Dot(const uint64_t* a, const uint64_t* b, int n) {
  uint64_t sum = 0;
  for (int i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

int64_t LoopCount(const Node& node, int width, const uint64_t* context) {
  if (node.count_coefs.empty()) return node.count;
  return static_cast<int64_t>(Dot(node.count_coefs.data(), context, width));
}

// Elements of a node under `context`: only the loops whose length varies
// are walked.
int64_t LengthIn(const Node& node, int width, const uint64_t* context) {
  if (!Varies(node)) return NodeLength(node, width);
  const int inner = 2 * width;
  std::vector<uint64_t> sub(static_cast<size_t>(inner));
  int64_t total = 0;
  const int64_t count = LoopCount(node, width, context);
  for (int64_t x = 0; x < count; ++x) {
    for (int j = 0; j < width; ++j) {
      sub[j] = context[j] * static_cast<uint64_t>(x);
      sub[width + j] = context[j];
    }
    for (const Node& child : node.body) total += LengthIn(child, inner, sub.data());
  }
  return total;
}

}  // namespace

bool Varies(const Node& node) {
  return node.kind == NodeKind::kLoop && (!node.count_coefs.empty() || node.period == kVaryingPeriod);
}

int64_t NodeLength(const Node& node, int width) {
  switch (node.kind) {
    case NodeKind::kLiteral:
      return static_cast<int64_t>(node.values.size()) / width;
    case NodeKind::kLoop: {
      if (Varies(node)) {
        assert(width == 1);
        const uint64_t one = 1;
        return LengthIn(node, 1, &one);
      }
      const int64_t k = node.count;
      return k * (node.period + node.gap) +
             (node.period_step + node.gap_step) * (k * (k - 1) / 2);
    }
    case NodeKind::kRecurrence:
      return node.length;
  }
  return 0;
}

int64_t NodeSize(const Node& node) {
  switch (node.kind) {
    case NodeKind::kLiteral:
      return static_cast<int64_t>(node.values.size());
    case NodeKind::kLoop: {
      // count and period always; the variable and distant parameters only
      // when used.
      int64_t size = 2;
      // An affine count is written with one coefficient per context entry.
      if (!node.count_coefs.empty()) size += static_cast<int64_t>(node.count_coefs.size()) - 1;
      if (node.period_step != 0) size += 1;
      if (node.gap != 0 || node.gap_step != 0) size += 2;
      for (const Node& child : node.body) size += NodeSize(child);
      if (node.gaps) size += ModelSize(*node.gaps);
      return size;
    }
    case NodeKind::kRecurrence:
      return 3 + static_cast<int64_t>(node.values.size() + node.coefficients.size());
  }
  return 0;
}

int64_t ModelSize(const Model& model) {
  int64_t size = 0;
  for (const Node& node : model.phases) size += NodeSize(node);
  return size + 2 * static_cast<int64_t>(model.exceptions.size());
}

int NodeDepth(const Node& node) {
  if (node.kind != NodeKind::kLoop) return 0;
  int inner = 0;
  for (const Node& child : node.body) inner = std::max(inner, NodeDepth(child));
  return 1 + inner;
}

namespace {

// Where generated values go: appended to `out`, which `flush` (when set)
// hands over and empties every kFlushValues values, so a streamed
// regeneration holds one chunk.
struct Sink {
  static constexpr size_t kFlushValues = size_t{1} << 16;
  std::vector<uint64_t>& out;
  const std::function<void(std::vector<uint64_t>&)>* flush = nullptr;

  void Put(uint64_t v) {
    out.push_back(v);
    if (flush && out.size() >= kFlushValues) {
      (*flush)(out);
      out.clear();
    }
  }
};

int64_t Emit(const Node& node, int width, const uint64_t* context, int64_t budget, Sink& sink);

// Emits at most `budget` values of the loop (a variable-size interval
// stops inside its body); returns how many. The gap values are produced up
// front and consumed in order.
int64_t EmitLoop(const Node& node, int width, const uint64_t* context, int64_t budget, Sink& sink) {
  std::vector<uint64_t> gap_values;
  if (node.gaps) gap_values = Generate(*node.gaps);
  size_t gap_cursor = 0;
  const int inner = 2 * width;
  const int64_t count = LoopCount(node, width, context);
  // Fast path: a single one-element literal body is the innermost affine
  // loop, value = X * alpha + beta.
  const bool affine = node.period == 1 && node.period_step == 0 && node.body.size() == 1 &&
                      node.body[0].kind == NodeKind::kLiteral &&
                      node.body[0].values.size() == static_cast<size_t>(inner) && !node.gaps;
  if (affine) {
    const uint64_t* v = node.body[0].values.data();
    const uint64_t alpha = Dot(v, context, width);
    const uint64_t beta = Dot(v + width, context, width);
    uint64_t value = beta;
    const int64_t n = std::max<int64_t>(std::min(count, budget), 0);
    for (int64_t x = 0; x < n; ++x, value += alpha) sink.Put(value);
    return n;
  }
  std::vector<uint64_t> sub(inner);
  int64_t emitted = 0;
  for (int64_t x = 0; x < count && emitted < budget; ++x) {
    const uint64_t ux = static_cast<uint64_t>(x);
    for (int j = 0; j < width; ++j) {
      sub[j] = context[j] * ux;
      sub[width + j] = context[j];
    }
    // A varying period: each interval is the whole body, never cut.
    const int64_t period = node.period == kVaryingPeriod ? INT64_MAX : node.period + node.period_step * x;
    const int64_t limit = std::min(period, budget - emitted);
    int64_t in_interval = 0;
    for (const Node& child : node.body) {
      if (in_interval >= limit) break;
      in_interval += Emit(child, inner, sub.data(), limit - in_interval, sink);
    }
    emitted += in_interval;
    const int64_t gap = node.gap + node.gap_step * x;
    for (int64_t g = 0; g < gap && emitted < budget; ++g, ++emitted) {
      sink.Put(gap_cursor < gap_values.size() ? gap_values[gap_cursor] : 0);
      ++gap_cursor;
    }
  }
  return emitted;
}

int64_t EmitRecurrence(const Node& node, int64_t budget, Sink& sink) {
  // The node's own values, kept apart from the sink, which may flush.
  const int64_t p = node.rec_period;
  const int64_t k = node.order;
  const int64_t n = std::max<int64_t>(std::min(node.length, budget), 0);
  std::vector<uint64_t> u;
  u.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t value;
    if (i < k * p) {
      value = node.values[i];
    } else {
      const uint64_t* row = &node.coefficients[(i % p) * (k + 1)];
      value = row[k];
      for (int64_t j = 1; j <= k; ++j) value += row[j - 1] * u[i - j * p];
    }
    u.push_back(value);
    sink.Put(value);
  }
  return n;
}

int64_t Emit(const Node& node, int width, const uint64_t* context, int64_t budget, Sink& sink) {
  switch (node.kind) {
    case NodeKind::kLiteral: {
      const int64_t n = std::max<int64_t>(std::min(static_cast<int64_t>(node.values.size() / width), budget), 0);
      for (int64_t i = 0; i < n; ++i) sink.Put(Dot(&node.values[i * width], context, width));
      return n;
    }
    case NodeKind::kLoop:
      return EmitLoop(node, width, context, budget, sink);
    case NodeKind::kRecurrence:
      assert(width == 1);
      return EmitRecurrence(node, budget, sink);
  }
  return 0;
}

}  // namespace

void GenerateNode(const Node& node, int width, const uint64_t* context, std::vector<uint64_t>& out) {
  Sink sink{out};
  Emit(node, width, context, INT64_MAX, sink);
}

std::vector<uint64_t> Generate(const Model& model) {
  std::vector<uint64_t> out;
  out.reserve(static_cast<size_t>(std::max<int64_t>(model.length, 0)));
  GenerateInChunks(model, [&](std::span<const uint64_t> values, int64_t) {
    out.insert(out.end(), values.begin(), values.end());
  });
  return out;
}

void GenerateInChunks(const Model& model, const std::function<void(std::span<const uint64_t>, int64_t)>& consume) {
  std::vector<uint64_t> out;
  int64_t first = 0;  // index of out[0] in the trace
  size_t next_exception = 0;
  const std::function<void(std::vector<uint64_t>&)> flush = [&](std::vector<uint64_t>& values) {
    const int64_t end = first + static_cast<int64_t>(values.size());
    for (; next_exception < model.exceptions.size() && model.exceptions[next_exception].index < end;
         ++next_exception) {
      const Exception& e = model.exceptions[next_exception];
      if (e.index >= first) values[e.index - first] = e.value;
    }
    consume(values, first);
    first = end;
  };
  Sink sink{out, &flush};
  const uint64_t one = 1;
  for (const Node& node : model.phases) Emit(node, 1, &one, INT64_MAX, sink);
  if (!out.empty()) flush(out);
}

namespace {

void ShiftLeaves(std::vector<Node>& nodes, int width, uint64_t shift) {
  for (Node& node : nodes) {
    if (node.kind == NodeKind::kLiteral) {
      for (size_t i = 0; i + 1 < node.values.size(); i += 2) node.values[i + 1] -= shift * node.values[i];
    } else if (node.kind == NodeKind::kLoop) {
      ShiftLeaves(node.body, 2 * width, shift);
    }
  }
}

}  // namespace

void ShiftLoop(Node& node, int width, int64_t shift) {
  // Entries with bit 0 set do not contain the outer index X; the value
  // A*(X' - shift) + B moves -shift*A into them.
  ShiftLeaves(node.body, 2 * width, static_cast<uint64_t>(shift));
}

}  // namespace macroscope::loops
