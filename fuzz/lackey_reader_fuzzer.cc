// libFuzzer target: any bytes given to the lackey trace reader either read
// into a series of data addresses or raise UserError; nothing else may
// escape, crash, leak or trip a sanitizer. Read twice: whole, and through
// every filter (instructions, data range, kind) at once.
#include <cstdint>
#include <string_view>

#include "loops/lackey_trace.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)macroscope::loops::LackeyCommand(text);
  macroscope::loops::LackeyFilter all, some;
  some.instructions = {{0x109000, 0x10a000}, {0x401000, 0x402000}};
  some.instructions_text = "instructions of the fuzz ranges";
  some.data = macroscope::loops::AddressRange{0x10c000, 0x10d000};
  some.access = macroscope::loops::AccessFilter::kStores;
  for (const macroscope::loops::LackeyFilter* filter : {&all, &some}) {
    try {
      const macroscope::loops::LackeyAccesses read = macroscope::loops::ReadLackey(text, "fuzz.lackey", *filter);
      if (read.addresses.size() != read.kinds.size()) __builtin_trap();
    } catch (const macroscope::UserError&) {
    }
  }
  return 0;
}
