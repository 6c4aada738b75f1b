#include "ring_archive.h"

#include <otf2/otf2.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace macroscope::mpi::testing {

namespace {

enum Strings : OTF2_StringRef { kEmpty, kNode, kMain, kCompute, kSend, kRecv, kWorld, kThread, kLoad, kFirstRank };
const char* const kText[] = {"", "node", "main", "compute", "MPI_Send", "MPI_Recv", "MPI_COMM_WORLD", "thread", "load"};
enum Metrics : OTF2_MetricRef { kLoadClass, kNodeLoad };
enum Regions : OTF2_RegionRef { kRegionMain, kRegionCompute, kRegionSend, kRegionRecv };

// A punctual record of kind k (each kind an event type of its own).
void WritePunctual(OTF2_EvtWriter* w, OTF2_TimeStamp t, int k) {
  switch (k % 6) {
    case 0: OTF2_EvtWriter_BufferFlush(w, nullptr, t, t); break;
    case 1: OTF2_EvtWriter_MeasurementOnOff(w, nullptr, t, OTF2_MEASUREMENT_ON); break;
    case 2: OTF2_EvtWriter_MpiRequestTest(w, nullptr, t, 1); break;
    case 3: OTF2_EvtWriter_MpiRequestCancelled(w, nullptr, t, 1); break;
    case 4: OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, 1); break;
    default: OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, 1); break;
  }
}

}  // namespace

