// The periodic-linear model of an integer trace: a sequence of phases,
// each a loop nest whose body computes the value from the loop indices.
//
// Representation. A phase list models a sequence of *vectors* of a fixed
// width w (w = 1 for the trace itself). A Loop phase with period p and
// count k covers V[X*p + y] = A_y * X + B_y for 0 <= X < k, 0 <= y < p,
// and its body is a phase list modelling the width-2w sequence
// (A_y, B_y), laid out as [A_0..A_{w-1}, B_0..B_{w-1}]. Modelling A and B
// as one vector sequence keeps their phases joint by construction (the
// seed's "union" of phase lists). A Literal phase lists its vectors.
//
// Evaluation keeps a context vector c of width w (c = (1) at the top):
// a Literal element v yields sum_j c_j * v_j, and a Loop at index X hands
// its body the context (c*X, c). At depth d the context entries are the
// 2^d multilinear monomials of the loop indices (bit b of the entry index
// clear <=> the monomial contains the index of the b-th enclosing loop).
//
// Bounds affine in the enclosing indices (triangular nests, found by the
// bottom-up recogniser): a Loop may give its count as a vector evaluated
// like a literal element (`count_coefs`), so that the count of an inner
// loop depends on the outer indices. Such a loop, and every loop whose
// body holds one, emits its whole body in each interval and has no fixed
// period (kVaryingPeriod): its elements are produced structurally.
//
// All arithmetic is modulo 2^64 (uint64_t): the model regenerates the
// trace bit for bit even when coefficients would overflow int64_t.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace macroscope::loops {

enum class NodeKind { kLiteral, kLoop, kRecurrence };

// The period of a loop whose intervals do not all have the same length
// because its body holds loops with bounds affine in its index.
inline constexpr int64_t kVaryingPeriod = -1;

struct Model;

struct Node {
  NodeKind kind = NodeKind::kLiteral;
  int64_t start = 0;  // first element covered, in the parent sequence

  // kLiteral: the vectors, row-major (size = elements * width).
  std::vector<uint64_t> values;

  // kLoop: interval X (0 <= X < count) emits the first
  // period + period_step * X elements of the body, then
  // gap + gap_step * X elements taken in order from `gaps`.
  // period_step != 0 only for the variable modes (av, dv); gap != 0 only
  // for the distant modes (df, dv) and only at the top level.
  int64_t count = 0;
  int64_t period = 0;
  int64_t period_step = 0;
  int64_t gap = 0;
  int64_t gap_step = 0;
  std::vector<Node> body;       // width 2w; covers the longest interval
  // Non-empty: the count is sum_j count_coefs[j] * context[j] (width w
  // entries), affine in the enclosing indices; `count` is then unused.
  // Only below the top level (at width 1 the count is a constant).
  std::vector<uint64_t> count_coefs;
  std::shared_ptr<Model> gaps;  // the unmodelled gap content, modelled apart

  // kRecurrence (top level only): u[i] for i >= order*rec_period is
  // sum_{j=1..order} coef[y][j-1] * u[i - j*rec_period] + coef[y][order],
  // y = i mod rec_period; u[0 .. order*rec_period) are in `values`.
  int64_t length = 0;
  int64_t rec_period = 0;
  int64_t order = 0;
  std::vector<uint64_t> coefficients;  // rec_period rows of order+1
};

struct Exception {
  int64_t index = 0;
  uint64_t value = 0;
};

struct Model {
  int64_t length = 0;              // number of values regenerated
  std::vector<Node> phases;        // width 1, consecutive, cover [0, length)
  std::vector<Exception> exceptions;  // sorted by index; override the nest
};

// True when the number of elements a node covers depends on the
// enclosing loop indices (count_coefs here or below).
bool Varies(const Node& node);
// Number of elements a node covers; for a node that Varies, only at the
// top level (width 1), where it is counted by walking the loops.
int64_t NodeLength(const Node& node, int width);
// Number of elements of the longest interval of a Loop (what its body covers).
int64_t BodyLength(const Node& node);
// Integers needed to write the model down (loop bounds, coefficients,
// literal values, exception pairs): the "model size".
int64_t ModelSize(const Model& model);
int64_t NodeSize(const Node& node);
// Nesting depth (number of loop dimensions) of the deepest phase.
int NodeDepth(const Node& node);

// Regenerates the trace (exceptions applied).
std::vector<uint64_t> Generate(const Model& model);
// The same in consecutive chunks (exceptions applied), each handed over
// with the index of its first value: memory holds one chunk, whatever the
// length of the trace.
void GenerateInChunks(const Model& model, const std::function<void(std::span<const uint64_t>, int64_t)>& consume);
// Appends the elements of one node, evaluated under `context` (size width).
void GenerateNode(const Node& node, int width, const uint64_t* context,
                  std::vector<uint64_t>& out);

// Re-bases a Loop so that its interval X becomes interval X + shift:
// afterwards the loop starts `shift` intervals earlier (shift may be
// negative). Only for fixed-size loops without gaps.
void ShiftLoop(Node& node, int width, int64_t shift);

}  // namespace macroscope::loops
