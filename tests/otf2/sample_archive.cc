#include "sample_archive.h"

#include <otf2/otf2.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace macroscope::otf2::testing {

namespace {

// No gtest here: fuzz/ builds this file too (library macroscope_otf2_sample).
void Check(OTF2_ErrorCode code, const char* what) {
  if (code != OTF2_SUCCESS)
    throw std::runtime_error(std::string("writing the sample OTF2 archive: ") + what + ": " +
                             OTF2_Error_GetDescription(code));
}

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp PostFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }

enum Strings : OTF2_StringRef {
  kEmpty, kCluster, kMachine, kN0, kNode, kRank0, kRank1, kMaster, kWorker, kMain, kCompute, kMpiSend, kMpiRecv,
  kWorld, kCycles, kTemperature, kUnitCount, kUnitCelsius, kPhase, kInit, kProgram, kPlatform, kTest, kStringCount
};
const char* const kStringText[] = {"",        "cluster",   "machine",     "n0",    "node",   "Rank 0",
                                   "Rank 1",  "Master thread", "Worker thread", "main", "compute", "MPI_Send",
                                   "MPI_Recv", "MPI_COMM_WORLD", "cycles", "temperature", "#", "C",
                                   "phase",   "init",      "./sample",    "platform", "test"};
static_assert(sizeof(kStringText) / sizeof(kStringText[0]) == kStringCount);

enum Regions : OTF2_RegionRef { kRegionMain, kRegionCompute, kRegionSend, kRegionRecv };

void Metric(OTF2_EvtWriter* w, OTF2_TimeStamp t, uint64_t cycles, double temperature) {
  OTF2_Type types[] = {OTF2_TYPE_UINT64, OTF2_TYPE_DOUBLE};
  OTF2_MetricValue values[2];
  values[0].unsigned_int = cycles;
  values[1].floating_point = temperature;
  Check(OTF2_EvtWriter_Metric(w, nullptr, t, 0, 2, types, values), "METRIC");
}

}  // namespace

