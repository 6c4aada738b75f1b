// libFuzzer target: any file given to the store reader either reads into a
// trace or raises UserError, and so does every part of its level-of-detail
// summaries (what a window reads). Fuzz builds define
// FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, which makes the reader skip its
// checksums (else nearly every mutation would stop there and the decoders
// behind them would go untested). Seeds: the Pajé seeds imported as stores
// (fuzz/run asks for them), so they always have the current format, a
// generated trace big enough for summaries, and the older stores of
// tests/store/data.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

#include "formats/paje/generator.h"
#include "formats/paje/reader.h"
#include "scratch_files.h"
#include "store/store.h"
#include "store/store_source.h"
#include "util/error.h"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* folder = std::getenv("MACROSCOPE_FUZZ_SEEDS");
  if (!folder) return 0;
  for (const auto& entry : fs::directory_iterator(MACROSCOPE_SOURCE_DIR "/fuzz/corpus/paje")) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    macroscope::Trace trace;
    macroscope::paje::ReadOptions options;
    options.no_strict = true;
    try {
      macroscope::paje::ReadPajeText(text, entry.path().string(), options, trace);
    } catch (const macroscope::UserError&) {
      continue;  // a seed cut mid-line: only the whole ones are imported
    }
    const auto target = fs::path(folder) / entry.path().filename().replace_extension(".mstore");
    macroscope::store::WriteStore(trace, {}, target.string());
  }
  // Stores of a few hundred entities: they have summaries.
  {
    macroscope::paje::GeneratorOptions generated;
    generated.depth = 1;
    generated.arity = 1;
    generated.events = 600;
    generated.nested = true;
    generated.punctual = true;
    generated.variables = true;
    const std::string text_path = (fs::path(folder) / "generated.trace").string();
    macroscope::paje::GeneratePajeFile(generated, text_path);
    std::ifstream in(text_path, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    macroscope::Trace trace;
    macroscope::paje::ReadPajeText(text, text_path, {}, trace);
    macroscope::store::WriteStore(trace, {}, (fs::path(folder) / "summarised.mstore").string());
    fs::remove(text_path);
  }
  // Stores of older formats, for their reader.
  for (const auto& entry : fs::directory_iterator(MACROSCOPE_SOURCE_DIR "/tests/store/data"))
    if (entry.path().extension() == ".mstore") fs::copy_file(entry.path(), fs::path(folder) / entry.path().filename(),
                                                             fs::copy_options::overwrite_existing);
  std::exit(0);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = (macroscope::fuzz::ScratchDirectory() / "input.mstore").string();
  macroscope::fuzz::WriteFile(path, std::string_view(reinterpret_cast<const char*>(data), size));
  macroscope::Trace trace;
  try {
    macroscope::store::ReadStore(path, trace);
  } catch (const macroscope::UserError&) {
    return 0;
  }
  trace.BuildIndexes();
  for (auto& s : trace.stores()) (void)s.index.Query(trace.start_time(), trace.end_time());
  // Summaries are format 3's (bytes 8-11: the version, little-endian).
  if (size < 12 || data[8] != 3 || data[9] != 0 || data[10] != 0 || data[11] != 0) return 0;
  try {
    const macroscope::store::StoreSource source(path, macroscope::store::CacheBudget::Serving(size_t{1} << 20));
    for (uint32_t k = 0; k < source.trace().stores().size(); ++k)
      for (int level = 0; level <= source.summary_finest(k); ++level) {
        const uint64_t last = (uint64_t{1} << level) - 1;
        (void)source.summary(k, level, 0, last);           // every block
        (void)source.summary(k, level, last / 2, last / 2);  // the blocks of one bin
      }
  } catch (const macroscope::UserError&) {
  }
  return 0;
}
