// The resource hierarchy of a microscopic model: a tree of named nodes.
//
// Node 0 is the root; it has no name and stands for "all resources". Every
// other node has a non-empty name, unique among its siblings. A node's path
// is the slash-separated list of names from below the root down to it
// ("site/cluster/node3"); the root's path is "". Nodes keep the order in
// which they were added, so every traversal is deterministic.
//
// Data of a model sits on leaves only. An internal container that carries
// data itself gets a virtual leaf child named kSelfName ("(self)"); see
// LeafFor().
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::analysis {

using NodeId = int32_t;

class Hierarchy {
 public:
  static constexpr NodeId kRoot = 0;
  static constexpr NodeId kNoParent = -1;
  static constexpr std::string_view kSelfName = "(self)";

  Hierarchy();

  // Adds a child named `name` under `parent` and returns its id. Throws
  // std::invalid_argument when parent is not a node, the name is empty or
  // contains '/', or a sibling already has that name.
  NodeId AddChild(NodeId parent, std::string_view name);

  // The child of `parent` named `name`, if any.
  std::optional<NodeId> FindChild(NodeId parent, std::string_view name) const;

  // The node at `path` (see above; "" is the root), if any.
  std::optional<NodeId> FindPath(std::string_view path) const;

  // Finds or creates every node along `path`. Throws std::invalid_argument
  // on an empty path component.
  NodeId AddPath(std::string_view path);

  // The leaf that holds the data of `node`: the node itself when it has no
  // children, otherwise its kSelfName child (created when missing).
  NodeId LeafFor(NodeId node);

  int32_t size() const { return static_cast<int32_t>(names_.size()); }
  const std::string& Name(NodeId node) const { return names_[node]; }
  NodeId Parent(NodeId node) const { return parents_[node]; }
  std::span<const NodeId> Children(NodeId node) const { return children_[node]; }
  bool IsLeaf(NodeId node) const { return children_[node].empty(); }
  std::string Path(NodeId node) const;

  // Every leaf, in depth-first pre-order.
  std::vector<NodeId> Leaves() const;
  // Every node such that children come before their parent (post-order).
  std::vector<NodeId> PostOrder() const;

 private:
  std::vector<std::string> names_;
  std::vector<NodeId> parents_;
  std::vector<std::vector<NodeId>> children_;
};

}  // namespace macroscope::analysis