std::string WriteSampleArchive(const std::string& directory, uint64_t program_end) {
  // The smallest chunks: readers allocate a chunk per file, and the fuzz
  // target reads this archive thousands of times.
  OTF2_Archive* archive = OTF2_Archive_Open(directory.c_str(), "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                                            OTF2_CHUNK_SIZE_MIN, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == nullptr) throw std::runtime_error("writing the sample OTF2 archive: cannot open " + directory);
  OTF2_FlushCallbacks flush = {PreFlush, PostFlush};
  Check(OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr), "SetFlushCallbacks");
  Check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "SetSerialCollectiveCallbacks");
  Check(OTF2_Archive_OpenEvtFiles(archive), "OpenEvtFiles");

  uint64_t events_per_location[3] = {};
  {  // location 0: rank 0's master thread
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, 0);
    OTF2_AttributeList* attributes = OTF2_AttributeList_New();
    OTF2_AttributeList_AddStringRef(attributes, 0, kInit);
    OTF2_EvtWriter_ProgramBegin(w, nullptr, 1002, kProgram, 0, nullptr);
    OTF2_EvtWriter_Enter(w, attributes, 1010, kRegionMain);  // consumes the attributes
    OTF2_EvtWriter_Enter(w, nullptr, 1020, kRegionCompute);
    Metric(w, 1020, 100, 36.5);
    OTF2_EvtWriter_Leave(w, nullptr, 1030, kRegionCompute);
    Metric(w, 1030, 250, 37.25);
    OTF2_EvtWriter_Enter(w, nullptr, 1040, kRegionSend);
    OTF2_EvtWriter_MpiSend(w, nullptr, 1041, 1, 0, 7, 64);
    OTF2_EvtWriter_Leave(w, nullptr, 1045, kRegionSend);
    OTF2_EvtWriter_Leave(w, nullptr, 1099, kRegionMain);
    OTF2_EvtWriter_ProgramEnd(w, nullptr, program_end, 0);
    OTF2_AttributeList_Delete(attributes);
    OTF2_EvtWriter_GetNumberOfEvents(w, &events_per_location[0]);
    OTF2_Archive_CloseEvtWriter(archive, w);
  }
  {  // location 1: rank 1's master thread
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, 1);
    OTF2_EvtWriter_Enter(w, nullptr, 1005, kRegionMain);
    OTF2_EvtWriter_Enter(w, nullptr, 1040, kRegionRecv);
    OTF2_EvtWriter_MpiRecv(w, nullptr, 1050, 0, 0, 7, 64);
    OTF2_EvtWriter_Leave(w, nullptr, 1051, kRegionRecv);
    OTF2_EvtWriter_Leave(w, nullptr, 1090, kRegionMain);
    OTF2_EvtWriter_GetNumberOfEvents(w, &events_per_location[1]);
    OTF2_Archive_CloseEvtWriter(archive, w);
  }
  {  // location 2: rank 0's worker thread, three levels deep
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, 2);
    OTF2_EvtWriter_Enter(w, nullptr, 1012, kRegionMain);
    OTF2_EvtWriter_Enter(w, nullptr, 1013, kRegionCompute);
    OTF2_EvtWriter_Enter(w, nullptr, 1014, kRegionCompute);
    OTF2_EvtWriter_Leave(w, nullptr, 1060, kRegionCompute);
    OTF2_EvtWriter_Leave(w, nullptr, 1070, kRegionCompute);
    OTF2_EvtWriter_Leave(w, nullptr, 1080, kRegionMain);
    OTF2_EvtWriter_GetNumberOfEvents(w, &events_per_location[2]);
    OTF2_Archive_CloseEvtWriter(archive, w);
  }
  Check(OTF2_Archive_CloseEvtFiles(archive), "CloseEvtFiles");

  // Every location needs its (here empty) local definitions.
  Check(OTF2_Archive_OpenDefFiles(archive), "OpenDefFiles");
  for (OTF2_LocationRef location = 0; location < 3; ++location)
    OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, location));
  Check(OTF2_Archive_CloseDefFiles(archive), "CloseDefFiles");

  OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(archive);
  OTF2_GlobalDefWriter_WriteClockProperties(d, 1000, 1000, 100, OTF2_UNDEFINED_TIMESTAMP);
  for (OTF2_StringRef s = 0; s < kStringCount; ++s) OTF2_GlobalDefWriter_WriteString(d, s, kStringText[s]);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, kCluster, kMachine, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1, kN0, kNode, 0);
  OTF2_AttributeValue platform;
  platform.stringRef = kTest;
  OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(d, 1, kPlatform, OTF2_TYPE_STRING, platform);
  OTF2_GlobalDefWriter_WriteLocationGroup(d, 0, kRank0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  OTF2_GlobalDefWriter_WriteLocationGroup(d, 1, kRank1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  OTF2_GlobalDefWriter_WriteLocation(d, 0, kMaster, OTF2_LOCATION_TYPE_CPU_THREAD, events_per_location[0], 0);
  OTF2_GlobalDefWriter_WriteLocation(d, 1, kMaster, OTF2_LOCATION_TYPE_CPU_THREAD, events_per_location[1], 1);
  OTF2_GlobalDefWriter_WriteLocation(d, 2, kWorker, OTF2_LOCATION_TYPE_CPU_THREAD, events_per_location[2], 0);
  const OTF2_StringRef region_names[] = {kMain, kCompute, kMpiSend, kMpiRecv};
  for (OTF2_RegionRef r = 0; r < 4; ++r)
    OTF2_GlobalDefWriter_WriteRegion(d, r, region_names[r], region_names[r], kEmpty, OTF2_REGION_ROLE_FUNCTION,
                                     r >= kRegionSend ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                     OTF2_REGION_FLAG_NONE, kEmpty, 0, 0);
  const uint64_t ranks[] = {0, 1};  // rank r is location r
  OTF2_GlobalDefWriter_WriteGroup(d, 0, kEmpty, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, ranks);
  OTF2_GlobalDefWriter_WriteGroup(d, 1, kEmpty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  2, ranks);
  OTF2_GlobalDefWriter_WriteComm(d, 0, kWorld, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteMetricMember(d, 0, kCycles, kEmpty, OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
                                         OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, kUnitCount);
  OTF2_GlobalDefWriter_WriteMetricMember(d, 1, kTemperature, kEmpty, OTF2_METRIC_TYPE_OTHER,
                                         OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0,
                                         kUnitCelsius);
  const OTF2_MetricMemberRef members[] = {0, 1};
  OTF2_GlobalDefWriter_WriteMetricClass(d, 0, 2, members, OTF2_METRIC_SYNCHRONOUS_STRICT, OTF2_RECORDER_KIND_CPU);
  OTF2_GlobalDefWriter_WriteAttribute(d, 0, kPhase, kEmpty, OTF2_TYPE_STRING);
  OTF2_Archive_CloseGlobalDefWriter(archive, d);
  Check(OTF2_Archive_Close(archive), "Close");
  return directory + "/traces.otf2";
}

}  // namespace macroscope::otf2::testing
