#include "scratch_files.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "util/error.h"

namespace macroscope::fuzz {

namespace fs = std::filesystem;

namespace {

std::string ReadWhole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Scratch {
  fs::path path;
  Scratch() {
    path = fs::temp_directory_path() / ("macroscope-fuzz-" + std::to_string(getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

}  // namespace

const fs::path& ScratchDirectory() {
  static Scratch scratch;
  return scratch.path;
}

void WriteFile(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

MutableTraceCopy::MutableTraceCopy(const char* variable, const std::string& source) {
  const char* chosen = std::getenv(variable);
  const fs::path from = chosen ? fs::path(chosen) : fs::path(source);
  if (!fs::is_directory(from)) {
    std::fprintf(stderr, "fuzz: %s is not a directory (set %s)\n", from.c_str(), variable);
    std::exit(1);
  }
  root_ = ScratchDirectory() / from.filename();
  fs::copy(from, root_, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  for (const auto& entry : fs::recursive_directory_iterator(root_)) {
    if (entry.is_regular_file()) files_.push_back(entry.path());
  }
  std::sort(files_.begin(), files_.end());
  for (const fs::path& file : files_) originals_.push_back(ReadWhole(file));
}

void MutableTraceCopy::Mutate(const uint8_t* data, size_t size) {
  if (mutated_ != SIZE_MAX) WriteFile(files_[mutated_], originals_[mutated_]);
  mutated_ = SIZE_MAX;
  if (size == 0 || files_.empty()) return;
  mutated_ = data[0] % files_.size();
  WriteFile(files_[mutated_], std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
}

void ReadMutated(MutableTraceCopy& copy, const uint8_t* data, size_t size,
                 const std::function<void(const fs::path& root)>& read) {
  copy.Mutate(data, size);
  try {
    read(copy.root());
  } catch (const UserError&) {
  }
}

void WriteSeedsIfAsked(const MutableTraceCopy& copy) {
  const char* folder = std::getenv("MACROSCOPE_FUZZ_SEEDS");
  if (!folder) return;
  for (size_t k = 0; k < copy.files().size() && k < 256; ++k) {
    std::string seed(1, static_cast<char>(k));
    seed += ReadWhole(copy.files()[k]);
    WriteFile(fs::path(folder) / ("seed-" + std::to_string(k)), seed);
  }
  std::exit(0);
}

}  // namespace macroscope::fuzz
