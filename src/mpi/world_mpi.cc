// The world over MPI_COMM_WORLD (Debian's OpenMPI).
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "mpi/world.h"
#include "util/error.h"

namespace macroscope::mpi {

namespace {

// MPI counts are ints: a message of 2 GiB or more would need chunking.
int Count(size_t bytes) {
  if (bytes > static_cast<size_t>(INT_MAX)) throw std::length_error("MPI message of 2 GiB or more");
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
    std::vector<int> send_counts(parts_), receive_counts(parts_), send_at(parts_), receive_at(parts_);
    std::string send;
    for (int p = 0; p < parts_; ++p) {
      send_at[p] = Count(send.size());
      send_counts[p] = Count(to[p].size());
      send += to[p];
      if (p != part_) sent_ += to[p].size();
    }
    sent_ += sizeof(int) * (parts_ - 1);
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    size_t total = 0;
    for (int p = 0; p < parts_; ++p) receive_at[p] = Count(total), total += receive_counts[p];
    std::string received(total, '\0');
    MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_BYTE, received.data(), receive_counts.data(),
                  receive_at.data(), MPI_BYTE, MPI_COMM_WORLD);
    return Split(received, receive_counts, receive_at);
  }

  std::vector<std::string> AllGather(const std::string& mine) override {
    int size = Count(mine.size());
    std::vector<int> counts(parts_), at(parts_);
    sent_ += sizeof size + mine.size();
    MPI_Allgather(&size, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    size_t total = 0;
    for (int p = 0; p < parts_; ++p) at[p] = Count(total), total += counts[p];
    std::string all(total, '\0');
    MPI_Allgatherv(mine.data(), size, MPI_BYTE, all.data(), counts.data(), at.data(), MPI_BYTE, MPI_COMM_WORLD);
    return Split(all, counts, at);
  }

  std::vector<std::string> Gather(const std::string& mine) override {
    int size = Count(mine.size());
    std::vector<int> counts(parts_), at(parts_);
    if (part_ != 0) sent_ += sizeof size + mine.size();
    MPI_Gather(&size, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    size_t total = 0;
    for (int p = 0; p < parts_; ++p) at[p] = Count(total), total += counts[p];
    std::string all(part_ == 0 ? total : 0, '\0');
    MPI_Gatherv(mine.data(), size, MPI_BYTE, all.data(), counts.data(), at.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
    if (part_ != 0) return {};
    return Split(all, counts, at);
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
    MPI_Bcast(out.data(), Count(size), MPI_BYTE, root, MPI_COMM_WORLD);
    return out;
  }

  static std::vector<std::string> Split(const std::string& all, const std::vector<int>& counts,
                                        const std::vector<int>& at) {
    std::vector<std::string> out;
    for (size_t p = 0; p < counts.size(); ++p) out.push_back(all.substr(at[p], counts[p]));
    return out;
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

}  // namespace

World* Launched() {
  static MpiWorld* world = [] () -> MpiWorld* {
    if (!UnderMpirun()) return nullptr;
    MPI_Init(nullptr, nullptr);
    std::atexit(Finalize);
    auto* w = new MpiWorld;  // lives until exit: Finalize runs after it is last used
    if (w->part() != 0) {    // only part 0 speaks
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

}  // namespace macroscope::mpi
