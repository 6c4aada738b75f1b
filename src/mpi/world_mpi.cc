// The world over MPI_COMM_WORLD (Debian's OpenMPI).
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string_view>

#include "mpi/world.h"
#include "util/error.h"

namespace macroscope::mpi {

namespace {

// MPI counts are ints: payloads go in pieces of at most this many bytes
// (MACROSCOPE_MPI_ROUND_BYTES, for the tests, makes them small).
size_t RoundBytes() {
  static const size_t bytes = [] {
    const char* given = std::getenv("MACROSCOPE_MPI_ROUND_BYTES");
    const unsigned long long n = given != nullptr ? std::strtoull(given, nullptr, 10) : 0;
    return n > 0 && n < (size_t{1} << 30) ? static_cast<size_t>(n) : size_t{1} << 30;
  }();
  return bytes;
}

int Count(size_t bytes) {
  if (bytes > static_cast<size_t>(INT_MAX)) throw std::logic_error("MPI piece of 2 GiB or more");
  return static_cast<int>(bytes);
}

class MpiWorld final : public World {
 public:
  MpiWorld() {
    MPI_Comm_rank(MPI_COMM_WORLD, &part_);
    MPI_Comm_size(MPI_COMM_WORLD, &parts_);
  }
  int part() const override { return part_; }
  int parts() const override { return parts_; }
  uint64_t bytes_sent() const override { return sent_; }

  void Agree(const std::string& error) override {
    int mine = error.empty() ? INT_MAX : part_, first = INT_MAX;
    sent_ += sizeof mine;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == INT_MAX) return;
    std::string message = From(first, error);
    throw UserError(message);
  }

  double Min(double x) override { return Reduce(x, MPI_MIN); }
  double Max(double x) override { return Reduce(x, MPI_MAX); }
  double Sum(double x) override { return Reduce(x, MPI_SUM); }

  std::vector<std::string> AllToAll(const std::vector<std::string>& to) override {
    std::vector<std::string_view> views(to.begin(), to.end());
    for (int p = 0; p < parts_; ++p)
      if (p != part_) sent_ += to[p].size();
    sent_ += sizeof(uint64_t) * (parts_ - 1);
    return Exchange(views);
  }

  std::vector<std::string> AllGather(const std::string& mine) override {
    sent_ += sizeof(uint64_t) + mine.size();
    return Exchange(std::vector<std::string_view>(parts_, mine));
  }

  std::vector<std::string> Gather(const std::string& mine) override {
    std::vector<std::string_view> to(parts_);
    to[0] = mine;
    if (part_ != 0) sent_ += sizeof(uint64_t) + mine.size();
    std::vector<std::string> all = Exchange(to);
    if (part_ != 0) return {};
    return all;
  }

  std::string Broadcast(const std::string& text) override { return From(0, text); }

 private:
  double Reduce(double x, MPI_Op op) {
    double out = 0;
    sent_ += sizeof x;
    MPI_Allreduce(&x, &out, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
    return out;
  }

  // `root`'s `text` on every part.
  std::string From(int root, const std::string& text) {
    uint64_t size = text.size();
    if (part_ == root) sent_ += (sizeof size + text.size()) * (parts_ - 1);
    MPI_Bcast(&size, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
    std::string out = part_ == root ? text : std::string(size, '\0');
    for (size_t at = 0; at < size; at += RoundBytes())
      MPI_Bcast(out.data() + at, Count(std::min<size_t>(RoundBytes(), size - at)), MPI_BYTE, root, MPI_COMM_WORLD);
    return out;
  }

  // `to[p]` to part p, what every part sent to this one by sender: straight
  // from and into the strings (point to point, no copy), each in pieces of
  // at most RoundBytes() (MPI counts are ints; messages of one pair and one
  // tag arrive in the order they were sent).
  std::vector<std::string> Exchange(const std::vector<std::string_view>& to) {
    constexpr int kTag = 16;
    const size_t n = static_cast<size_t>(parts_), me = static_cast<size_t>(part_);
    std::vector<uint64_t> send_sizes(n), receive_sizes(n);
    for (size_t p = 0; p < n; ++p) send_sizes[p] = to[p].size();
    MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, receive_sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    std::vector<std::string> received(n);
    std::vector<MPI_Request> requests;
    for (size_t p = 0; p < n; ++p) {
      if (p == me) continue;
      received[p].resize(receive_sizes[p]);
      for (size_t at = 0; at < receive_sizes[p]; at += RoundBytes()) {
        requests.emplace_back();
        MPI_Irecv(received[p].data() + at, Count(std::min<size_t>(RoundBytes(), receive_sizes[p] - at)), MPI_BYTE,
                  static_cast<int>(p), kTag, MPI_COMM_WORLD, &requests.back());
      }
    }
    for (size_t p = 0; p < n; ++p) {
      if (p == me) continue;
      for (size_t at = 0; at < send_sizes[p]; at += RoundBytes()) {
        requests.emplace_back();
        MPI_Isend(to[p].data() + at, Count(std::min<size_t>(RoundBytes(), send_sizes[p] - at)), MPI_BYTE,
                  static_cast<int>(p), kTag, MPI_COMM_WORLD, &requests.back());
      }
    }
    received[me] = to[me];
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return received;
  }

  int part_ = 0, parts_ = 1;
  uint64_t sent_ = 0;
};

void Finalize() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

// mpirun's launchers (OpenMPI's, and the PMI ones of MPICH and Slurm) say
// so in the environment; a process started by hand has none of these.
bool UnderMpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

int g_own_stderr = STDERR_FILENO;  // this process's stderr, kept when a part's goes to /dev/null

}  // namespace

World* Launched() {
  static MpiWorld* world = [] () -> MpiWorld* {
    if (!UnderMpirun()) return nullptr;
    MPI_Init(nullptr, nullptr);
    std::atexit(Finalize);
    auto* w = new MpiWorld;  // lives until exit: Finalize runs after it is last used
    if (w->part() != 0) {    // only part 0 speaks
      g_own_stderr = dup(STDERR_FILENO);  // but AbortJob
      std::cout.flush();
      int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      close(null);
    }
    return w;
  }();
  return world;
}

void AbortJob(const std::string& message, int exit_code) {
  World* world = Launched();
  if (world == nullptr || world->parts() < 2) return;
  if (world->part() != 0) {  // part 0 has said it on its stderr already
    const std::string line = "macroscope: rank " + std::to_string(world->part()) + ": " + message + "\n";
    if (write(g_own_stderr, line.data(), line.size()) < 0) {
      // nothing more to try: the job ends anyway
    }
  }
  MPI_Abort(MPI_COMM_WORLD, exit_code);
}

}  // namespace macroscope::mpi
