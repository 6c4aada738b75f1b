#include "analysis/model_cache.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "util/atomic_file.h"
#include "util/checksum.h"

namespace macroscope::analysis {

namespace {

constexpr char kMagic[] = "macroscope-model-cache 3\n";  // 2: the time base; 3: XXH3 checksum

std::string KeyPrefix(const std::string& key) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(ChainChecksum(key)));
  return std::string("model-") + hex + "-";
}

// Reads one cache file; nullopt unless it is whole, of this version and for `key`.
std::optional<MicroModel> ReadEntry(const std::filesystem::path& path, const std::string& key) {
  std::ifstream in(path, std::ios::binary);
  std::string magic(sizeof kMagic - 1, '\0');
  if (!in.read(magic.data(), static_cast<std::streamsize>(magic.size())) || magic != kMagic) return std::nullopt;
  std::string header_line;
  if (!std::getline(in, header_line)) return std::nullopt;
  nlohmann::json header = nlohmann::json::parse(header_line, nullptr, false);
  if (header.is_discarded() || header.value("key", "") != key) return std::nullopt;
  try {
    Hierarchy hierarchy;
    for (const auto& path_text : header.at("nodes")) hierarchy.AddPath(path_text.get<std::string>());
    MicroModel model(std::move(hierarchy), header.at("types").get<std::vector<std::string>>(),
                     header.at("slices").get<int32_t>());
    if (header.contains("range")) {
      const auto& b = header.at("time_base");
      TimeBase base{.num = b.at(0).get<uint64_t>(),
                    .den = b.at(1).get<uint64_t>(),
                    .whole_ticks = b.at(2).get<bool>(),
                    .origin = b.at(3).get<int64_t>(),
                    .epoch_ns = b.at(4).is_null() ? std::nullopt : std::optional<int64_t>(b.at(4).get<int64_t>())};
      if (base.num == 0 || base.den == 0) return std::nullopt;
      model.set_range({header["range"][0], header["range"][1], base});
    }
    const int32_t slices = model.slices();
    std::vector<double> values(static_cast<size_t>(slices));
    uint64_t checksum = 0;
    for (int64_t n = header.at("series").get<int64_t>(); n > 0; --n) {
      int32_t ids[2];
      if (!in.read(reinterpret_cast<char*>(ids), sizeof ids)) return std::nullopt;
      if (!in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(double))))
        return std::nullopt;
      checksum = ChainChecksum({reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double)}, checksum);
      if (ids[0] < 0 || ids[0] >= model.leaf_count() || ids[1] < 0 || ids[1] >= model.type_count()) return std::nullopt;
      NodeId leaf = model.leaves()[static_cast<size_t>(ids[0])];
      for (int32_t t = 0; t < slices; ++t)
        if (values[static_cast<size_t>(t)] != 0) model.Add(leaf, ids[1], t, values[static_cast<size_t>(t)]);
    }
    if (header.value("checksum", uint64_t{0}) != checksum) return std::nullopt;
    return model;
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged entry is a miss
  }
}

}  // namespace

std::string DefaultCacheDirectory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
    return std::string(xdg) + "/macroscope";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::string(home) + "/.cache/macroscope";
  return {};
}

std::optional<MicroModel> ModelCache::Find(const std::string& key, int32_t slices, bool coarsen) const {
  std::error_code ec;
  if (directory_.empty() || !std::filesystem::is_directory(directory_, ec)) return std::nullopt;
  const std::string prefix = KeyPrefix(key);
  // The exact entry first, then the smallest multiple.
  std::optional<std::pair<int32_t, std::filesystem::path>> best;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    int32_t cached = std::atoi(name.c_str() + prefix.size());
    if (cached < 1 || cached % slices != 0 || (cached != slices && !coarsen)) continue;
    if (!best || cached < best->first) best.emplace(cached, entry.path());
  }
  if (!best) return std::nullopt;
  std::optional<MicroModel> model = ReadEntry(best->second, key);
  if (!model) return std::nullopt;
  if (best->first == slices) return model;
  return model->Coarsen(best->first / slices);
}

bool ModelCache::Store(const std::string& key, const MicroModel& model) const {
  if (directory_.empty()) return false;
  try {
    std::filesystem::create_directories(directory_);
    nlohmann::json header;
    header["key"] = key;
    nlohmann::json nodes = nlohmann::json::array();
    const Hierarchy& h = model.hierarchy();
    for (NodeId n = 1; n < h.size(); ++n) nodes.push_back(h.Path(n));
    header["nodes"] = std::move(nodes);
    header["types"] = model.types();
    header["slices"] = model.slices();
    if (model.range()) {
      header["range"] = {model.range()->begin, model.range()->end};
      const TimeBase& b = model.range()->base;
      header["time_base"] = {b.num, b.den, b.whole_ticks, b.origin,
                             b.epoch_ns ? nlohmann::json(*b.epoch_ns) : nlohmann::json()};
    }
    // The body: each non-zero series, its (leaf, type) then its values,
    // written from the model (a copy would double a large model's memory).
    auto for_each_series = [&](auto&& f) {
      for (int32_t leaf = 0; leaf < model.leaf_count(); ++leaf) {
        for (int32_t type = 0; type < model.type_count(); ++type) {
          auto values = model.Series(leaf, type);
          if (values.empty()) continue;
          f(leaf, type, std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double)));
        }
      }
    };
    int64_t series = 0;
    uint64_t checksum = 0;
    for_each_series([&](int32_t, int32_t, std::string_view bytes) {
      checksum = ChainChecksum(bytes, checksum);
      ++series;
    });
    header["series"] = series;
    header["checksum"] = checksum;
    std::string path = directory_ + "/" + KeyPrefix(key) + std::to_string(model.slices());
    AtomicFile file(path);
    std::string head = header.dump();
    bool ok = std::fwrite(kMagic, 1, sizeof kMagic - 1, file.stream()) == sizeof kMagic - 1 &&
              std::fwrite(head.data(), 1, head.size(), file.stream()) == head.size() &&
              std::fputc('\n', file.stream()) != EOF;
    for_each_series([&](int32_t leaf, int32_t type, std::string_view bytes) {
      const int32_t ids[2] = {leaf, type};
      ok = ok && std::fwrite(ids, sizeof ids, 1, file.stream()) == 1 &&
           std::fwrite(bytes.data(), 1, bytes.size(), file.stream()) == bytes.size();
    });
    if (!ok) return false;
    file.Commit(false);  // checked when read back (checksum): no sync
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace macroscope::analysis
