// Every supported trace format, in detection order (the first whose sniffer
// answers yes reads the trace). To add a format: a folder with its reader,
// a Format describing it, one line below.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "formats/chrome/chrome_format.h"
#include "formats/csv/csv_format.h"
#include "formats/ctf/ctf_format.h"
#include "formats/format.h"
#include "formats/ftrace/ftrace_format.h"
#include "formats/gstreamer/gstreamer_format.h"
#include "formats/nsys/nsys_format.h"
#include "formats/otf2/otf2_format.h"
#include "formats/paje/paje_format.h"
#include "formats/paraver/paraver_format.h"
#include "store/store_format.h"
#include "util/error.h"
#include "util/progress_line.h"

namespace macroscope::formats {

std::span<const Format> AllFormats() {
  static const Format kFormats[] = {
      paje::PajeFormat(),
      chrome::ChromeFormat(),
      csv::DumpFormat(),
      csv::GenericCsvFormat(),
      ctf::CtfFormat(),
      ftrace::FtraceFormat(),
      otf2::Otf2Format(),
      paraver::ParaverFormat(),
      gstreamer::GstreamerFormat(),
      nsys::NsysFormat(),
      store::StoreFormat(),
  };
  return kFormats;
}

const Format& Detect(const std::string& path) {
  std::string head;
  if (path != "-") {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw UserError(path + ": cannot open: " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
      std::ifstream in(path, std::ios::binary);
      if (!in) throw UserError(path + ": cannot open: " + std::strerror(errno));
      head.resize(4096);
      in.read(head.data(), static_cast<std::streamsize>(head.size()));
      head.resize(static_cast<size_t>(in.gcount()));
    }
  } else {
    return AllFormats().front();  // standard input: Pajé text, the only streamable format
  }
  for (const Format& f : AllFormats())
    if (f.sniff(path, head)) return f;
  std::string names;
  for (const Format& f : AllFormats()) names += (names.empty() ? "" : ", ") + std::string(f.name);
  throw UserError(path + ": not a trace in any supported format (" + names + ")");
}

ReadStats ReadTrace(const std::vector<std::string>& files, const ReadOptions& options, Trace& trace) {
  if (files.empty()) throw UserError("no trace file given");
  const Format& format = Detect(files.front());
  for (size_t i = 1; i < files.size(); ++i)
    if (&Detect(files[i]) != &format)
      throw UserError(files[i] + ": not a " + std::string(format.name) + " trace like " + files.front());
  if (options.progress != nullptr || !options.show_progress) return format.read(files, options, trace);
  std::string label = files.front() + (files.size() > 1 ? " (+" + std::to_string(files.size() - 1) + ")" : "");
  Progress progress;
  ProgressLine line("reading " + label, progress);
  ReadOptions counted = options;
  counted.progress = &progress;
  return format.read(files, counted, trace);
}

}  // namespace macroscope::formats
