// The Paraver trace the suite writes by hand (docs/paraver.md): small, and
// with the usual record kinds — nested and consecutive states, events with
// one and with several type:value pairs, named and unnamed event types and
// values, a communication, a communicator — beside its .pcf and .row. The
// others (global operations, intercommunicators, ends -1, header forms) are
// in paraver_record_kinds_test.cc.
#pragma once

#include <string>

#include "test_support.h"

namespace macroscope::paraver::testing {

// Application 1: task 1 with two threads, task 2 with one; times in ns.
inline const char kSuitePrv[] =
    "#Paraver (24/11/26 at 10:00):2000_ns:1(3):1:2(2:1,1:1),1\n"
    "c:1:1:2:1:2\n"
    "1:1:1:1:1:0:500:1\n"
    "1:2:1:1:2:0:2000:0\n"
    "1:3:1:2:1:0:900:1\n"
    "1:1:1:1:1:100:200:2\n"
    "2:1:1:1:1:150:50000001:3:40000001:7\n"
    "3:1:1:1:1:300:310:3:1:2:1:320:330:1024:5\n"
    "1:1:1:1:1:500:2000:0\n"
    "2:3:1:2:1:900:50000001:0\n"
    "1:3:1:2:1:900:1999:2\n";

inline const char kSuitePcf[] =
    "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n\n"
    "STATES\n0    Idle\n1    Running\n2    Waiting a message\n\n"
    "STATES_COLOR\n0    {117,195,255}\n1    {0,0,255}\n2    {255,0,0}\n\n\n"
    "EVENT_TYPE\n0    50000001    MPI Point-to-point\nVALUES\n0    Outside MPI\n3    MPI_Isend\n\n\n"
    "EVENT_TYPE\n9    40000001    Application phase\n\n"
    "GRADIENT_COLOR\n0    {0,255,2}\n";

inline const char kSuiteRow[] =
    "LEVEL NODE SIZE 1\nnode-a\n\n"
    "LEVEL THREAD SIZE 3\nTHREAD 1.1.1 main\nTHREAD 1.1.2 helper\nTHREAD 1.2.1 main\n";

// Writes DIR/suite.prv (and .pcf, .row unless `bare`); returns the .prv.
inline std::string WriteSuiteTrace(const std::string& dir, bool bare = false) {
  macroscope::testing::WriteText(dir + "/suite.prv", kSuitePrv);
  if (!bare) {
    macroscope::testing::WriteText(dir + "/suite.pcf", kSuitePcf);
    macroscope::testing::WriteText(dir + "/suite.row", kSuiteRow);
  }
  return dir + "/suite.prv";
}

}  // namespace macroscope::paraver::testing
