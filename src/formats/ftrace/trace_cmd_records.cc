#include "formats/ftrace/trace_cmd_records.h"

// trace-cmd.h includes tracefs.h, which libtracefs 1.6 does not keep valid
// C++ (an inline function passes an int as an enum); trace-cmd.h uses
// nothing of it, so its guard is set to leave it out.
#define _TRACE_FS_H
#include <event-parse.h>
#include <sched.h>  // cpu_set_t, which tracefs.h would have brought
#include <trace-cmd.h>
#include <trace-seq.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "util/error.h"

namespace macroscope::ftrace {

namespace {

// The first bytes of every `.dat` file, versions 6 and 7 (trace-cmd.dat(5)).
constexpr std::string_view kMagic("\x17\x08\x44tracing", 10);

struct HandleCloser {
  void operator()(tracecmd_input* handle) const { tracecmd_close(handle); }
};
using Handle = std::unique_ptr<tracecmd_input, HandleCloser>;

struct FieldList {
  tep_format_field** fields = nullptr;
  ~FieldList() { std::free(fields); }  // the library's array (malloc'd), not its fields
};

struct File {
  std::string path;
  Handle handle;
  ctf::CtfTraceInfo info;
};

// What the iteration callback needs; libtracecmd hands it back as void*.
struct Iteration {
  std::vector<File>* files = nullptr;
  const std::function<void(const ctf::CtfEvent&)>* on_event = nullptr;
  TraceCmdRecordStats* stats = nullptr;
  std::map<std::pair<size_t, int>, uint32_t> streams;  // (file, cpu) -> global stream index
  std::deque<std::string> stream_names;                // by stream index (stable views)
  ctf::CtfEvent event;                                 // reused: its fields keep their capacity
  trace_seq text{};
  std::exception_ptr error;
};

int64_t SignExtended(uint64_t value, int size) {
  if (size >= 8) return static_cast<int64_t>(value);
  int shift = 64 - 8 * size;
  return static_cast<int64_t>(value << shift) >> shift;
}

std::string RecordPlace(const File& file, const tep_record& record) {
  return file.path + ": CPU " + std::to_string(record.cpu) + ", record at byte " + std::to_string(record.offset);
}

// For an array field: its bytes' place in the record, checked (a dynamic
// array's place is the 32-bit offset and length the field holds).
// libtraceevent prints a string array with "%s" when no byte before its
// NUL is unprintable, so one without a NUL in its bytes is read past its
// end, and past the record's: such a string is its bytes, as they are
// (nullopt for anything else, which libtraceevent prints within bounds).
std::optional<std::string_view> UnterminatedString(const File& file, const tep_record& record,
                                                   const tep_format_field& field) {
  if (!(field.flags & TEP_FIELD_IS_ARRAY)) return std::nullopt;
  const auto* data = static_cast<const char*>(record.data);
  unsigned long long offset = static_cast<unsigned long long>(field.offset), length = static_cast<unsigned long long>(field.size);
  if (field.flags & TEP_FIELD_IS_DYNAMIC) {
    if (field.size != 4)
      throw UserError(RecordPlace(file, record) + ": dynamic field `" + field.name + "` of event `" +
                      field.event->name + "` is " + std::to_string(field.size) + " bytes, not 4");
    const unsigned long long place = tep_read_number(field.event->tep, data + field.offset, 4);
    offset = place & 0xffff;
    length = place >> 16;
    if (field.flags & TEP_FIELD_IS_RELATIVE) offset += static_cast<unsigned long long>(field.offset) + 4;
  }
  if (offset + length > static_cast<unsigned long long>(record.size))
    throw UserError(RecordPlace(file, record) + ": field `" + field.name + "` of event `" + field.event->name +
                    "` holds bytes past the record's " + std::to_string(record.size) + " bytes");
  const std::string_view bytes(data + offset, length);
  if (!(field.flags & TEP_FIELD_IS_STRING) || bytes.find('\0') != std::string_view::npos) return std::nullopt;
  return bytes;
}

// The record's fields, common ones first (common_type, common_flags,
// common_preempt_count, common_pid), then the event's own. Integers (of 1,
// 2, 4 or 8 bytes, not arrays) have their value, sign-extended when the
// format says signed, and its decimal text; strings and arrays have
// libtraceevent's text of them.
void AddFields(Iteration& it, const File& file, const tep_record& record, tep_format_field** fields) {
  for (tep_format_field** f = fields; f != nullptr && *f != nullptr; ++f) {
    const tep_format_field& field = **f;
    if (field.offset < 0 || field.size < 0 || field.offset + field.size > record.size)
      throw UserError(RecordPlace(file, record) + ": field `" + field.name + "` of event `" + field.event->name +
                      "` lies past the record's " + std::to_string(record.size) + " bytes");
    ctf::CtfField& out = it.event.fields.emplace_back();
    out.name = field.name;
    constexpr unsigned long kNotNumber = TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC;
    unsigned long long value = 0;
    bool number = (field.flags & kNotNumber) == 0 &&
                  (field.size == 1 || field.size == 2 || field.size == 4 || field.size == 8) &&
                  tep_read_number_field(*f, record.data, &value) == 0;
    if (number) {
      if (field.flags & TEP_FIELD_IS_SIGNED) {
        int64_t v = SignExtended(value, field.size);
        out.integer = v;
        out.text = std::to_string(v);
      } else {
        out.integer = static_cast<int64_t>(value);  // unsigned reinterpreted, as ctf_event.h says
        out.text = std::to_string(value);
      }
    } else if (const std::optional<std::string_view> bytes = UnterminatedString(file, record, field)) {
      out.text.assign(*bytes);
    } else {
      trace_seq_reset(&it.text);
      tep_print_field_content(&it.text, record.data, record.size, *f);
      trace_seq_terminate(&it.text);
      if (it.text.buffer != nullptr) out.text.assign(it.text.buffer, it.text.len);
    }
  }
}

void Convert(Iteration& it, tracecmd_input* handle, tep_record* record) {
  size_t index = reinterpret_cast<uintptr_t>(tracecmd_get_private(handle));
  const File& file = (*it.files)[index];
  tep_handle* tep = tracecmd_get_tep(handle);
  tep_event* event = tep_find_event_by_record(tep, record);
  if (event == nullptr)
    throw UserError(RecordPlace(file, *record) + ": unknown event type " + std::to_string(tep_data_type(tep, record)));
  if (record->ts > static_cast<unsigned long long>(INT64_MAX))
    throw UserError(RecordPlace(file, *record) + ": timestamp " + std::to_string(record->ts) + " past 2^63");
  if (record->missed_events != 0) {
    std::string key = (it.files->size() > 1 ? file.path + " " : std::string()) + "CPU " + std::to_string(record->cpu);
    int64_t& lost = it.stats->lost[key];
    lost = record->missed_events < 0 || lost < 0 ? -1 : lost + record->missed_events;
  }
  auto [stream, added] = it.streams.try_emplace({index, record->cpu}, static_cast<uint32_t>(it.streams.size()));
  if (added) it.stream_names.push_back("cpu" + std::to_string(record->cpu));

  ctf::CtfEvent& e = it.event;
  e.trace = &file.info;
  e.stream = stream->second;
  e.stream_name = it.stream_names[stream->second];
  e.time_ns = static_cast<int64_t>(record->ts);
  e.unix_epoch = false;  // ftrace's clocks count from boot (or are counters)
  e.name = event->name;  // without its system, as `trace-cmd report` prints it
  e.event_class_id = static_cast<uint64_t>(event->id);
  e.cpu_id = record->cpu;
  e.fields.clear();
  FieldList common{tep_event_common_fields(event)}, own{tep_event_fields(event)};
  AddFields(it, file, *record, common.fields);
  AddFields(it, file, *record, own.fields);
  ++it.stats->records;
  (*it.on_event)(e);
}

// libtracecmd's callback: C code calls it, so no exception may leave it;
// the first one stops the iteration and is thrown again after it.
int OnRecord(tracecmd_input* handle, tep_record* record, int, void* data) {
  Iteration& it = *static_cast<Iteration*>(data);
  try {
    Convert(it, handle, record);
    return 0;
  } catch (...) {
    it.error = std::current_exception();
    return 1;
  }
}

constexpr int kOpenFlags = TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS;

// Whether libtracecmd opens `path` without crashing. libtracecmd 3.1 ends
// the process (a segmentation fault in its own clean-up) instead of
// failing on some damaged files: a version 6 file cut short in its CPU
// data, or any whose CPU data sizes point past its end. So the headers are
// first opened in a child process, and only a file the child opened is
// opened here: a crash there is a refusal here.
bool OpensCleanly(const std::string& path) {
  pid_t child = fork();
  if (child < 0) throw UserError(path + ": cannot read it: fork: " + std::strerror(errno));
  if (child == 0) {
    int null = open("/dev/null", O_WRONLY);  // a sanitizer's report of the library's fault is no finding
    if (null >= 0) dup2(null, STDERR_FILENO);
    _exit(tracecmd_open(path.c_str(), kOpenFlags) != nullptr ? 0 : 3);  // the process ends: nothing to close
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

File Open(const std::string& path, size_t index) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(path + ": cannot open");
  std::string head(kMagic.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (!LooksLikeTraceCmdData(head)) throw UserError(path + ": not a trace-cmd data file (no .dat magic)");
  File file;
  file.path = path;
  // Plugins only change how events print; the fields are the formats'.
  if (OpensCleanly(path)) file.handle.reset(tracecmd_open(path.c_str(), kOpenFlags));
  if (!file.handle)
    throw UserError(path + ": libtracecmd cannot read its headers (a truncated or damaged trace-cmd data file)");
  file.info.index = static_cast<uint32_t>(index);
  file.info.name = std::filesystem::path(path).filename().string();
  file.info.domain = "kernel";
  file.info.tracer_name = "trace-cmd";
  return file;
}

}  // namespace

bool LooksLikeTraceCmdData(std::string_view head) { return head.substr(0, kMagic.size()) == kMagic; }

TraceCmdRecordStats ForEachTraceCmdRecord(const std::vector<std::string>& files,
                                         const std::function<void(const ctf::CtfEvent&)>& on_event) {
  if (files.empty()) throw UserError("no trace-cmd data file given");
  // The libraries print their own diagnostics on stderr; ours are the messages.
  tracecmd_set_loglevel(TEP_LOG_NONE);
  tep_set_loglevel(TEP_LOG_NONE);
  TraceCmdRecordStats stats;
  std::vector<File> opened;
  opened.reserve(files.size());  // the events point at their file's info
  for (const std::string& path : files) {
    opened.push_back(Open(path, opened.size()));
    std::error_code ec;
    uint64_t size = std::filesystem::file_size(path, ec);
    if (!ec) stats.bytes += size;
    File& file = opened.back();
    tracecmd_set_private(file.handle.get(), reinterpret_cast<void*>(static_cast<uintptr_t>(opened.size() - 1)));
    int instances = tracecmd_buffer_instances(file.handle.get());
    for (int i = 0; i < instances; ++i) {
      const char* name = tracecmd_buffer_instance_name(file.handle.get(), i);
      stats.instances.push_back((files.size() > 1 ? path + ": " : std::string()) + (name != nullptr ? name : "?"));
    }
  }
  Iteration it;
  it.files = &opened;
  it.on_event = &on_event;
  it.stats = &stats;
  trace_seq_init(&it.text);
  int status = 0;
  if (opened.size() == 1) {
    status = tracecmd_iterate_events(opened.front().handle.get(), nullptr, 0, OnRecord, &it);
  } else {
    std::vector<tracecmd_input*> handles;
    for (File& f : opened) handles.push_back(f.handle.get());
    status = tracecmd_iterate_events_multi(handles.data(), static_cast<int>(handles.size()), OnRecord, &it);
  }
  trace_seq_destroy(&it.text);
  if (it.error) std::rethrow_exception(it.error);
  std::string label = files.front();
  for (size_t i = 1; i < files.size(); ++i) label += ", " + files[i];
  if (status != 0) throw UserError(label + ": libtracecmd stopped reading the records (damaged data)");
  if (stats.records == 0)
    throw UserError(label + ": no records (nothing was recorded, or no CPU's data could be read)");
  return stats;
}

}  // namespace macroscope::ftrace
