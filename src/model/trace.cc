#include "model/trace.h"

#include <algorithm>

namespace macroscope {

std::string_view TypeKindName(TypeKind kind) {
  switch (kind) {
    case TypeKind::kContainer: return "container";
    case TypeKind::kState: return "state";
    case TypeKind::kEvent: return "event";
    case TypeKind::kVariable: return "variable";
    case TypeKind::kLink: return "link";
  }
  return "?";
}

uint32_t ExtraColumn::AddFields(std::span<const ExtraField> fields) {
  fields_.insert(fields_.end(), fields.begin(), fields.end());
  list_begin_.push_back(static_cast<uint32_t>(fields_.size()));
  return static_cast<uint32_t>(list_begin_.size() - 2);
}

void ExtraColumn::Set(std::vector<uint32_t>& column, size_t entity, uint32_t list) {
  if (list == kNoList && entity >= column.size()) return;
  if (entity >= column.size()) column.resize(entity + 1, kNoList);
  column[entity] = list;
}

Trace::Trace() : Trace(std::make_shared<StringPool>()) {}

Trace::Trace(std::shared_ptr<StringPool> strings) : strings_(std::move(strings)) {
  StringId zero = strings_->Intern("0");
  Type root;
  root.name = zero;
  root.alias = zero;
  types_.push_back(root);
  Container c;
  c.name = zero;
  c.alias = zero;
  c.type = kRootType;
  c.start = 0;
  containers_.push_back(c);
}

TypeId Trace::AddType(TypeId parent, TypeKind kind, StringId name, StringId alias) {
  auto id = static_cast<TypeId>(types_.size());
  Type t;
  t.name = name;
  t.alias = alias;
  t.kind = kind;
  t.parent = parent;
  types_.push_back(t);
  types_[parent].children.push_back(id);
  return id;
}

ContainerId Trace::AddContainer(ContainerId parent, TypeId type, StringId name, StringId alias,
                                double time) {
  auto id = static_cast<ContainerId>(containers_.size());
  Container c;
  c.name = name;
  c.alias = alias;
  c.type = type;
  c.parent = parent;
  c.start = time;
  containers_.push_back(std::move(c));
  containers_[parent].children.push_back(id);
  return id;
}

uint32_t Trace::AddValue(TypeId type, StringId name, StringId alias, StringId color) {
  values_.push_back({type, name, alias, color});
  return static_cast<uint32_t>(values_.size() - 1);
}

EntityStore& Trace::Store(ContainerId container, TypeId type) {
  auto& list = containers_[container].stores;
  for (auto& [t, index] : list)
    if (t == type) return stores_[index];
  auto index = static_cast<uint32_t>(stores_.size());
  list.emplace_back(type, index);
  EntityStore& s = stores_.emplace_back();
  s.kind = types_[type].kind;
  s.container = container;
  s.type = type;
  return s;
}

TypeId Trace::AppendType(Type t) {
  types_.push_back(std::move(t));
  return static_cast<TypeId>(types_.size() - 1);
}

ContainerId Trace::AppendContainer(Container c) {
  containers_.push_back(std::move(c));
  return static_cast<ContainerId>(containers_.size() - 1);
}

uint32_t Trace::AppendStore(EntityStore s) {
  stores_.push_back(std::move(s));
  return static_cast<uint32_t>(stores_.size() - 1);
}

const EntityStore* Trace::FindStore(ContainerId container, TypeId type) const {
  for (auto& [t, index] : containers_[container].stores)
    if (t == type) return &stores_[index];
  return nullptr;
}

void Trace::BuildIndexes() {
  for (auto& s : stores_) {
    std::span<const double> ends = s.end.empty() ? std::span<const double>(s.start) : s.end;
    s.index = IntervalIndex(s.start, ends);
  }
}

std::vector<uint32_t> Trace::Entities(TypeId type, ContainerId container, double t1, double t2) const {
  const EntityStore* s = FindStore(container, type);
  if (s == nullptr) return {};
  return s->index.Query(t1, t2);
}

size_t Trace::CountEntities(TypeKind kind) const {
  size_t n = 0;
  for (auto& s : stores_)
    if (s.kind == kind) n += s.size();
  return n;
}

std::string Trace::ContainerPath(ContainerId id) const {
  std::vector<std::string_view> parts;
  for (ContainerId c = id; c != kRootContainer && c != kNone; c = containers_[c].parent) {
    parts.push_back(Str(containers_[c].name));
  }
  std::string path;
  for (size_t i = parts.size(); i-- > 0;) {
    path += parts[i];
    if (i) path += "/";
  }
  return path;
}

}  // namespace macroscope
