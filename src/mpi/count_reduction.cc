#include "mpi/count_reduction.h"

#include <stdexcept>
#include <string>

namespace macroscope::mpi {

std::vector<uint64_t> ReduceCounts(const std::vector<uint64_t>& mine, formats::PartExchange& share) {
  formats::BytesOut out;
  for (uint64_t n : mine) out.Put(n);
  std::vector<std::string> parts = share.Gather(out.bytes());
  if (share.part() != 0) return mine;
  std::vector<uint64_t> sum(mine.size(), 0);
  for (const std::string& bytes : parts) {
    formats::BytesIn in(bytes);
    for (uint64_t& n : sum) n += in.Get<uint64_t>();
    if (!in.done()) throw std::logic_error("count reduction: parts counted differently");
  }
  return sum;
}

}  // namespace macroscope::mpi
