#include "analysis/hierarchy.h"

#include <stdexcept>

namespace macroscope::analysis {

Hierarchy::Hierarchy() : names_{""}, parents_{kNoParent}, children_(1) {}

NodeId Hierarchy::AddChild(NodeId parent, std::string_view name) {
  if (parent < 0 || parent >= size()) throw std::invalid_argument("no such parent node");
  if (name.empty()) throw std::invalid_argument("empty node name");
  if (name.find('/') != std::string_view::npos) {
    throw std::invalid_argument("node name contains '/'");
  }
  if (FindChild(parent, name)) {
    throw std::invalid_argument("duplicate node name '" + std::string(name) + "'");
  }
  NodeId id = size();
  names_.emplace_back(name);
  parents_.push_back(parent);
  children_.emplace_back();
  children_[parent].push_back(id);
  return id;
}

std::optional<NodeId> Hierarchy::FindChild(NodeId parent, std::string_view name) const {
  for (NodeId child : children_[parent]) {
    if (names_[child] == name) return child;
  }
  return std::nullopt;
}

namespace {

// Calls fn(component) for each slash-separated component; an empty path has
// none. Returns false as soon as fn does.
template <typename Fn>
bool ForEachComponent(std::string_view path, Fn fn) {
  if (path.empty()) return true;
  size_t begin = 0;
  while (true) {
    size_t end = path.find('/', begin);
    std::string_view part = path.substr(begin, end == std::string_view::npos ? end : end - begin);
    if (!fn(part)) return false;
    if (end == std::string_view::npos) return true;
    begin = end + 1;
  }
}

}  // namespace

std::optional<NodeId> Hierarchy::FindPath(std::string_view path) const {
  NodeId node = kRoot;
  bool found = ForEachComponent(path, [&](std::string_view part) {
    auto child = FindChild(node, part);
    if (!child) return false;
    node = *child;
    return true;
  });
  if (!found) return std::nullopt;
  return node;
}

NodeId Hierarchy::AddPath(std::string_view path) {
  NodeId node = kRoot;
  ForEachComponent(path, [&](std::string_view part) {
    if (part.empty()) throw std::invalid_argument("empty name in path");
    auto child = FindChild(node, part);
    node = child ? *child : AddChild(node, part);
    return true;
  });
  return node;
}

NodeId Hierarchy::LeafFor(NodeId node) {
  if (IsLeaf(node)) return node;
  if (auto self = FindChild(node, kSelfName)) return *self;
  return AddChild(node, kSelfName);
}

std::string Hierarchy::Path(NodeId node) const {
  std::vector<NodeId> chain;
  for (NodeId n = node; n != kRoot; n = parents_[n]) chain.push_back(n);
  std::string path;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!path.empty()) path += '/';
    path += names_[*it];
  }
  return path;
}

std::vector<NodeId> Hierarchy::Leaves() const {
  std::vector<NodeId> leaves;
  std::vector<NodeId> stack{kRoot};
  while (!stack.empty()) {
    NodeId node = stack.back();
    stack.pop_back();
    if (IsLeaf(node)) leaves.push_back(node);
    for (auto it = children_[node].rbegin(); it != children_[node].rend(); ++it) {
      stack.push_back(*it);
    }
  }
  return leaves;
}

std::vector<NodeId> Hierarchy::PostOrder() const {
  // Reverse of a pre-order that visits children right to left.
  std::vector<NodeId> order;
  std::vector<NodeId> stack{kRoot};
  while (!stack.empty()) {
    NodeId node = stack.back();
    stack.pop_back();
    order.push_back(node);
    for (NodeId child : children_[node]) stack.push_back(child);
  }
  return {order.rbegin(), order.rend()};
}

}  // namespace macroscope::analysis
