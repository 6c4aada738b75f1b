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
    // mkdtemp: a name of fixed length, so that paths in messages (and the
    // code that builds them) are the same from one run to the next.
    std::string name = (fs::temp_directory_path() / "macroscope-fuzz-XXXXXX").string();
    if (mkdtemp(name.data()) == nullptr) {
      std::perror("fuzz: mkdtemp");
      std::exit(1);
    }
    path = name;
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
  root_ = ScratchDirectory() / "trace";
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
    // Named after the file the index byte selects (its path in the copy).
    std::string name = fs::relative(copy.files()[k], copy.root()).string();
    std::replace(name.begin(), name.end(), '/', '_');
    WriteFile(fs::path(folder) / ("seed-" + std::to_string(k) + "-" + name), seed);
  }
  std::exit(0);
}

}  // namespace macroscope::fuzz
