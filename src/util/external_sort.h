// Sorting more records than memory holds: records are held up to a memory
// budget, then sorted and written to a temporary file (a run, run_file.h);
// Next() merges the runs and the records still held. Stable: records that
// compare equal come back in the order they were added. Runs are merged
// kFanIn at a time as they pile up (a level of a merge tree), so a tiny
// budget (tests) never opens more than a few dozen files at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "util/run_file.h"

namespace macroscope {

template <typename T, typename Less = std::less<T>>
class ExternalSort {
  static_assert(std::is_trivially_copyable_v<T>, "runs hold records as their bytes");

 public:
  // `memory`: bytes for the records held and their sort's buffer; `purpose`
  // and `need` word the messages of a run that cannot be written (RunFile).
  ExternalSort(size_t memory, std::string purpose, std::string need, Less less = {})
      : limit_(std::max<size_t>(1, memory / (2 * sizeof(T)))),
        purpose_(std::move(purpose)),
        need_(std::move(need)),
        less_(less) {}

  void Add(const T& record) {
    if (held_.size() == held_.capacity())  // grows by doubling, never past the budget
      held_.reserve(std::min(limit_, std::max<size_t>(64, 2 * held_.capacity())));
    held_.push_back(record);
    if (held_.size() == limit_) Spill();
  }

  // The next record in order; false at the end. Call after the last Add().
  bool Next(T& record) {
    if (!merge_) {
      std::stable_sort(held_.begin(), held_.end(), less_);
      std::vector<RunFile*> files;
      for (Run& r : runs_) files.push_back(r.file.get());
      merge_ = std::make_unique<Merge>(std::move(files), &held_, less_);
    }
    if (merge_->Next(record)) return true;
    merge_.reset();
    runs_.clear();
    held_ = {};
    return false;
  }

  // Runs written so far, merged ones included (0: everything fit in memory).
  size_t runs() const { return runs_written_; }

 private:
  static constexpr size_t kFanIn = 16;

  struct Run {
    std::unique_ptr<RunFile> file;
    int level;  // 0: written from memory; n: merged from kFanIn runs of level n-1
  };

  // A k-way merge of sorted sources: files, then the records held; equal
  // records come from the earlier source first (sources are in adding order).
  class Merge {
   public:
    Merge(std::vector<RunFile*> files, const std::vector<T>* held, Less less)
        : files_(std::move(files)), held_(held), less_(less), heads_(files_.size() + 1) {
      for (size_t s = 0; s < heads_.size(); ++s)
        if (Pull(s)) Push(s);
    }
    bool Next(T& record) {
      if (heap_.empty()) return false;
      auto after = [this](size_t a, size_t b) { return After(a, b); };
      std::pop_heap(heap_.begin(), heap_.end(), after);
      const size_t s = heap_.back();
      heap_.pop_back();
      record = heads_[s];
      if (Pull(s)) Push(s);
      return true;
    }

   private:
    bool Pull(size_t s) {
      if (s < files_.size()) return files_[s]->Read(&heads_[s], sizeof(T));
      if (held_ == nullptr || next_held_ == held_->size()) return false;
      heads_[s] = (*held_)[next_held_++];
      return true;
    }
    void Push(size_t s) {
      heap_.push_back(s);
      std::push_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) { return After(a, b); });
    }
    bool After(size_t a, size_t b) const {
      if (less_(heads_[b], heads_[a])) return true;
      if (less_(heads_[a], heads_[b])) return false;
      return a > b;
    }

    std::vector<RunFile*> files_;
    const std::vector<T>* held_;
    Less less_;
    std::vector<T> heads_;
    std::vector<size_t> heap_;
    size_t next_held_ = 0;
  };

  void Spill() {
    std::stable_sort(held_.begin(), held_.end(), less_);
    auto file = std::make_unique<RunFile>(purpose_, need_);
    file->Write(held_.data(), held_.size() * sizeof(T));
    file->Rewind();
    held_.clear();
    runs_.push_back({std::move(file), 0});
    ++runs_written_;
    // The last kFanIn runs of one level become one run of the next.
    while (runs_.size() >= kFanIn && runs_[runs_.size() - kFanIn].level == runs_.back().level) {
      const size_t first = runs_.size() - kFanIn;
      std::vector<RunFile*> files;
      for (size_t r = first; r < runs_.size(); ++r) files.push_back(runs_[r].file.get());
      auto merged = std::make_unique<RunFile>(purpose_, need_);
      Merge merge(std::move(files), nullptr, less_);
      T record;
      while (merge.Next(record)) merged->Write(&record, sizeof(T));
      merged->Rewind();
      const int level = runs_.back().level + 1;
      runs_.resize(first);
      runs_.push_back({std::move(merged), level});
      ++runs_written_;
    }
  }

  size_t limit_;  // records held before a run is written
  std::string purpose_, need_;
  Less less_;
  std::vector<T> held_;
  std::vector<Run> runs_;
  size_t runs_written_ = 0;
  std::unique_ptr<Merge> merge_;
};

}  // namespace macroscope
