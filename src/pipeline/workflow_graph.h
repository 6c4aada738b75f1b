// The picture of a workflow (`macroscope run --graph`): one box per module
// instance with its ports, one arrow per link labelled with its stream
// type, the instances of a sub-workflow grouped in a frame each. Laid out
// and drawn as SVG by Graphviz (dot).
#pragma once

#include <string>

#include "pipeline/workflow.h"
#include "pipeline/workflow_file.h"

namespace macroscope::pipeline {

// The graph in Graphviz's DOT language.
std::string WorkflowDot(const Workflow& workflow, const ModuleKinds& kinds);
// The graph drawn as an SVG document.
std::string WorkflowSvg(const Workflow& workflow, const ModuleKinds& kinds);

}  // namespace macroscope::pipeline
