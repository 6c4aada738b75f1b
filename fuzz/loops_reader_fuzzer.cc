// libFuzzer target: any bytes given to the integer-trace reader either
// parse (whole, and fed in two pieces split where the first byte says,
// with the same values) or raise UserError; what parses is modelled by the
// bottom-up recogniser (through chunks of a few values, so every chunk
// boundary is exercised, giving the model of the whole) and by the af
// search, and both models must regenerate the values exactly. Nothing may escape, crash, leak or trip a
// sanitizer.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "loops/bottom_up.h"
#include "loops/emit_c.h"
#include "loops/emit_json.h"
#include "loops/find_model.h"
#include "loops/report.h"
#include "loops/trace_text.h"
#include "loops/verify.h"
#include "util/error.h"

namespace {

using namespace macroscope::loops;

void CheckModel(const std::vector<int64_t>& values, const Model& model) {
  if (FirstDifference(values, model).has_value()) __builtin_trap();
  (void)EmitC(model);
  (void)EmitJson(model);
  (void)Report(model, Options{}, Choice{});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<int64_t> values;
  try {
    values = ParseTrace(text, "fuzz.txt");
  } catch (const macroscope::UserError&) {
    return 0;
  }
  const size_t split = size ? data[0] % (size + 1) : 0;
  std::vector<int64_t> pieces;
  TraceTokenizer tokenizer("fuzz.txt");
  tokenizer.Feed(text.substr(0, split), false, pieces);
  tokenizer.Feed(text.substr(split), true, pieces);
  if (pieces != values) __builtin_trap();

  const std::vector<uint64_t> raw(values.begin(), values.end());
  Options options;
  BottomUpBuilder builder(options, 1);  // the smallest chunk allowed
  builder.Add(std::span<const uint64_t>(raw.data(), raw.size()));
  Model streamed;
  streamed.length = static_cast<int64_t>(raw.size());
  streamed.phases = builder.Finish();
  CheckModel(values, streamed);
  // The chunk size changes nothing (bottom_up.h).
  Model whole;
  whole.length = streamed.length;
  whole.phases = BottomUpPhases(raw.data(), static_cast<int64_t>(raw.size()), options);
  if (ModelSize(whole) != ModelSize(streamed) || whole.phases.size() != streamed.phases.size()) __builtin_trap();
  Options search;
  search.mode = Mode::kAdjacentFixed;
  search.algorithm = Algorithm::kSearch;
  CheckModel(values, FindModel(values, search));
  return 0;
}
