// The fields of a CSV line that holds quotes, as RFC 4180 writes them (and
// the table writer, analysis/table_writer.h): a quoted field unquoted, its
// doubled quotes made single, blanks around an unquoted field dropped;
// libcsv does the parsing. A field does not span lines here: the readers
// are line-oriented, and a quote left open at the line's end is an error.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::csv {

class QuotedFields {
 public:
  // Appends the fields of `line` to `fields`, their text kept by this
  // object until the next Split (a line's fields are used before the next
  // line is read); false with the problem in `error`.
  bool Split(std::string_view line, std::vector<std::string_view>& fields, std::string& error);

 private:
  std::deque<std::string> texts_;  // stable: the line's fields point here
};

}  // namespace macroscope::csv
