#include "loops/model_table.h"

#include <string>

#include "loops/report.h"

namespace macroscope::loops {

namespace {

const char* KindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kLiteral:
      return "literal";
    case NodeKind::kLoop:
      return "loop";
    case NodeKind::kRecurrence:
      return "recurrence";
  }
  return "";
}

}  // namespace

analysis::Table PhaseTable(const Model& model, std::string_view unit) {
  analysis::Table table({"phase", "first", "last", "kind", "points", "period", "intervals", "depth", "exceptions",
                         "size", "nest", "unit"});
  int64_t number = 0;
  for (const Node& node : model.phases) {
    const int64_t points = NodeLength(node, 1);
    table.Put(number++);
    table.Put(node.start);
    table.Put(node.start + points - 1);
    table.Put(KindName(node.kind));
    table.Put(points);
    if (node.kind == NodeKind::kLoop && node.period != kVaryingPeriod && node.period_step == 0) {
      table.Put(node.period);
    } else if (node.kind == NodeKind::kRecurrence) {
      table.Put(node.rec_period);
    } else {
      table.PutEmpty();
    }
    if (node.kind == NodeKind::kLoop) {
      table.Put(node.count);
    } else {
      table.PutEmpty();
    }
    table.Put(NodeDepth(node));
    table.Put(PhaseExceptions(model, node));
    table.Put(NodeSize(node));
    std::string nest = PhaseText(node);
    if (!nest.empty() && nest.back() == '\n') nest.pop_back();
    table.Put(nest);
    if (unit.empty()) {
      table.PutEmpty();
    } else {
      table.Put(unit);
    }
  }
  return table;
}

}  // namespace macroscope::loops
