#include "mpi/statistics_reduction.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace macroscope::mpi {

analysis::Statistics ReduceStatistics(const analysis::Statistics& mine, formats::PartExchange& share) {
  formats::BytesOut out;
  for (const analysis::StatisticsRow& row : mine.rows) {
    out.PutString(row.kind), out.PutString(row.type), out.PutString(row.value);
    out.Put(row.count);
    // The exact sum's terms, not its rounding: rank 0's merge is exact, so
    // the rows are a whole reading's to the bit.
    const std::vector<double> terms = row.time.Terms();
    out.Put(static_cast<uint64_t>(terms.size()));
    for (double term : terms) out.Put(term);
  }
  std::vector<std::string> parts = share.Gather(out.bytes());
  if (share.part() != 0) return mine;

  std::map<std::tuple<std::string, std::string, std::string>, analysis::StatisticsRow> rows;
  for (const std::string& bytes : parts) {
    formats::BytesIn in(bytes);
    while (!in.done()) {
      std::string kind(in.GetString()), type(in.GetString()), value(in.GetString());
      analysis::StatisticsRow& row = rows[{kind, type, value}];
      row.kind = kind, row.type = type, row.value = value;
      row.count += in.Get<uint64_t>();
      for (auto terms = in.Get<uint64_t>(); terms > 0; --terms) row.time.Add(in.Get<double>());
    }
  }
  analysis::Statistics reduced = mine;
  reduced.rows.clear();
  for (auto& [key, row] : rows) reduced.rows.push_back(row);
  analysis::FinishStatistics(reduced);
  return reduced;
}

}  // namespace macroscope::mpi
