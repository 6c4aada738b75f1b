// The function and object (global array) symbols of an ELF executable, read
// with libelf, at the addresses valgrind runs the program at: what turns a
// lackey trace's instruction addresses into a function's accesses and its
// data addresses into array names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loops/lackey_trace.h"

namespace macroscope::loops {

struct ElfSymbol {
  std::string name;
  uint64_t address = 0;  // at run time under valgrind: link address + load bias
  uint64_t size = 0;
  AddressRange range() const { return {address, address + size}; }
};

struct ElfSymbols {
  std::string path;
  // Where valgrind maps the program: 0 for a fixed-address executable
  // (ET_EXEC), 0x108000 for a position-independent one (ET_DYN) on x86-64.
  uint64_t load_bias = 0;
  std::vector<ElfSymbol> functions;  // STT_FUNC of non-zero size, by address
  std::vector<ElfSymbol> objects;    // STT_OBJECT of non-zero size, by address
  // The sections loaded in memory (.rodata, .data, .bss, ...; not TLS), by
  // address: what names the data outside any object (constants the
  // compiler placed in .rodata).
  std::vector<ElfSymbol> sections;
};

// Throws UserError naming `path` when it cannot be read, is not an ELF
// executable, has no symbol table (stripped) or is position-independent
// for a machine whose valgrind load address is not known here.
ElfSymbols ReadElfSymbols(const std::string& path);

// The instructions of function `name`: its symbols, and the `name.cold`
// parts GCC splits off. Throws UserError naming the program and listing a
// few function names close to or containing `name` when there is none.
std::vector<AddressRange> FunctionRanges(const ElfSymbols& symbols, std::string_view name);

// The symbol (or section) of `sorted` (by address, not overlapping) holding
// `address`, or nullptr.
const ElfSymbol* SymbolAt(const std::vector<ElfSymbol>& sorted, uint64_t address);

}  // namespace macroscope::loops
