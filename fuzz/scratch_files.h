// Files for fuzz targets whose reader takes a path, not bytes: a private
// scratch folder, and a copy of a trace directory in which one file at a
// time is replaced by the fuzzer's bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::fuzz {

// A folder of its own under the temporary directory, removed at exit.
const std::filesystem::path& ScratchDirectory();

// Writes `bytes` to `path` (replacing it).
void WriteFile(const std::filesystem::path& path, std::string_view bytes);

// A copy of the directory `source` (the env variable `variable` may name
// another), in ScratchDirectory()/trace, kept pristine between inputs: Mutate() replaces one of its
// files, chosen by the input's first byte, with the rest of the input, and
// the next call puts the previous file back first.
class MutableTraceCopy {
 public:
  MutableTraceCopy(const char* variable, const std::string& source);
  // The copy's root, to hand to the reader.
  const std::filesystem::path& root() const { return root_; }
  void Mutate(const uint8_t* data, size_t size);
  // Files of the copy, in a fixed order (what the first byte indexes).
  const std::vector<std::filesystem::path>& files() const { return files_; }

 private:
  std::filesystem::path root_;
  std::vector<std::filesystem::path> files_;
  std::vector<std::string> originals_;
  size_t mutated_ = SIZE_MAX;
};

// One input of a fuzz target over a trace directory: puts the input into
// `copy` (Mutate) and reads it with `read`, given the copy's root; a
// UserError is the reader refusing the input, as it should.
void ReadMutated(MutableTraceCopy& copy, const uint8_t* data, size_t size,
                 const std::function<void(const std::filesystem::path& root)>& read);

// When the environment variable MACROSCOPE_FUZZ_SEEDS names a folder,
// writes one seed per file of `copy` there (its index byte, then its
// unchanged bytes; named seed-INDEX-FILE) and ends the process: fuzz/run
// adds them to the scratch corpus this way, so the index order is the
// fuzzer's own (fuzz/corpus/otf2 and ctf hold the same, committed).
void WriteSeedsIfAsked(const MutableTraceCopy& copy);

}  // namespace macroscope::fuzz
