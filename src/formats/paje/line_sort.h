// The lines of one Pajé file in time order, for traces whose writer does
// not order them (StarPU's paje.trace): `--sort` reads a file in the order
// StarVZ's sort gives it (docs/paje.md#unsorted-traces), in bounded memory.
//
// The decoder says, for each event line in file order, whether it is a
// front line (no time, a container creation, or a line it will refuse)
// and its time; front lines come first in file order, then the others by
// time, equal times in file order (a stable sort). Lines are referenced in
// the input, not copied; when the lines held pass the memory budget they
// are sorted and written to a temporary file in $TMPDIR (a run), and the
// runs and the lines still held are merged as the decoder reads them.
// Run files are unlinked as soon as they are created, so none is left
// behind whatever happens to the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/mapped_file.h"

namespace macroscope::paje {

// Bytes of lines (and of their index) sorted in memory before runs go to
// temporary files.
inline constexpr size_t kSortMemory = size_t{256} << 20;

class LineSort {
 public:
  // `text`: the whole file; `file`: its map, whose pages are released as
  // runs are written (null for a text held in memory). `memory`: the budget.
  LineSort(std::string_view text, MappedFile* file, size_t memory);
  ~LineSort();
  LineSort(const LineSort&) = delete;
  LineSort& operator=(const LineSort&) = delete;

  // Adds one line (a view into `text`, without its newline), in file order.
  // Throws UserError when a run cannot be written.
  void Add(std::string_view line_text, uint64_t line, bool front, double time);
  // The next line of the sorted stream and its number in the file; false
  // at the end. The text stays valid until the next call. Call after the
  // last Add().
  bool Next(std::string_view& text, uint64_t& line);
  // Runs written to temporary files so far (0: everything fit in memory).
  size_t runs() const { return runs_.size(); }

 private:
  struct Entry {
    double time;
    uint64_t line;
    uint64_t offset;  // in text_
    uint64_t length;
    bool front;
  };
  struct Head {  // the next line of one source (a run, or the lines held)
    double time;
    uint64_t line;
    std::string_view text;
    bool front;
  };
  class Run;

  void Spill();
  void StartMerge();
  bool Advance(size_t source);  // loads the source's next line into heads_
  bool After(size_t a, size_t b) const;

  std::string_view text_;
  MappedFile* file_;
  size_t memory_;
  std::vector<Entry> entries_;  // the lines held, in file order until sorted
  size_t held_bytes_ = 0;       // their text
  std::vector<std::unique_ptr<Run>> runs_;
  // Merge state: one head per source (the runs, then the lines held).
  bool merging_ = false;
  std::vector<Head> heads_;
  std::vector<size_t> heap_;
  size_t next_held_ = 0;
  size_t taken_ = SIZE_MAX;  // the source whose head Next() returned last
};

}  // namespace macroscope::paje
