#include "formats/paje/decoder.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>

#include "formats/paje/tokenizer.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::paje {

namespace {

constexpr size_t kRecordsPerBlock = 8192;
constexpr size_t kReleaseEvery = size_t{64} << 20;  // bytes of input between memory releases

bool SmallNumber(std::string_view s, size_t& value) {
  if (s.empty() || s.size() > 6) return false;
  value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<size_t>(c - '0');
  }
  return s.size() == 1 || s[0] != '0';
}

std::optional<double> ToTime(std::string_view w) {
  if (!w.empty() && w[0] == '+') w.remove_prefix(1);
  double v = 0;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  return v;
}

// The text of the line the tokenizer read from `from` to `to`: it may have
// skipped blank lines first, and `to` is past the newline.
std::string_view LineText(const char* from, const char* to) {
  if (to > from && to[-1] == '\n') --to;
  if (const void* newline = memrchr(from, '\n', static_cast<size_t>(to - from)))
    from = static_cast<const char*>(newline) + 1;
  return {from, static_cast<size_t>(to - from)};
}

bool IsVariableChange(EventKind k) {
  return k == EventKind::kSetVariable || k == EventKind::kAddVariable || k == EventKind::kSubVariable;
}

}  // namespace

void Decoder::Fail(const std::string& message) const { ThrowAt(file_, line_, message); }

void Decoder::Flush(bool last) {
  block_->last = last;
  block_->file = file_;
  queue_.Push(std::move(block_));
  block_ = last ? nullptr : queue_.TakeEmpty();
}

void Decoder::DecodeFiles(const std::vector<std::string>& files) {
  block_ = queue_.TakeEmpty();
  try {
    for (const auto& f : files) {
      queued_files_.push_back(f);
      bool named = true;  // files on the command line are read as given
      while (!queued_files_.empty()) {
        std::string path = queued_files_.front();
        queued_files_.pop_front();
        std::error_code ec;
        std::string key = path == "-" ? path : std::filesystem::weakly_canonical(path, ec).string();
        if (!read_files_.insert(key).second && !named) continue;  // a PajeTraceFile target is read once
        named = false;
        MappedFile file(path);
        if (!Decode(path, file.bytes(), &file)) return;
      }
    }
  } catch (const UserError& e) {
    Abandon(e.what());
  }
  Flush(true);
}

void Decoder::Abandon(const std::string& error) {
  // The failing line may have left a half-built record.
  if (!block_->records.empty() && block_->records.back().line == line_) block_->records.pop_back();
  block_->error = error;
}

void Decoder::DecodeText(const std::string& name, std::string_view text) {
  block_ = queue_.TakeEmpty();
  try {
    if (!Decode(name, text, nullptr)) return;
  } catch (const UserError& e) {
    Abandon(e.what());
  }
  queued_files_.clear();  // a text in memory has no directory to name files in
  Flush(true);
}

bool Decoder::Decode(const std::string& name, std::string_view text, MappedFile* file) {
  if (!block_->records.empty() && file_ != name) Flush(false);  // a block holds one file's records
  file_ = name;
  definitions_parser_.set_file(name);
  stats_.bytes += text.size();
  Tokenizer tokenizer(text);
  std::vector<std::string_view> words;
  words.reserve(32);
  uint64_t line = 0;
  size_t released = 0;
  // --sort: definitions are read in file order (they come first in the
  // sorted order), event lines only noted here and decoded sorted below.
  std::optional<LineSort> sorted;
  if (sort_memory_ > 0) sorted.emplace(text, file, sort_memory_);
  for (const char* from = tokenizer.position(); tokenizer.Next(words, line); from = tokenizer.position()) {
    line_ = line;
    ++stats_.lines;
    if (!words[0].empty() && words[0][0] == '%') {
      Definition(words, line);
      continue;
    }
    if (definitions_parser_.in_definition())
      Fail("event line inside the definition of an event (missing %EndEventDef)");
    if (sorted) {
      Note(*sorted, words, line, LineText(from, tokenizer.position()));
      continue;
    }
    if (!Event(words, line)) return false;
    size_t done = static_cast<size_t>(tokenizer.position() - text.data());
    if (file != nullptr && done - released >= kReleaseEvery) {
      file->Release(done);
      released = done;
    }
  }
  line_ = line;
  definitions_parser_.Finish();
  if (!sorted) return true;
  std::string_view sorted_line;
  uint64_t number = 0;
  while (sorted->Next(sorted_line, number)) {
    Tokenizer(sorted_line, number).Next(words, line);  // a noted line has words
    line_ = line;
    if (!Event(words, line)) return false;
  }
  return true;
}

