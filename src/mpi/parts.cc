// What does not need MPI itself: which traces are shared, and part 0's
// last word. Built with and without MPI.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string_view>

#include "formats/format.h"
#include "mpi/world.h"
#include "util/error.h"

namespace macroscope::mpi {

namespace {

// The format of a trace, "" for one on standard input (rank 0's alone:
// never shared); every part detects alike: a file that cannot be read
// fails everywhere.
std::string_view FormatOf(const std::vector<std::string>& files) {
  if (files.empty() || std::find(files.begin(), files.end(), "-") != files.end()) return {};
  return formats::Detect(files.front()).name;
}

}  // namespace

formats::PartExchange* ShareFor(const std::vector<std::string>& files) {
  World* world = Launched();
  if (world == nullptr) return nullptr;
  // OTF2 (one archive): by location; Pajé: by byte range; CTF: each part
  // decodes a share of the streams, and every part maps them all.
  const std::string_view format = FormatOf(files);
  return (format == "otf2" && files.size() == 1) || format == "paje" || format == "ctf" ? world : nullptr;
}

formats::PartExchange* ShareByRange(const std::vector<std::string>& files) {
  // These readers end every part with the whole reading's ids: Pajé by
  // definition order, OTF2 by agreeing on the order of first uses, CTF as
  // every part maps the whole trace.
  World* world = Launched();
  const std::string_view format = FormatOf(files);
  return world != nullptr && ((format == "otf2" && files.size() == 1) || format == "paje" || format == "ctf")
             ? world
             : nullptr;
}

void OnRoot(World* world, const std::function<void()>& f) {
  if (world == nullptr) return f();
  // Part 0's outcome, for the others: "" (done), "u" + a UserError's
  // message, "i" + an internal error's.
  std::string outcome;
  std::exception_ptr failure;
  if (world->part() == 0) {
    try {
      f();
    } catch (const UserError& e) {
      outcome = std::string("u") + e.what();
      failure = std::current_exception();
    } catch (const std::exception& e) {
      outcome = std::string("i") + e.what();
      failure = std::current_exception();
    }
  }
  outcome = world->Broadcast(outcome);
  if (failure) std::rethrow_exception(failure);
  if (!outcome.empty()) {
    if (outcome[0] == 'u') throw UserError(outcome.substr(1));
    throw std::runtime_error(outcome.substr(1));
  }
  const uint64_t sent = world->bytes_sent();
  const double total = world->Sum(static_cast<double>(sent));
  if (world->part() == 0)
    std::fprintf(stderr, "macroscope: mpi: %d ranks exchanged %.0f bytes in collectives\n", world->parts(), total);
}

}  // namespace macroscope::mpi
