#include "formats/paje/line_sort.h"

#include <algorithm>
#include <cstring>

#include "util/run_file.h"

namespace macroscope::paje {

namespace {

// Front lines first, then by time; false for equal keys (stability is the
// callers' business: file order within a run, run order across runs).
bool Before(bool a_front, double a_time, bool b_front, double b_time) {
  return a_front != b_front ? a_front : a_time < b_time;
}

// A run's record: front (1 byte), time, line, length (8 bytes each), text.
constexpr size_t kHeaderSize = 1 + 3 * 8;

}  // namespace

// A sorted run of lines in a temporary file (util/run_file.h).
class LineSort::Run {
 public:
  void Write(const Entry& e, std::string_view text) {
    char header[kHeaderSize];
    header[0] = e.front ? 1 : 0;
    uint64_t length = text.size();
    std::memcpy(header + 1, &e.time, 8);
    std::memcpy(header + 9, &e.line, 8);
    std::memcpy(header + 17, &length, 8);
    file_.Write(header, kHeaderSize);
    file_.Write(text.data(), text.size());
  }
  void Rewind() { file_.Rewind(); }
  // The next record into `head` (its text in this run's buffer); false at the end.
  bool Read(Head& head) {
    char header[kHeaderSize];
    if (!file_.Read(header, kHeaderSize)) return false;
    uint64_t length = 0;
    head.front = header[0] != 0;
    std::memcpy(&head.time, header + 1, 8);
    std::memcpy(&head.line, header + 9, 8);
    std::memcpy(&length, header + 17, 8);
    text_.resize(length);
    file_.ReadRest(text_.data(), length);
    head.text = text_;
    return true;
  }

 private:
  RunFile file_{"--sort", "about the trace's size"};
  std::string text_;
};

LineSort::LineSort(std::string_view text, MappedFile* file, size_t memory)
    : text_(text), file_(file), memory_(memory) {}

LineSort::~LineSort() = default;

void LineSort::Add(std::string_view line_text, uint64_t line, bool front, double time) {
  entries_.push_back({time, line, static_cast<uint64_t>(line_text.data() - text_.data()), line_text.size(), front});
  held_bytes_ += line_text.size();
  if (held_bytes_ + entries_.size() * sizeof(Entry) > memory_) Spill();
}

void LineSort::Spill() {
  const Entry& last = entries_.back();
  const size_t read_upto = last.offset + last.length;
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const Entry& a, const Entry& b) { return Before(a.front, a.time, b.front, b.time); });
  auto run = std::make_unique<Run>();
  for (const Entry& e : entries_) run->Write(e, text_.substr(e.offset, e.length));
  run->Rewind();
  runs_.push_back(std::move(run));
  entries_.clear();
  held_bytes_ = 0;
  if (file_ != nullptr) file_->Release(read_upto);  // those lines are in the run now
}

bool LineSort::After(size_t a, size_t b) const {
  const Head& x = heads_[a];
  const Head& y = heads_[b];
  if (Before(y.front, y.time, x.front, x.time)) return true;
  if (Before(x.front, x.time, y.front, y.time)) return false;
  return a > b;  // equal keys: the earlier part of the file first
}

void LineSort::StartMerge() {
  merging_ = true;
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const Entry& a, const Entry& b) { return Before(a.front, a.time, b.front, b.time); });
  heads_.resize(runs_.size() + 1);  // the runs, then the lines held
  auto after = [this](size_t a, size_t b) { return After(a, b); };
  for (size_t s = 0; s < heads_.size(); ++s) {
    if (!Advance(s)) continue;
    heap_.push_back(s);
    std::push_heap(heap_.begin(), heap_.end(), after);
  }
}

bool LineSort::Advance(size_t source) {
  if (source < runs_.size()) return runs_[source]->Read(heads_[source]);
  if (next_held_ == entries_.size()) return false;
  const Entry& e = entries_[next_held_++];
  heads_[source] = {e.time, e.line, text_.substr(e.offset, e.length), e.front};
  return true;
}

bool LineSort::Next(std::string_view& text, uint64_t& line) {
  auto after = [this](size_t a, size_t b) { return After(a, b); };
  if (!merging_) StartMerge();
  if (taken_ != SIZE_MAX) {  // the line returned last is used: its source moves on
    size_t source = taken_;
    taken_ = SIZE_MAX;
    if (Advance(source)) {
      heap_.push_back(source);
      std::push_heap(heap_.begin(), heap_.end(), after);
    }
  }
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), after);
  taken_ = heap_.back();
  heap_.pop_back();
  text = heads_[taken_].text;
  line = heads_[taken_].line;
  return true;
}

}  // namespace macroscope::paje
