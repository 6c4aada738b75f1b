#include "formats/paje/last_time.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "formats/paje/event_definitions.h"
#include "formats/paje/event_line.h"
#include "formats/paje/tokenizer.h"
#include "model/string_pool.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::paje {

namespace {

// The last line is looked for in the last bytes of the file, in a window
// that doubles while it holds no whole line with words (trailing comments,
// a very long line).
constexpr size_t kFirstWindow = size_t{64} << 10;

// The definitions of the header (the lines before the first event line) in
// `definitions`; returns where the first event line starts, or null when
// there is none or the reading may not end in this file: the header does
// not parse (the reading will say why), defines an id twice, or defines
// PajeTraceFile.
const char* ReadHeader(const std::string& path, std::string_view text, bool no_strict, DefinitionTable& definitions,
                       StringPool& names) {
  DefinitionParser parser(path, no_strict);
  std::vector<std::string_view> words;
  uint64_t line = 0;
  Tokenizer tokenizer(text);
  for (Tokenizer before = tokenizer; tokenizer.Next(words, line); before = tokenizer) {
    if (words[0].empty() || words[0][0] != '%') return parser.in_definition() ? nullptr : before.position();
    std::optional<EventDefinition> done = parser.Feed(words, line);
    if (!done) continue;
    if (done->kind == EventKind::kTraceFile || definitions.Find(done->id) != nullptr) return nullptr;
    definitions.Add(std::move(*done), names);
  }
  return nullptr;
}

// Whether the newline at `newline` may be the first character of a quoted
// word instead of a line's end: the character after an opening quote is
// always the word's (tokenizer.h). A quote opens a word only where a word
// starts: at a line start, after a blank or after a closing quote; after
// anything else (`"State 1"`, the usual ending) it is no opening one.
bool MayBeQuoted(const char* newline, const char* body) {
  if (newline == body || newline[-1] != '"') return false;
  if (newline - 1 == body) return true;
  const char c = newline[-2];
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '"' || c == '\n';
}

// The words of the last line with any in [body, end), body a line start.
// The tokenizer starts at a line start, never inside a line: a quote or a
// '#' earlier on the line changes what the rest of it holds.
std::vector<std::string_view> LastLine(const char* body, const char* end) {
  std::vector<std::string_view> last, next;
  uint64_t line = 0;
  for (size_t window = kFirstWindow;; window *= 2) {
    const char* from = body;
    if (static_cast<size_t>(end - body) > window) {
      // The first newline from end - window - 1 (a line may start at
      // end - window) that surely ends a line.
      const char* newline = end - window - 1;
      while ((newline = static_cast<const char*>(std::memchr(newline, '\n', static_cast<size_t>(end - newline)))) &&
             MayBeQuoted(newline, body))
        ++newline;
      if (newline == nullptr) continue;  // no line starts in the window
      from = newline + 1;
    }
    Tokenizer tokenizer(std::string_view(from, static_cast<size_t>(end - from)));
    while (tokenizer.Next(next, line)) last.swap(next);
    if (!last.empty() || from == body) return last;
  }
}

}  // namespace

std::optional<double> LastEventTime(const std::string& path, bool no_strict) {
  if (path == "-") return std::nullopt;
  try {
    MappedFile file(path);
    const std::string_view text = file.bytes();
    StringPool names;
    DefinitionTable definitions;
    const char* body = ReadHeader(path, text, no_strict, definitions, names);
    if (body == nullptr) return std::nullopt;
    const std::vector<std::string_view> last = LastLine(body, text.data() + text.size());
    // A definition line last (a later header) or an id it alone defines:
    // the reading would judge it, not this header. A later header is not
    // looked for (that reads the whole file): a PajeTraceFile it defines
    // for a line before the last goes unseen, and the caller's check
    // catches the other file's end.
    if (last.empty() || last[0].empty() || last[0][0] == '%') return std::nullopt;
    const CompiledDefinition* d = definitions.Find(last[0]);
    if (d == nullptr || static_cast<int>(last.size()) - 1 != d->def.field_count()) return std::nullopt;
    // As the reading: an event line without a Time field (a definition of
    // a type or value) sets the time to 0.
    if (d->time_word < 0) return 0.0;
    return ToTime(last[static_cast<size_t>(d->time_word)]);
  } catch (const UserError&) {
    return std::nullopt;
  }
}

}  // namespace macroscope::paje