bool Decoder::Event(const std::vector<std::string_view>& words, uint64_t line) {
  Line(words, line);
  if (block_->records.size() < kRecordsPerBlock) return true;
  Flush(false);
  return !queue_.cancelled();
}

// StarVZ's order (docs/paje.md#unsorted-traces): lines without a time and
// container creations first, in file order, then the others by time. A
// line this decoder will refuse goes first too, to be refused at its line.
void Decoder::Note(LineSort& sorted, const std::vector<std::string_view>& words, uint64_t line,
                   std::string_view text) const {
  const CompiledDefinition* d = Find(words[0]);
  const int at = d != nullptr ? d->def.at(Field::kTime) : -1;
  std::optional<double> time;
  if (at >= 0 && d->def.kind != EventKind::kCreateContainer && at + 1 < static_cast<int>(words.size()))
    time = ToTime(words[at + 1]);
  const bool front = !time || std::isnan(*time);
  sorted.Add(text, line, front, front ? 0 : *time);
}

void Decoder::Definition(const std::vector<std::string_view>& words, uint64_t line) {
  auto done = definitions_parser_.Feed(words, line);
  if (!done) return;
  const std::string id = done->id;
  if (Find(id) != nullptr) Fail("event id '" + id + "' is defined twice");
  CompiledDefinition& d = definitions_.emplace_back();
  d.def = std::move(*done);
  for (auto& u : d.def.user_fields) d.user_fields.emplace_back(u.position, strings_.Intern(u.name));
  size_t n;
  if (SmallNumber(id, n)) {
    if (n >= by_number_.size()) by_number_.resize(n + 1, nullptr);
    by_number_[n] = &d;
  } else {
    by_name_.emplace_back(id, &d);
  }
}

const Decoder::CompiledDefinition* Decoder::Find(std::string_view id) const {
  size_t n;
  if (SmallNumber(id, n)) return n < by_number_.size() ? by_number_[n] : nullptr;
  for (auto& [name, d] : by_name_)
    if (name == id) return d;
  return nullptr;
}

double Decoder::ParseTime(std::string_view w) const {
  std::optional<double> v = ToTime(w);
  if (!v) Fail("unparsable number '" + std::string(!w.empty() && w[0] == '+' ? w.substr(1) : w) + "'");
  return *v;
}

// Variable values are single precision in pj_dump (strtof); so here.
double Decoder::ParseFloat(std::string_view w) const {
  if (!w.empty() && w[0] == '+') w.remove_prefix(1);
  float v = 0;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec == std::errc::result_out_of_range) Fail("number out of range '" + std::string(w) + "'");
  if (ec != std::errc() || end != w.data() + w.size()) Fail("unparsable number '" + std::string(w) + "'");
  return static_cast<double>(v);
}

void Decoder::Line(const std::vector<std::string_view>& words, uint64_t line) {
  const CompiledDefinition* d = Find(words[0]);
  if (d == nullptr) Fail("event id '" + std::string(words[0]) + "' has no definition");
  const EventDefinition& def = d->def;
  if (static_cast<int>(words.size()) - 1 != def.field_count())
    Fail(std::string(EventKindName(def.kind)) + " (id " + def.id + ") needs " + std::to_string(def.field_count()) +
         " fields, found " + std::to_string(words.size() - 1));
  ++stats_.events;
  Record& r = block_->records.emplace_back();
  r.kind = def.kind;
  r.line = line;
  r.field.fill(kEmptyString);
  // As pj_dump, every event sets the current time; one without a Time
  // field (a definition) sets it to 0.
  int time_at = def.at(Field::kTime);
  r.time = time_at >= 0 ? ParseTime(words[time_at + 1]) : 0;
  r.number = 0;
  const bool variable = IsVariableChange(def.kind);
  for (int f = 0; f < kFieldCount; ++f) {
    int p = def.position[f];
    if (p < 0 || f == static_cast<int>(Field::kTime) || f == static_cast<int>(Field::kLine) ||
        f == static_cast<int>(Field::kFile))
      continue;
    if (variable && f == static_cast<int>(Field::kValue)) {
      r.number = ParseFloat(words[p + 1]);
      continue;
    }
    r.field[f] = strings_.Intern(words[p + 1]);
  }
  r.extras_begin = static_cast<uint32_t>(block_->extras.size());
  for (auto& [position, name] : d->user_fields)
    block_->extras.push_back({name, strings_.Intern(words[position + 1])});
  r.extras_count = static_cast<uint32_t>(block_->extras.size() - r.extras_begin);
  if (def.kind == EventKind::kTraceFile && file_ != "-") {
    std::filesystem::path target(words[def.at(Field::kFilename) + 1]);
    if (target.is_relative()) target = std::filesystem::path(file_).parent_path() / target;
    queued_files_.push_back(target.string());
  }
}

}  // namespace macroscope::paje
