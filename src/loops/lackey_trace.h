// The data addresses of a memory trace written by valgrind's lackey
// (`valgrind --tool=lackey --trace-mem=yes`), as an integer series for the
// modeller: one value per data access kept by a filter (the instructions of
// a function, a data address range, the kinds of access). The text is read
// line by line where it lies (a memory map); the choices are documented in
// docs/loops.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope {
class MappedFile;
}

namespace macroscope::loops {

// [begin, end): the end is excluded.
struct AddressRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  bool Contains(uint64_t address) const { return address >= begin && address < end; }
};

// " L", " S", " M": a modify is one instruction loading and storing the
// same address (`add %eax,(%rdx)`); it is one access.
enum class AccessKind : uint8_t { kLoad, kStore, kModify };

// Which kinds `--access` keeps: a modify is kept by all three.
enum class AccessFilter { kAll, kLoads, kStores };

struct LackeyFilter {
  std::vector<AddressRange> instructions;  // empty: any instruction
  std::optional<AddressRange> data;        // unset: any data address
  AccessFilter access = AccessFilter::kAll;
  // What the filter is, for the message when it keeps nothing
  // ("instructions of function 'matmul' [0x109129, 0x109195)").
  std::string instructions_text;
};

struct LackeyAccesses {
  std::vector<int64_t> addresses;  // the series: kept data addresses, in order
  std::vector<AccessKind> kinds;   // the kind of each
  int64_t loads = 0, stores = 0, modifies = 0;  // kept, per kind
  int64_t accesses = 0;  // data accesses in the whole trace
  // The trace's first data access: the program loader's first push or pop,
  // at the top of the main thread's stack.
  std::optional<uint64_t> first_address;
};

// "0x1f", "1f": hex with or without 0x; nullopt when not a 64-bit hex number.
std::optional<uint64_t> ParseHex(std::string_view text);
// "A-B" -> [A, B) (hex numbers as ParseHex); nullopt when malformed or
// when B <= A.
std::optional<AddressRange> ParseAddressRange(std::string_view text);
// "all", "loads", "stores" -> the filter; false for another word.
bool ParseAccessFilter(std::string_view text, AccessFilter& filter);
std::string_view AccessFilterName(AccessFilter filter);
// "0x1f".
std::string Hex(uint64_t value);

// The program and its arguments from the `==PID== Command: ...` header
// line at the top of the trace; empty when there is none.
std::string LackeyCommand(std::string_view text);

// Reads every line of `text` (`name` in messages). Header and summary lines
// (`==PID== ...`) and empty lines are skipped; anything else that is not an
// `I  ADDR,SIZE` or ` L|S|M ADDR,SIZE` line throws UserError
// "name:LINE: problem". Keeping nothing throws UserError naming the filter
// stage that kept nothing. With `file`, the pages already read leave memory
// as the reading goes (a lackey trace is often gigabytes).
LackeyAccesses ReadLackey(std::string_view text, std::string_view name, const LackeyFilter& filter,
                          MappedFile* file = nullptr);

}  // namespace macroscope::loops
