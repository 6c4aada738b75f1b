#include "formats/paje/event_line.h"

#include <array>
#include <charconv>
#include <cstdint>

namespace macroscope::paje {

namespace {

bool SmallNumber(std::string_view s, size_t& value) {
  if (s.empty() || s.size() > 6) return false;
  value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<size_t>(c - '0');
  }
  return s.size() == 1 || s[0] != '0';
}

bool IsVariableChange(EventKind k) {
  return k == EventKind::kSetVariable || k == EventKind::kAddVariable || k == EventKind::kSubVariable;
}

// Clinger's fast path: a plain decimal ([-]digits[.digits]) whose digits
// make an integer m exact in T, with at most kMaxPower digits after the
// point, is m / 10^k of two exact values, and one IEEE division rounds it
// correctly: the value from_chars gives, at a fraction of its cost (most
// of a Pajé line's decoding time went to from_chars). Anything else
// (exponents, more digits, words that are no numbers) is from_chars's.
template <class T, uint64_t kMaxMantissa, int kMaxPower>
bool PlainDecimal(std::string_view w, T& out) {
  static constexpr auto kPowers = [] {
    std::array<T, kMaxPower + 1> p{};
    T v = 1;
    for (auto& x : p) {
      x = v;
      v *= 10;
    }
    return p;
  }();
  const char* p = w.data();
  const char* end = p + w.size();
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  uint64_t m = 0;
  int digits = 0, after_point = 0;
  for (; p < end && static_cast<unsigned>(*p - '0') < 10; ++p, ++digits) m = m * 10 + static_cast<unsigned>(*p - '0');
  if (p < end && *p == '.') {
    for (++p; p < end && static_cast<unsigned>(*p - '0') < 10; ++p, ++digits, ++after_point)
      m = m * 10 + static_cast<unsigned>(*p - '0');
  }
  if (p != end || digits == 0 || digits > 19 || m > kMaxMantissa || after_point > kMaxPower) return false;
  T v = static_cast<T>(m);
  if (after_point > 0) v /= kPowers[after_point];
  out = negative ? -v : v;
  return true;
}

// Variable values are single precision in pj_dump (strtof); so here.
float ParseFloat(std::string_view w) {
  if (!w.empty() && w[0] == '+') w.remove_prefix(1);
  float v = 0;
  if (PlainDecimal<float, uint64_t{1} << 24, 10>(w, v)) return v;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec == std::errc::result_out_of_range) throw LineError{"number out of range '" + std::string(w) + "'"};
  if (ec != std::errc() || end != w.data() + w.size()) throw LineError{"unparsable number '" + std::string(w) + "'"};
  return v;
}

}  // namespace

std::optional<double> ToTime(std::string_view w) {
  if (!w.empty() && w[0] == '+') w.remove_prefix(1);
  double v = 0;
  if (PlainDecimal<double, uint64_t{1} << 53, 22>(w, v)) return v;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  return v;
}

double LineTimes::Parse(std::string_view word, PackedBytes bytes) {
  std::optional<double> v = ToTime(word);
  if (!v)
    throw LineError{"unparsable number '" + std::string(!word.empty() && word[0] == '+' ? word.substr(1) : word) +
                    "'"};
  size_ = word.size() - 1 < kPackedMax ? word.size() : 0;
  bytes_ = bytes;
  time_ = *v;
  return *v;
}

const CompiledDefinition* DefinitionTable::FindAny(std::string_view id) const {
  size_t n;
  if (SmallNumber(id, n)) return n < by_number_.size() ? by_number_[n] : nullptr;
  for (auto& [name, d] : by_name_)
    if (name == id) return d;
  return nullptr;
}

void DefinitionTable::Add(EventDefinition def, StringPool& strings) {
  CompiledDefinition& d = definitions_.emplace_back();
  d.def = std::move(def);
  for (auto& u : d.def.user_fields) d.user_fields.emplace_back(u.position + 1, strings.Intern(u.name));
  d.time_word = d.def.at(Field::kTime) >= 0 ? d.def.at(Field::kTime) + 1 : -1;
  const bool variable = IsVariableChange(d.def.kind);
  for (int f = 0; f < kFieldCount; ++f) {
    int p = d.def.position[f];
    if (p < 0 || f == static_cast<int>(Field::kTime) || f == static_cast<int>(Field::kLine) ||
        f == static_cast<int>(Field::kFile))
      continue;
    if (variable && f == static_cast<int>(Field::kValue))
      d.number_word = p + 1;
    else
      d.string_words.push_back({f, p + 1, kRecordSlot[static_cast<int>(d.def.kind)][f]});
  }
  size_t n;
  if (SmallNumber(d.def.id, n)) {
    if (n >= by_number_.size()) by_number_.resize(n + 1, nullptr);
    by_number_[n] = &d;
  } else {
    by_name_.emplace_back(d.def.id, &d);
  }
}

void DecodeEventLine(const DefinitionTable& definitions, const std::vector<std::string_view>& words, uint64_t line,
                     StringPool& strings, LineTimes& times, Block& block) {
  const CompiledDefinition* d = definitions.Find(words[0]);
  if (d == nullptr) throw LineError{"event id '" + std::string(words[0]) + "' has no definition"};
  const EventDefinition& def = d->def;
  if (static_cast<int>(words.size()) - 1 != def.field_count())
    throw LineError{std::string(EventKindName(def.kind)) + " (id " + def.id + ") needs " +
                    std::to_string(def.field_count()) + " fields, found " + std::to_string(words.size() - 1)};
  // What may throw first, so that the block is left as it was.
  // As pj_dump, every event sets the current time; one without a Time
  // field (a definition) sets it to 0.
  const double time = d->time_word >= 0 ? times.Of(words[d->time_word]) : 0;
  const float number = d->number_word >= 0 ? ParseFloat(words[d->number_word]) : 0;
  Record& r = block.records.emplace_back();
  r.kind = def.kind;
  r.line = line;
  r.time = time;
  r.number = number;
  r.slot.fill(kEmptyString);
  for (auto [f, w, slot] : d->string_words) {
    StringId id = strings.Intern(words[w]);
    if (slot >= 0) r.slot[slot] = id;
  }
  r.extras_begin = static_cast<uint32_t>(block.extras.size());
  for (auto& [w, name] : d->user_fields) block.extras.push_back({name, strings.Intern(words[w])});
}

}  // namespace macroscope::paje
