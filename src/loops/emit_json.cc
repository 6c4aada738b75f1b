#include "loops/emit_json.h"

#include <nlohmann/json.hpp>

namespace macroscope::loops {

namespace {

using json = nlohmann::ordered_json;

json Signed(const std::vector<uint64_t>& values) {
  json array = json::array();
  for (uint64_t v : values) array.push_back(static_cast<int64_t>(v));
  return array;
}

json ModelJson(const Model& model, bool top);

// `placed`: the node's start in its parent is known (no earlier sibling
// has a length that depends on the enclosing indices).
json NodeJson(const Node& node, int width, bool placed) {
  json j;
  j["kind"] = node.kind == NodeKind::kLiteral ? "literal" : node.kind == NodeKind::kLoop ? "loop" : "recurrence";
  if (placed) j["start"] = node.start;
  if (width == 1 || !Varies(node)) j["length"] = NodeLength(node, width);
  switch (node.kind) {
    case NodeKind::kLiteral:
      j["width"] = width;
      j["values"] = Signed(node.values);
      break;
    case NodeKind::kLoop: {
      if (node.count_coefs.empty()) j["count"] = node.count;
      else j["count"] = Signed(node.count_coefs);
      if (node.period != kVaryingPeriod) j["period"] = node.period;
      j["period_step"] = node.period_step;
      j["gap"] = node.gap;
      j["gap_step"] = node.gap_step;
      json body = json::array();
      bool child_placed = true;
      for (const Node& child : node.body) {
        body.push_back(NodeJson(child, 2 * width, child_placed));
        child_placed = child_placed && !Varies(child);
      }
      j["body"] = std::move(body);
      if (node.gaps) j["gaps"] = ModelJson(*node.gaps, false);
      break;
    }
    case NodeKind::kRecurrence: {
      j["period"] = node.rec_period;
      j["order"] = node.order;
      json rows = json::array();
      for (int64_t y = 0; y < node.rec_period; ++y) {
        json row = json::array();
        for (int64_t c = 0; c <= node.order; ++c) {
          row.push_back(static_cast<int64_t>(node.coefficients[y * (node.order + 1) + c]));
        }
        rows.push_back(std::move(row));
      }
      j["coefficients"] = std::move(rows);
      j["initial"] = Signed(node.values);
      break;
    }
  }
  return j;
}

json ModelJson(const Model& model, bool top) {
  json j;
  if (top) {
    j["format"] = "macroscope-loops";
    j["version"] = 1;
  }
  j["length"] = model.length;
  j["model_size"] = ModelSize(model);
  json phases = json::array();
  for (const Node& node : model.phases) phases.push_back(NodeJson(node, 1, true));
  j["phases"] = std::move(phases);
  json exceptions = json::array();
  for (const Exception& e : model.exceptions) exceptions.push_back({e.index, static_cast<int64_t>(e.value)});
  j["exceptions"] = std::move(exceptions);
  return j;
}

}  // namespace

std::string EmitJson(const Model& model) {
  return ModelJson(model, true).dump() + "\n";
}

}  // namespace macroscope::loops
