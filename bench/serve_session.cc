// A scripted session against `macroscope serve` (bench/serve): zooms and
// pans of the space-time window at a fixed width, then aggregation
// requests (another p, another slice count, the p list). Prints one line
// per request class: count, p50 and p99 latency in milliseconds, and the
// median of the "peer window" given on the command line (so that the
// script can compare it with `macroscope dump` on the same window).
//
// Window requests ask for ROWS leaf containers (a screen of rows, as the UI
// does), moving down the list as the session scrolls.
//
// Usage: serve_session PORT WIDTH ROWS PEER_START PEER_END
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace {

struct Latencies {
  std::vector<double> ms;
  double Percentile(double q) const {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const size_t i = std::min(sorted.size() - 1, static_cast<size_t>(q * static_cast<double>(sorted.size())));
    return sorted[i];
  }
};

class Session {
 public:
  explicit Session(int port) : client_("127.0.0.1", port) { client_.set_read_timeout(600, 0); }

  // GET path, timed into `into`; exits on a failed request (a benchmark of
  // errors would be meaningless).
  std::string Get(const std::string& path, Latencies& into) {
    const auto begin = std::chrono::steady_clock::now();
    auto result = client_.Get(path.c_str());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    if (!result || result->status != 200) {
      std::fprintf(stderr, "serve_session: %s failed: %s\n", path.c_str(),
                   result ? result->body.c_str() : httplib::to_string(result.error()).c_str());
      std::exit(1);
    }
    into.ms.push_back(ms);
    return result->body;
  }

 private:
  httplib::Client client_;
};

// The rows of one screen, as the UI asks for them: `rows` leaf containers
// from `first` on.
std::string Rows(const std::vector<int>& leaves, size_t first, size_t rows) {
  std::string list;
  for (size_t i = first; i < std::min(leaves.size(), first + rows); ++i) {
    list += (list.empty() ? "" : ",") + std::to_string(leaves[i]);
  }
  return list;
}

std::string Window(double start, double end, int width, const std::string& rows) {
  char path[160];
  std::snprintf(path, sizeof path, "/api/traces/0/window?start=%.17g&end=%.17g&width=%d", start, end, width);
  return path + (rows.empty() ? std::string() : "&containers=" + rows);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: serve_session PORT WIDTH ROWS PEER_START PEER_END\n");
    return 1;
  }
  const int port = std::atoi(argv[1]);
  const int width = std::atoi(argv[2]);
  const size_t rows = static_cast<size_t>(std::atoi(argv[3]));
  const double peer_start = std::atof(argv[4]), peer_end = std::atof(argv[5]);
  Session session(port);
  std::map<std::string, Latencies> classes;
  auto trace = nlohmann::json::parse(session.Get("/api/traces/0", classes["trace details"]));
  const double t0 = trace["start"], t1 = trace["end"];
  const double span = t1 - t0;
  std::vector<int> leaves;
  std::vector<bool> parent(trace["containers"].size() + 1, false);
  for (const auto& c : trace["containers"]) parent[c["parent"].get<size_t>()] = true;
  for (const auto& c : trace["containers"])
    if (!parent[c["id"].get<size_t>()]) leaves.push_back(c["id"]);

  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> unit(0, 1);
  // Zooms: from the full span down by halves to span / 2^20, each centred
  // on a random point, five times over.
  uint64_t entities = 0;
  auto random_band = [&] {
    const size_t last_first = leaves.size() - std::min(leaves.size(), rows);
    return Rows(leaves, static_cast<size_t>(unit(random) * static_cast<double>(last_first)), rows);
  };
  for (int round = 0; round < 5; ++round) {
    const std::string band = random_band();
    double centre = t0 + unit(random) * span;
    for (int level = 0; level <= 20; ++level) {
      const double half = span / std::pow(2.0, level) / 2;
      const double start = std::max(t0, centre - half), end = std::min(t1, start + 2 * half);
      auto& into = level == 0 ? classes["window: full span"] : classes["window: zoom"];
      auto answer = nlohmann::json::parse(session.Get(Window(start, end, width, band), into));
      entities += answer["shown"].get<uint64_t>() + answer["hidden"].get<uint64_t>();
    }
  }
  // Pans: 200 random windows at random zoom levels, each moved by up to
  // half its length from the previous one.
  double length = span / 16, start = t0 + span / 3;
  std::string band = random_band();
  for (int pan = 0; pan < 200; ++pan) {
    if (pan % 20 == 0) {
      length = span / std::pow(2.0, 1 + static_cast<int>(unit(random) * 18));
      band = random_band();
    }
    start = std::clamp(start + (unit(random) - 0.5) * length, t0, t1 - length);
    session.Get(Window(start, start + length, width, band), classes["window: pan"]);
  }
  // The peer window over every row: `dump -s -e` prints them all.
  for (int i = 0; i < 21; ++i) session.Get(Window(peer_start, peer_end, width, ""), classes["window: peer (all rows)"]);

  // Aggregation: the first request builds the model and its qualities;
  // another p runs only the cut step; another slice count builds again.
  session.Get("/api/traces/0/aggregate?slices=100&p=0.5", classes["aggregate: first (build)"]);
  for (int i = 0; i < 30; ++i) {
    session.Get("/api/traces/0/aggregate?slices=100&p=" + std::to_string(unit(random)), classes["aggregate: change p"]);
  }
  for (int slices : {30, 50, 200, 300, 500}) {
    session.Get("/api/traces/0/aggregate?slices=" + std::to_string(slices) + "&p=0.5",
                classes["aggregate: change slices"]);
  }
  session.Get("/api/traces/0/plist?slices=100", classes["plist (after build)"]);
  session.Get("/api/traces/0/aggregate?mode=spatiotemporal&slices=30&p=0.5", classes["spatiotemporal: first"]);
  for (int i = 0; i < 20; ++i) {
    session.Get("/api/traces/0/aggregate?mode=spatiotemporal&slices=30&p=" + std::to_string(unit(random)),
                classes["spatiotemporal: change p"]);
  }

  std::printf("%-28s %6s %10s %10s\n", "request", "count", "p50 ms", "p99 ms");
  for (const auto& [name, latencies] : classes) {
    std::printf("%-28s %6zu %10.2f %10.2f\n", name.c_str(), latencies.ms.size(), latencies.Percentile(0.5),
                latencies.Percentile(0.99));
  }
  std::vector<double> all_windows;
  for (const char* name : {"window: full span", "window: zoom", "window: pan"}) {
    const auto& ms = classes[name].ms;
    all_windows.insert(all_windows.end(), ms.begin(), ms.end());
  }
  Latencies windows{all_windows};
  std::printf("%-28s %6zu %10.2f %10.2f\n", "window: zooms and pans", windows.ms.size(), windows.Percentile(0.5),
              windows.Percentile(0.99));
  std::printf("entities behind the zooms: %llu\n", static_cast<unsigned long long>(entities));
  std::printf("peer_window_p50_ms %.3f\n", classes["window: peer (all rows)"].Percentile(0.5));
  return 0;
}