std::string WriteRingArchive(const std::string& directory, int processes, int64_t iterations, bool mixed,
                             bool node_load) {
  OTF2_Archive* archive = OTF2_Archive_Open(directory.c_str(), "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MAX,
                                            OTF2_CHUNK_SIZE_MAX, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  auto Check = [](OTF2_ErrorCode code, const char* what) {
    if (code != OTF2_SUCCESS)
      throw std::runtime_error(std::string("ring OTF2 archive: ") + what + ": " + OTF2_Error_GetDescription(code));
  };
  if (archive == nullptr) throw std::runtime_error("ring OTF2 archive: cannot open " + directory);
  OTF2_FlushCallbacks flush = {
      [](void*, OTF2_FileType, OTF2_LocationRef, void*, bool) -> OTF2_FlushType { return OTF2_FLUSH; },
      [](void*, OTF2_FileType, OTF2_LocationRef) -> OTF2_TimeStamp { return 0; }};
  Check(OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr), "SetFlushCallbacks");
  Check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "SetSerialCollectiveCallbacks");
  Check(OTF2_Archive_OpenEvtFiles(archive), "OpenEvtFiles");
  std::vector<uint64_t> events(static_cast<size_t>(processes));
  const auto P = static_cast<uint32_t>(processes);
  for (uint32_t p = 0; p < P; ++p) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, p);
    OTF2_EvtWriter_Enter(w, nullptr, 1, kRegionMain);
    for (int64_t i = 0; i < iterations; ++i) {
      // 100 ticks per iteration; compute lasts 20 to 59 ticks, varying by
      // rank and iteration so that the aggregation has something to find.
      const auto t = static_cast<OTF2_TimeStamp>(i * 100 + 2);
      const auto busy = static_cast<OTF2_TimeStamp>(20 + (p * 7 + static_cast<uint64_t>(i) * 13) % 40);
      OTF2_EvtWriter_Enter(w, nullptr, t, kRegionCompute);
      OTF2_EvtWriter_Leave(w, nullptr, t + busy, kRegionCompute);
      if (node_load) {
        OTF2_Type type = OTF2_TYPE_INT64;
        OTF2_MetricValue load;
        load.signed_int = static_cast<int64_t>(busy + p);
        OTF2_EvtWriter_Metric(w, nullptr, t + busy, kNodeLoad, 1, &type, &load);
      }
      OTF2_EvtWriter_Enter(w, nullptr, t + 62, kRegionSend);
      OTF2_EvtWriter_MpiSend(w, nullptr, t + 63, (p + 1) % P, 0, 0, 1024);
      OTF2_EvtWriter_Leave(w, nullptr, t + 65, kRegionSend);
      OTF2_EvtWriter_Enter(w, nullptr, t + 70, kRegionRecv);
      OTF2_EvtWriter_MpiRecv(w, nullptr, t + 80 + p % 5, (p + P - 1) % P, 0, 0, 1024);
      OTF2_EvtWriter_Leave(w, nullptr, t + 90, kRegionRecv);
    }
    const auto end = static_cast<OTF2_TimeStamp>(iterations * 100 + 10);
    if (mixed) {
      // Later ranks first, ranks p and p + 3 tie (the writer refuses time
      // going back within a location).
      const int k = static_cast<int>(2 * p);
      WritePunctual(w, end - 6 + (P - p) % 3, k);
      WritePunctual(w, end - 2, k + 1);
      WritePunctual(w, end - 2, k + 3);
    }
    OTF2_EvtWriter_Leave(w, nullptr, end, kRegionMain);
    OTF2_EvtWriter_GetNumberOfEvents(w, &events[p]);
    Check(OTF2_Archive_CloseEvtWriter(archive, w), "CloseEvtWriter");
  }
  Check(OTF2_Archive_CloseEvtFiles(archive), "CloseEvtFiles");
  Check(OTF2_Archive_OpenDefFiles(archive), "OpenDefFiles");
  for (uint32_t p = 0; p < P; ++p) OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, p));
  Check(OTF2_Archive_CloseDefFiles(archive), "CloseDefFiles");

  OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(archive);
  OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000, 0, static_cast<uint64_t>(iterations * 100 + 11),
                                            OTF2_UNDEFINED_TIMESTAMP);
  for (OTF2_StringRef s = 0; s < kFirstRank; ++s) OTF2_GlobalDefWriter_WriteString(d, s, kText[s]);
  for (uint32_t p = 0; p < P; ++p)
    OTF2_GlobalDefWriter_WriteString(d, kFirstRank + p, ("Rank " + std::to_string(p)).c_str());
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, kNode, kNode, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  std::vector<uint64_t> ranks;
  for (uint32_t p = 0; p < P; ++p) {
    OTF2_GlobalDefWriter_WriteLocationGroup(d, p, kFirstRank + p, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    const bool stream = mixed && p % 2 == 1;
    OTF2_GlobalDefWriter_WriteLocation(d, p, kThread,
                                       stream ? OTF2_LOCATION_TYPE_ACCELERATOR_STREAM : OTF2_LOCATION_TYPE_CPU_THREAD,
                                       events[p], p);
    ranks.push_back(p);  // rank p is location p
  }
  const OTF2_StringRef names[] = {kMain, kCompute, kSend, kRecv};
  for (OTF2_RegionRef r = 0; r < 4; ++r)
    OTF2_GlobalDefWriter_WriteRegion(d, r, names[r], names[r], kEmpty, OTF2_REGION_ROLE_FUNCTION,
                                     r >= kRegionSend ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                     OTF2_REGION_FLAG_NONE, kEmpty, 0, 0);
  OTF2_GlobalDefWriter_WriteGroup(d, 0, kEmpty, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, P, ranks.data());
  OTF2_GlobalDefWriter_WriteGroup(d, 1, kEmpty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  P, ranks.data());
  OTF2_GlobalDefWriter_WriteComm(d, 0, kWorld, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  if (node_load) {
    OTF2_GlobalDefWriter_WriteMetricMember(d, 0, kLoad, kEmpty, OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
                                           OTF2_TYPE_INT64, OTF2_BASE_DECIMAL, 0, kEmpty);
    const OTF2_MetricMemberRef member = 0;
    OTF2_GlobalDefWriter_WriteMetricClass(d, kLoadClass, 1, &member, OTF2_METRIC_ASYNCHRONOUS,
                                          OTF2_RECORDER_KIND_ABSTRACT);
    OTF2_GlobalDefWriter_WriteMetricInstance(d, kNodeLoad, kLoadClass, 0, OTF2_SCOPE_SYSTEM_TREE_NODE, 0);
  }
  OTF2_Archive_CloseGlobalDefWriter(archive, d);
  Check(OTF2_Archive_Close(archive), "Close");
  return directory + "/traces.otf2";
}

}  // namespace macroscope::mpi::testing
