// `random_otf2_archive DIRECTORY PROCESSES EVENTS [SEED]`: an OTF2 archive
// written with the OTF2 library, of about EVENTS records over PROCESSES
// ranks (one thread each), in a shape no analysis was tuned for: rounds in
// which every rank runs a random call tree (24 functions, up to 8 deep,
// recursion allowed, lengths drawn from a heavy tail) and then sends one
// message to a partner of a random permutation, of a size drawn
// log-uniformly from 1 B to 4 MiB, and receives one. A tick is a
// nanosecond; the times of a rank never repeat. bench/profiles reads it
// with macroscope and with pipit.
#include <otf2/otf2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kFunctions = 24;
constexpr int kMaxDepth = 8;
// Strings: 0 "", 1 node, 2 thread, 3 MPI_COMM_WORLD, 4 MPI_Send, 5 MPI_Recv,
// 6 main, then the functions, then the ranks.
enum : OTF2_StringRef { kEmpty, kNode, kThread, kWorld, kSendName, kRecvName, kMainName, kFirstFunction };
enum : OTF2_RegionRef { kRegionSend, kRegionRecv, kRegionMain, kFirstRegion };

void Check(OTF2_ErrorCode code, const char* what) {
  if (code != OTF2_SUCCESS) throw std::runtime_error(std::string(what) + ": " + OTF2_Error_GetDescription(code));
}

struct Rank {
  OTF2_EvtWriter* writer = nullptr;
  uint64_t now = 0;  // the last time written
  uint64_t events = 0;
  std::mt19937_64 random;

