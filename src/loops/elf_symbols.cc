#include "loops/elf_symbols.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>
#include <tuple>

#include "util/error.h"

namespace macroscope::loops {

namespace {

// valgrind's address for the first segment of a position-independent
// executable on amd64 (what `I  00109139` for nm's 0x1139 shows).
constexpr uint64_t kAmd64PieBias = 0x108000;
constexpr size_t kListedNames = 8;  // close names listed in a message

struct FileCloser {
  int fd;
  ~FileCloser() { close(fd); }
};

struct ElfCloser {
  void operator()(Elf* elf) const { elf_end(elf); }
};

std::string ElfProblem() { return elf_errmsg(-1); }

// Edits (insert, delete, replace) turning a into b.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// Function names containing `wanted` (ignoring case) first, then those a
// few edits away, nearest first.
std::vector<std::string> CloseNames(const std::vector<ElfSymbol>& functions, std::string_view wanted) {
  const std::string lower = Lower(wanted);
  const size_t most_edits = std::max<size_t>(2, wanted.size() / 3);
  std::vector<std::tuple<bool, size_t, std::string>> found;  // (not containing, edits, name)
  for (const ElfSymbol& f : functions) {
    const bool contains = Lower(f.name).find(lower) != std::string::npos;
    const size_t edits = EditDistance(wanted, f.name);
    if (contains || edits <= most_edits) found.emplace_back(!contains, edits, f.name);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (const auto& [not_containing, edits, name] : found) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    if (names.size() == kListedNames) break;
  }
  return names;
}

}  // namespace

ElfSymbols ReadElfSymbols(const std::string& path) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw UserError(path + ": libelf is unusable: " + ElfProblem());
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw UserError(path + ": cannot open the program: " + std::strerror(errno));
  FileCloser closer{fd};
  std::unique_ptr<Elf, ElfCloser> elf(elf_begin(fd, ELF_C_READ_MMAP, nullptr));
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF) throw UserError(path + ": not an ELF executable");
  GElf_Ehdr header;
  if (gelf_getehdr(elf.get(), &header) == nullptr) {
    throw UserError(path + ": unreadable ELF header: " + ElfProblem());
  }
  ElfSymbols out;
  out.path = path;
  if (header.e_type == ET_DYN) {
    if (header.e_machine != EM_X86_64) {
      throw UserError(path + ": a position-independent executable for a machine other than x86-64, where "
                             "valgrind's load address is not known here; link it with -no-pie");
    }
    out.load_bias = kAmd64PieBias;
  } else if (header.e_type != ET_EXEC) {
    throw UserError(path + ": not an executable (ELF type " + std::to_string(header.e_type) +
                    ": an object file or a core dump?)");
  }
  size_t section_names = 0;
  if (elf_getshdrstrndx(elf.get(), &section_names) != 0) {
    throw UserError(path + ": unreadable section names: " + ElfProblem());
  }
  bool have_table = false;
  for (Elf_Scn* section = elf_nextscn(elf.get(), nullptr); section; section = elf_nextscn(elf.get(), section)) {
    GElf_Shdr section_header;
    if (gelf_getshdr(section, &section_header) == nullptr) continue;
    if ((section_header.sh_flags & SHF_ALLOC) != 0 && (section_header.sh_flags & SHF_TLS) == 0 &&
        section_header.sh_size > 0) {
      const char* name = elf_strptr(elf.get(), section_names, section_header.sh_name);
      if (name != nullptr && *name != '\0') {
        out.sections.push_back({name, section_header.sh_addr + out.load_bias, section_header.sh_size});
      }
    }
    if (section_header.sh_type != SHT_SYMTAB) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (data == nullptr || section_header.sh_entsize == 0) throw UserError(path + ": unreadable symbol table");
    have_table = true;
    const size_t count = section_header.sh_size / section_header.sh_entsize;
    for (size_t i = 0; i < count; ++i) {
      GElf_Sym symbol;
      if (gelf_getsym(data, static_cast<int>(i), &symbol) == nullptr) continue;
      const int type = GELF_ST_TYPE(symbol.st_info);
      if ((type != STT_FUNC && type != STT_OBJECT) || symbol.st_shndx == SHN_UNDEF || symbol.st_size == 0) {
        continue;
      }
      const char* name = elf_strptr(elf.get(), section_header.sh_link, symbol.st_name);
      if (name == nullptr || *name == '\0') continue;
      (type == STT_FUNC ? out.functions : out.objects)
          .push_back({name, symbol.st_value + out.load_bias, symbol.st_size});
    }
  }
  if (!have_table) throw UserError(path + ": no symbol table (a stripped program?); build it without stripping");
  const auto by_address = [](const ElfSymbol& a, const ElfSymbol& b) {
    return std::tie(a.address, a.name) < std::tie(b.address, b.name);
  };
  std::sort(out.functions.begin(), out.functions.end(), by_address);
  std::sort(out.objects.begin(), out.objects.end(), by_address);
  std::sort(out.sections.begin(), out.sections.end(), by_address);
  return out;
}

std::vector<AddressRange> FunctionRanges(const ElfSymbols& symbols, std::string_view name) {
  std::vector<AddressRange> ranges;
  const std::string cold = std::string(name) + ".cold";
  for (const ElfSymbol& f : symbols.functions) {
    if (f.name == name || f.name == cold) ranges.push_back(f.range());
  }
  if (!ranges.empty()) return ranges;
  const std::vector<std::string> close = CloseNames(symbols.functions, name);
  std::string message = symbols.path + ": no function '" + std::string(name) + "' among its " +
                        std::to_string(symbols.functions.size()) + " functions";
  if (close.empty()) throw UserError(message + " (none has a close name; `nm PROGRAM` lists them)");
  message += "; close names: ";
  for (size_t i = 0; i < close.size(); ++i) message += (i ? ", " : "") + close[i];
  throw UserError(message);
}

const ElfSymbol* SymbolAt(const std::vector<ElfSymbol>& sorted, uint64_t address) {
  // The last one starting at or before the address.
  auto after = std::upper_bound(sorted.begin(), sorted.end(), address,
                                [](uint64_t a, const ElfSymbol& s) { return a < s.address; });
  if (after == sorted.begin()) return nullptr;
  const ElfSymbol& candidate = *std::prev(after);
  return candidate.range().Contains(address) ? &candidate : nullptr;
}

}  // namespace macroscope::loops
