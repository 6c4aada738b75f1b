#include "pipeline/workflow_graph.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "util/error.h"

namespace macroscope::pipeline {

namespace {

// Text for a DOT record label: its special characters escaped.
std::string RecordText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("{}|<>\"\\ ").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string PortList(const std::vector<std::unique_ptr<Port>>& ports, const char* side) {
  std::string out;
  for (size_t i = 0; i < ports.size(); ++i)
    out += (i ? "|" : "") + std::string("<") + side + std::to_string(i) + ">" + RecordText(ports[i]->name());
  return out;
}

size_t PortIndex(const std::vector<std::unique_ptr<Port>>& ports, const Port* port) {
  for (size_t i = 0; i < ports.size(); ++i)
    if (ports[i].get() == port) return i;
  return 0;
}

// "runs[2].read" -> "runs[2]": the instance a module belongs to ("" at the top).
std::string InstanceOf(const std::string& name) {
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

}  // namespace

std::string WorkflowDot(const Workflow& workflow, const ModuleKinds& kinds) {
  std::ostringstream dot;
  dot << "digraph workflow {\n  rankdir=LR;\n  node [shape=record, fontname=\"Helvetica\", fontsize=11];\n"
         "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  std::map<const Module*, size_t> ids;
  std::map<std::string, std::vector<const Module*>> by_instance;
  for (const auto& m : workflow.modules()) {
    ids[m.get()] = ids.size();
    by_instance[InstanceOf(m->name())].push_back(m.get());
  }
  size_t cluster = 0;
  for (const auto& [instance, modules] : by_instance) {
    if (!instance.empty()) dot << "  subgraph cluster_" << cluster++ << " {\n    label=" << Quoted(instance) << ";\n";
    for (const Module* m : modules) {
      auto kind = kinds.find(m->name());
      std::string label = RecordText(m->name());
      if (kind != kinds.end()) label += "\\n(" + RecordText(kind->second) + ")";
      std::string record = "{";
      if (!m->inputs().empty()) record += "{" + PortList(m->inputs(), "i") + "}|";
      record += label;
      if (!m->outputs().empty()) record += "|{" + PortList(m->outputs(), "o") + "}";
      record += "}";
      dot << "    m" << ids[m] << " [label=" << Quoted(record) << "];\n";
    }
    if (!instance.empty()) dot << "  }\n";
  }
  for (const auto& link : workflow.links()) {
    const Module& from = link.from->module();
    const Module& to = link.to->module();
    dot << "  m" << ids[&from] << ":o" << PortIndex(from.outputs(), link.from) << " -> m" << ids[&to] << ":i"
        << PortIndex(to.inputs(), link.to) << " [label=" << Quoted(std::string(link.from->type())) << "];\n";
  }
  dot << "}\n";
  return dot.str();
}

std::string WorkflowSvg(const Workflow& workflow, const ModuleKinds& kinds) {
  const std::string dot = WorkflowDot(workflow, kinds);
  std::unique_ptr<GVC_t, int (*)(GVC_t*)> gvc(gvContext(), gvFreeContext);
  std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> graph(agmemread(dot.c_str()), agclose);
  if (!gvc || !graph) throw std::runtime_error("Graphviz could not read the workflow's graph");
  if (gvLayout(gvc.get(), graph.get(), "dot") != 0) throw std::runtime_error("Graphviz could not lay out the graph");
  char* data = nullptr;
  unsigned int length = 0;
  int rendered = gvRenderData(gvc.get(), graph.get(), "svg", &data, &length);
  std::string svg = rendered == 0 && data ? std::string(data, length) : std::string();
  if (data) gvFreeRenderData(data);
  gvFreeLayout(gvc.get(), graph.get());
  if (svg.empty()) throw std::runtime_error("Graphviz could not draw the graph as SVG");
  return svg;
}

}  // namespace macroscope::pipeline