  uint64_t Next() {  // a later time, by a step from a heavy tail
    std::exponential_distribution<double> step(1.0 / 40);
    now += 1 + static_cast<uint64_t>(step(random) * (random() % 16 == 0 ? 50 : 1));
    return now;
  }
  void Enter(OTF2_RegionRef region) {
    OTF2_EvtWriter_Enter(writer, nullptr, Next(), region);
    ++events;
  }
  void Leave(OTF2_RegionRef region) {
    OTF2_EvtWriter_Leave(writer, nullptr, Next(), region);
    ++events;
  }
  // A random call tree under the current frame, `depth` deep already.
  void Calls(int depth, uint64_t& budget) {
    std::uniform_int_distribution<int> function(0, kFunctions - 1), count(0, 3);
    const int calls = depth == 0 ? 1 + count(random) : count(random);
    for (int c = 0; c < calls && budget >= 2; ++c) {
      const OTF2_RegionRef region = kFirstRegion + static_cast<OTF2_RegionRef>(function(random));
      budget -= 2;
      Enter(region);
      if (depth + 1 < kMaxDepth) Calls(depth + 1, budget);
      Leave(region);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: random_otf2_archive DIRECTORY PROCESSES EVENTS [SEED]\n");
    return 1;
  }
  try {
    const std::string directory = argv[1];
    const auto P = static_cast<uint32_t>(std::stoul(argv[2]));
    const uint64_t target = std::stoull(argv[3]);
    const uint64_t seed = argc == 5 ? std::stoull(argv[4]) : 42;
    if (P < 2) throw std::runtime_error("at least 2 processes");
    // Score-P's chunk sizes (1 MiB of events, 256 KiB of definitions, as the
    // archives it writes say): a reader allocates one chunk a location.
    constexpr uint64_t kEventChunk = 1 << 20, kDefinitionChunk = 1 << 18;
    OTF2_Archive* archive = OTF2_Archive_Open(directory.c_str(), "traces", OTF2_FILEMODE_WRITE, kEventChunk,
                                              kDefinitionChunk, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (archive == nullptr) throw std::runtime_error("cannot open " + directory);
    OTF2_FlushCallbacks flush = {
        [](void*, OTF2_FileType, OTF2_LocationRef, void*, bool) -> OTF2_FlushType { return OTF2_FLUSH; },
        [](void*, OTF2_FileType, OTF2_LocationRef) -> OTF2_TimeStamp { return 0; }};
    Check(OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr), "SetFlushCallbacks");
    Check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "SetSerialCollectiveCallbacks");
    Check(OTF2_Archive_OpenEvtFiles(archive), "OpenEvtFiles");
    std::vector<Rank> ranks(P);
    std::mt19937_64 world(seed);
    for (uint32_t p = 0; p < P; ++p) {
      ranks[p].writer = OTF2_Archive_GetEvtWriter(archive, p);
      ranks[p].random.seed(seed * 1000003 + p);
      ranks[p].Enter(kRegionMain);
    }
    std::vector<uint32_t> partner(P);
    std::uniform_real_distribution<double> log_size(0, std::log(4.0 * 1024 * 1024));
    uint64_t written = 0;
    for (uint32_t tag = 0; written < target; ++tag) {
      // A derangement-free permutation is not needed: a rank may message itself.
      std::iota(partner.begin(), partner.end(), 0);
      std::shuffle(partner.begin(), partner.end(), world);
      std::vector<uint64_t> sizes(P), sent(P);
      for (uint32_t p = 0; p < P; ++p) {
        Rank& r = ranks[p];
        uint64_t budget = 2 * (1 + r.random() % 12);
        r.Calls(0, budget);
        sizes[p] = static_cast<uint64_t>(std::exp(log_size(world)));
        r.Enter(kRegionSend);
        sent[p] = r.Next();
        OTF2_EvtWriter_MpiSend(r.writer, nullptr, sent[p], partner[p], 0, tag, sizes[p]);
        ++r.events;
        r.Leave(kRegionSend);
      }
      for (uint32_t p = 0; p < P; ++p) {
        const uint32_t from = static_cast<uint32_t>(std::find(partner.begin(), partner.end(), p) - partner.begin());
        Rank& r = ranks[p];
        r.Enter(kRegionRecv);
        r.now = std::max(r.now, sent[from]);  // received after it was sent
        OTF2_EvtWriter_MpiRecv(r.writer, nullptr, r.Next(), from, 0, tag, sizes[from]);
        ++r.events;
        r.Leave(kRegionRecv);
      }
      written = 0;
      for (const Rank& r : ranks) written += r.events;
    }
    uint64_t end = 0;
    for (Rank& r : ranks) {
      r.Leave(kRegionMain);
      end = std::max(end, r.now);
      Check(OTF2_Archive_CloseEvtWriter(archive, r.writer), "CloseEvtWriter");
    }
    Check(OTF2_Archive_CloseEvtFiles(archive), "CloseEvtFiles");
    Check(OTF2_Archive_OpenDefFiles(archive), "OpenDefFiles");
    for (uint32_t p = 0; p < P; ++p) OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, p));
    Check(OTF2_Archive_CloseDefFiles(archive), "CloseDefFiles");
    OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(archive);
    OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000, 0, end + 1, OTF2_UNDEFINED_TIMESTAMP);
    const char* fixed[] = {"", "node", "thread", "MPI_COMM_WORLD", "MPI_Send", "MPI_Recv", "main"};
    for (OTF2_StringRef s = 0; s < kFirstFunction; ++s) OTF2_GlobalDefWriter_WriteString(d, s, fixed[s]);
    for (int f = 0; f < kFunctions; ++f)
      OTF2_GlobalDefWriter_WriteString(d, kFirstFunction + f, ("function_" + std::to_string(f)).c_str());
    const OTF2_StringRef first_rank = kFirstFunction + kFunctions;
    for (uint32_t p = 0; p < P; ++p)
      OTF2_GlobalDefWriter_WriteString(d, first_rank + p, ("Rank " + std::to_string(p)).c_str());
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, kNode, kNode, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    std::vector<uint64_t> members;
    for (uint32_t p = 0; p < P; ++p) {
      OTF2_GlobalDefWriter_WriteLocationGroup(d, p, first_rank + p, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                              OTF2_UNDEFINED_LOCATION_GROUP);
      OTF2_GlobalDefWriter_WriteLocation(d, p, kThread, OTF2_LOCATION_TYPE_CPU_THREAD, ranks[p].events, p);
      members.push_back(p);
    }
    OTF2_GlobalDefWriter_WriteRegion(d, kRegionSend, kSendName, kSendName, kEmpty, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, kEmpty, 0, 0);
    OTF2_GlobalDefWriter_WriteRegion(d, kRegionRecv, kRecvName, kRecvName, kEmpty, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, kEmpty, 0, 0);
    OTF2_GlobalDefWriter_WriteRegion(d, kRegionMain, kMainName, kMainName, kEmpty, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, kEmpty, 0, 0);
    for (int f = 0; f < kFunctions; ++f) {
      const OTF2_StringRef name = kFirstFunction + f;
      OTF2_GlobalDefWriter_WriteRegion(d, kFirstRegion + f, name, name, kEmpty, OTF2_REGION_ROLE_FUNCTION,
                                       OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, kEmpty, 0, 0);
    }
    OTF2_GlobalDefWriter_WriteGroup(d, 0, kEmpty, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, P, members.data());
    OTF2_GlobalDefWriter_WriteGroup(d, 1, kEmpty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, P, members.data());
    OTF2_GlobalDefWriter_WriteComm(d, 0, kWorld, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_Archive_CloseGlobalDefWriter(archive, d);
    Check(OTF2_Archive_Close(archive), "Close");
    std::printf("%s/traces.otf2 %llu\n", directory.c_str(), static_cast<unsigned long long>(written + P));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "random_otf2_archive: %s\n", e.what());
    return 1;
  }
  return 0;
}
