#include "mpi/statistics_reduction.h"

#include <map>
#include <string>
#include <tuple>

namespace macroscope::mpi {

analysis::Statistics ReduceStatistics(const analysis::Statistics& mine, formats::PartExchange& share) {
  formats::BytesOut out;
  for (const analysis::StatisticsRow& row : mine.rows) {
    out.PutString(row.kind), out.PutString(row.type), out.PutString(row.value);
    out.Put(row.count), out.Put(row.total_time);
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
      row.total_time += in.Get<double>();
    }
  }
  analysis::Statistics reduced = mine;
  reduced.rows.clear();
  double all_state_time = 0;
  for (auto& [key, row] : rows) {
    if (row.kind == TypeKindName(TypeKind::kState)) all_state_time += row.total_time;
    reduced.rows.push_back(row);
  }
  analysis::FinishStatistics(reduced, all_state_time);
  return reduced;
}

}  // namespace macroscope::mpi
