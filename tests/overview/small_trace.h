// A small Pajé trace written by hand, read through the real reader.
#pragma once

#include <string>

#include "formats/paje/reader.h"

namespace macroscope::testing {

inline const char* kHeader = R"(%EventDef PajeDefineContainerType 0
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
%EventDef PajeCreateContainer 3
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeSetState 4
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePushState 5
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePopState 6
% Time date
% Container string
% Type string
%EndEventDef
%EventDef PajeNewEvent 7
% Time date
% Container string
% Type string
% Value string
%EndEventDef
0 N 0 Node
0 P N Proc
1 S P State
2 E P Event
3 0 n1 N 0 n1
3 0 p1 P n1 p1
3 0 p2 P n1 p2
)";

inline Trace ReadSmallTrace(const std::string& body) {
  Trace trace;
  paje::ReadPajeText(std::string(kHeader) + body, "small.trace", {}, trace);
  trace.BuildIndexes();
  return trace;
}

}  // namespace macroscope::testing
