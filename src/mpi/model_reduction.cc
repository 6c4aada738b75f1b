#include "mpi/model_reduction.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace macroscope::mpi {

using analysis::Hierarchy;
using analysis::MicroModel;
using analysis::NodeId;

MicroModel ReduceModel(const MicroModel& mine, formats::PartExchange& share) {
  // 1. The structure: every part's "(self)" leaves (by their parent, a
  // container node, numbered alike in every part: BuildModel adds the
  // container tree first) and types.
  const Hierarchy& tree = mine.hierarchy();
  formats::BytesOut structure;
  std::vector<NodeId> selves;
  for (NodeId leaf : mine.leaves())
    if (tree.Name(leaf) == Hierarchy::kSelfName) selves.push_back(tree.Parent(leaf));
  structure.Put<uint64_t>(selves.size());
  for (NodeId parent : selves) structure.Put(parent);
  structure.Put<uint64_t>(mine.types().size());
  for (const std::string& type : mine.types()) structure.PutString(type);

  std::set<NodeId> all_selves;
  std::set<std::string> all_types;
  for (const std::string& bytes : share.AllGather(structure.bytes())) {
    formats::BytesIn in(bytes);
    for (auto n = in.Get<uint64_t>(); n > 0; --n) all_selves.insert(in.Get<NodeId>());
    for (auto n = in.Get<uint64_t>(); n > 0; --n) all_types.emplace(in.GetString());
  }

  // 2. The whole model's hierarchy: the containers as they are, then the
  // "(self)" leaves, as BuildModel adds them.
  Hierarchy whole;
  std::vector<NodeId> node_of(static_cast<size_t>(tree.size()), Hierarchy::kNoParent);
  node_of[Hierarchy::kRoot] = Hierarchy::kRoot;
  for (NodeId n = 1; n < tree.size(); ++n)
    if (tree.Name(n) != Hierarchy::kSelfName) node_of[n] = whole.AddChild(node_of[tree.Parent(n)], tree.Name(n));
  for (NodeId parent : all_selves) whole.LeafFor(node_of[parent]);
  for (NodeId n = 1; n < tree.size(); ++n)
    if (tree.Name(n) == Hierarchy::kSelfName) node_of[n] = *whole.FindChild(node_of[tree.Parent(n)], tree.Name(n));
  const std::vector<std::string> types(all_types.begin(), all_types.end());
  MicroModel reduced(std::move(whole), types, mine.slices());
  if (mine.range()) reduced.set_range(*mine.range());

  // 3. The values: each part's non-zero series, in the whole model's
  // numbering, summed on part 0 in part order.
  formats::BytesOut values;
  const int32_t slices = mine.slices();
  for (int32_t leaf = 0; leaf < mine.leaf_count(); ++leaf) {
    for (int32_t type = 0; type < mine.type_count(); ++type) {
      std::span<const double> series = mine.Series(leaf, type);
      if (series.empty()) continue;
      values.Put(node_of[mine.leaves()[leaf]]);
      auto whole_type = std::lower_bound(types.begin(), types.end(), mine.types()[type]) - types.begin();
      values.Put(static_cast<int32_t>(whole_type));
      for (double x : series) values.Put(x);
    }
  }
  for (const std::string& bytes : share.Gather(values.bytes())) {
    formats::BytesIn in(bytes);
    while (!in.done()) {
      auto leaf = in.Get<NodeId>();
      auto type = in.Get<int32_t>();
      for (int32_t slice = 0; slice < slices; ++slice)
        if (double x = in.Get<double>(); x != 0) reduced.Add(leaf, type, slice, x);
    }
  }
  return reduced;
}

}  // namespace macroscope::mpi
