#include "formats/ctf/babeltrace_source.h"

#include <babeltrace2/babeltrace.h>

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <unordered_map>

#include "formats/ctf/packet_overlap.h"
#include "util/abort_guard.h"
#include "util/error.h"

namespace macroscope::ctf {

namespace {

// Owning handles of babeltrace2's reference-counted objects.
struct GraphPut {
  void operator()(bt_graph* g) const { bt_graph_put_ref(g); }
};
struct PluginPut {
  void operator()(const bt_plugin* p) const { bt_plugin_put_ref(p); }
};
struct ValuePut {
  void operator()(bt_value* v) const { bt_value_put_ref(v); }
};
using GraphPtr = std::unique_ptr<bt_graph, GraphPut>;
using PluginPtr = std::unique_ptr<const bt_plugin, PluginPut>;
using ValuePtr = std::unique_ptr<bt_value, ValuePut>;

// A cause's message without the "key=value, ..." details babeltrace2
// appends for its developers (addresses, internal names): "Text: a=1, b=2"
// -> "Text".
std::string WithoutDetails(std::string message) {
  for (size_t colon = message.find(": "); colon != std::string::npos; colon = message.find(": ", colon + 1)) {
    size_t key = colon + 2, end = key;
    while (end < message.size() && (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '-' ||
                                    message[end] == '_'))
      ++end;
    if (end > key && end < message.size() && message[end] == '=') return message.substr(0, colon);
  }
  return message;
}

// What babeltrace2 recorded for the current thread's error, on one line:
// the root cause (cause 0, the first appended, naming the file and the
// problem) and the next one, without the library's generic causes ("component
// initialization failed", "next method failed") and without their developer
// details. Clears the error.
std::string TakeErrorText() {
  const bt_error* error = bt_current_thread_take_error();
  if (error == nullptr) return "";
  std::string text;
  int kept = 0;
  uint64_t count = bt_error_get_cause_count(error);
  for (uint64_t i = 0; i < count && kept < 2; ++i) {
    const bt_error_cause* cause = bt_error_borrow_cause_by_index(error, i);
    const char* message = bt_error_cause_get_message(cause);
    const char* module = bt_error_cause_get_module_name(cause);
    if (message == nullptr || *message == '\0' || std::strstr(message, "comp-addr=") != nullptr ||
        (i != 0 && module != nullptr && std::strcmp(module, "libbabeltrace2") == 0))
      continue;
    if (!text.empty()) text += "; ";
    text += WithoutDetails(message);
    ++kept;
  }
  bt_error_release(error);
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

[[noreturn]] void Fail(const std::string& label, const std::string& what) {
  std::string cause = TakeErrorText();
  throw UserError(label + ": " + what + (cause.empty() ? "" : ": " + cause));
}

const bt_plugin* FindPlugin(const char* name, const std::string& label) {
  const bt_plugin* plugin = nullptr;
  bt_plugin_find_status status = bt_plugin_find(name, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &plugin);
  if (status != BT_PLUGIN_FIND_STATUS_OK || plugin == nullptr)
    Fail(label, std::string("babeltrace2 plugin `") + name + "` not found (Debian package babeltrace2)");
  return plugin;
}

// --- field decoding ---------------------------------------------------------

void AppendText(const bt_field* field, std::string& out);

std::optional<int64_t> IntegerValue(const bt_field* field) {
  bt_field_class_type type = bt_field_get_class_type(field);
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
    return static_cast<int64_t>(bt_field_integer_unsigned_get_value(field));
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
    return bt_field_integer_signed_get_value(field);
  return std::nullopt;
}

void AppendInteger(const bt_field* field, std::string& out) {
  bt_field_class_type type = bt_field_get_class_type(field);
  bt_field_class_enumeration_mapping_label_array labels = nullptr;
  uint64_t label_count = 0;
  if (type == BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION)
    bt_field_enumeration_unsigned_get_mapping_labels(field, &labels, &label_count);
  else if (type == BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION)
    bt_field_enumeration_signed_get_mapping_labels(field, &labels, &label_count);
  if (label_count == 1) {  // an enumeration names its value: show the name
    out += labels[0];
    return;
  }
  char buffer[32];
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
    std::snprintf(buffer, sizeof buffer, "%" PRId64, bt_field_integer_signed_get_value(field));
  } else {
    uint64_t value = bt_field_integer_unsigned_get_value(field);
    bool hex = bt_field_class_integer_get_preferred_display_base(bt_field_borrow_class_const(field)) ==
               BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL;
    std::snprintf(buffer, sizeof buffer, hex ? "0x%" PRIX64 : "%" PRIu64, value);
  }
  out += buffer;
}

void AppendText(const bt_field* field, std::string& out) {
  bt_field_class_type type = bt_field_get_class_type(field);
  char buffer[40];
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_INTEGER)) {
    AppendInteger(field, out);
  } else if (type == BT_FIELD_CLASS_TYPE_BOOL) {
    out += bt_field_bool_get_value(field) ? "true" : "false";
  } else if (type == BT_FIELD_CLASS_TYPE_BIT_ARRAY) {
    std::snprintf(buffer, sizeof buffer, "0x%" PRIX64, bt_field_bit_array_get_value_as_integer(field));
    out += buffer;
  } else if (type == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL) {
    std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(bt_field_real_single_precision_get_value(field)));
    out += buffer;
  } else if (type == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL) {
    std::snprintf(buffer, sizeof buffer, "%.17g", bt_field_real_double_precision_get_value(field));
    out += buffer;
  } else if (type == BT_FIELD_CLASS_TYPE_STRING) {
    // By its length: babeltrace2 2.0 leaves the text of an empty string
    // field unterminated, showing what the pooled field held before (what
    // `babeltrace2` prints then depends on the other streams in the graph).
    out.append(bt_field_string_get_value(field), bt_field_string_get_length(field));
  } else if (type == BT_FIELD_CLASS_TYPE_STRUCTURE) {
    const bt_field_class* cls = bt_field_borrow_class_const(field);
    uint64_t n = bt_field_class_structure_get_member_count(cls);
    out += "{";
    for (uint64_t i = 0; i < n; ++i) {
      out += i == 0 ? " " : ", ";
      out += bt_field_class_structure_member_get_name(bt_field_class_structure_borrow_member_by_index_const(cls, i));
      out += " = ";
      AppendText(bt_field_structure_borrow_member_field_by_index_const(field, i), out);
    }
    out += n == 0 ? "}" : " }";
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) {
    uint64_t n = bt_field_array_get_length(field);
    out += "[";
    for (uint64_t i = 0; i < n; ++i) {
      if (i != 0) out += ", ";
      AppendText(bt_field_array_borrow_element_field_by_index_const(field, i), out);
    }
    out += "]";
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_OPTION)) {
    const bt_field* inner = bt_field_option_borrow_field_const(field);
    if (inner != nullptr) AppendText(inner, out);
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT)) {
    AppendText(bt_field_variant_borrow_selected_option_field_const(field), out);
  }
}

// Flattens the members of a structure field into `out` ("outer.inner").
void Flatten(const bt_field* field, const std::string& prefix, std::vector<CtfField>& out) {
  if (field == nullptr) return;
  if (bt_field_get_class_type(field) != BT_FIELD_CLASS_TYPE_STRUCTURE) {
    CtfField f{prefix, {}, IntegerValue(field)};
    AppendText(field, f.text);
    out.push_back(std::move(f));
    return;
  }
  const bt_field_class* cls = bt_field_borrow_class_const(field);
  uint64_t n = bt_field_class_structure_get_member_count(cls);
  for (uint64_t i = 0; i < n; ++i) {
    std::string name = bt_field_class_structure_member_get_name(bt_field_class_structure_borrow_member_by_index_const(cls, i));
    Flatten(bt_field_structure_borrow_member_field_by_index_const(field, i),
            prefix.empty() ? name : prefix + "." + name, out);
  }
}

std::optional<int64_t> MemberInteger(const bt_field* structure, const char* name) {
  if (structure == nullptr || bt_field_get_class_type(structure) != BT_FIELD_CLASS_TYPE_STRUCTURE)
    return std::nullopt;
  const bt_field* member = bt_field_structure_borrow_member_field_by_name_const(structure, name);
  return member ? IntegerValue(member) : std::nullopt;
}

std::string EnvironmentString(const bt_trace* trace, const char* name) {
  const bt_value* value = bt_trace_borrow_environment_entry_value_by_name_const(trace, name);
  if (value == nullptr) return "";
  if (bt_value_is_string(value)) return bt_value_string_get(value);
  if (bt_value_is_signed_integer(value)) return std::to_string(bt_value_integer_signed_get(value));
  return "";
}

// --- the sink -----------------------------------------------------------------

struct SinkContext {
  const std::function<void(CtfEvent&)>* on_event = nullptr;
  const std::function<void(uint32_t, const CtfStreamIdentity&)>* on_stream = nullptr;  // may be null
  std::unordered_map<const bt_trace*, std::unique_ptr<CtfTraceInfo>> traces;
  struct StreamInfo {
    uint32_t index;
    std::string name;
  };
  std::unordered_map<const bt_stream*, StreamInfo> streams;
  uint64_t events = 0;
  CtfEvent event;                   // reused: keeps its field vector's capacity
  std::exception_ptr failure;       // thrown by on_event, rethrown after the graph stops
  std::string label;                // names the input in errors
};

const CtfTraceInfo& TraceOf(SinkContext& ctx, const bt_trace* trace) {
  auto& slot = ctx.traces[trace];
  if (!slot) {
    slot = std::make_unique<CtfTraceInfo>();
    slot->index = static_cast<uint32_t>(ctx.traces.size() - 1);
    if (const char* name = bt_trace_get_name(trace)) slot->name = name;
    slot->hostname = EnvironmentString(trace, "hostname");
    if (slot->hostname.empty()) slot->hostname = EnvironmentString(trace, "host");
    slot->domain = EnvironmentString(trace, "domain");
    slot->tracer_name = EnvironmentString(trace, "tracer_name");
  }
  return *slot;
}

const SinkContext::StreamInfo& StreamOf(SinkContext& ctx, const bt_stream* stream) {
  auto it = ctx.streams.find(stream);
  if (it != ctx.streams.end()) return it->second;
  std::string name;
  if (const char* n = bt_stream_get_name(stream)) name = n;
  if (auto slash = name.find_last_of('/'); slash != std::string::npos) name = name.substr(slash + 1);
  if (name.empty()) name = "stream " + std::to_string(bt_stream_get_id(stream));
  auto index = static_cast<uint32_t>(ctx.streams.size());
  return ctx.streams.emplace(stream, SinkContext::StreamInfo{index, std::move(name)}).first->second;
}

void Decode(SinkContext& ctx, const bt_message* message) {
  const bt_event* ev = bt_message_event_borrow_event_const(message);
  const bt_stream* stream = bt_event_borrow_stream_const(ev);
  CtfEvent& e = ctx.event;
  e.trace = &TraceOf(ctx, bt_stream_borrow_trace_const(stream));
  const auto& s = StreamOf(ctx, stream);
  e.stream = s.index;
  e.stream_name = s.name;
  const bt_event_class* event_class = bt_event_borrow_class_const(ev);
  const char* name = bt_event_class_get_name(event_class);
  e.name = name ? name : "";
  e.event_class_id = bt_event_class_get_id(event_class);
  e.time_ns.reset();
  e.unix_epoch = false;
  if (const bt_clock_class* clock = bt_message_event_borrow_stream_class_default_clock_class_const(message)) {
    e.unix_epoch = bt_clock_class_origin_is_unix_epoch(clock);
    int64_t ns = 0;
    if (bt_clock_snapshot_get_ns_from_origin(bt_message_event_borrow_default_clock_snapshot_const(message), &ns) !=
        BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
      throw UserError(ctx.label + ": event `" + std::string(e.name) + "`: its time overflows ns from origin");
    e.time_ns = ns;
  }
  e.fields.clear();
  const bt_field* common = bt_event_borrow_common_context_field_const(ev);
  const bt_field* specific = bt_event_borrow_specific_context_field_const(ev);
  Flatten(common, "", e.fields);
  Flatten(specific, "", e.fields);
  Flatten(bt_event_borrow_payload_field_const(ev), "", e.fields);
  e.cpu_id.reset();
  if (bt_stream_class_supports_packets(bt_stream_borrow_class_const(stream))) {
    if (const bt_packet* packet = bt_event_borrow_packet_const(ev))
      e.cpu_id = MemberInteger(bt_packet_borrow_context_field_const(packet), "cpu_id");
  }
  // Else a context or payload field (perf puts `perf_cpu` in the payload).
  for (const char* key : {"cpu_id", "perf_cpu"}) {
    if (e.cpu_id) break;
    e.cpu_id = e.Integer(key);
  }
}

std::optional<CtfStreamIdentity::Uuid> UuidOf(bt_uuid uuid) {
  if (uuid == nullptr) return std::nullopt;
  CtfStreamIdentity::Uuid copy;
  std::memcpy(copy.data(), uuid, copy.size());
  return copy;
}

// A stream begins: tells on_stream what the muxer orders it by.
void Announce(SinkContext& ctx, const bt_message* message) {
  const bt_stream* stream = bt_message_stream_beginning_borrow_stream_const(message);
  const bt_trace* trace = bt_stream_borrow_trace_const(stream);
  const bt_stream_class* stream_class = bt_stream_borrow_class_const(stream);
  CtfStreamIdentity id;
  if (const char* path = bt_stream_get_name(stream)) id.path = path;
  id.trace_uuid = UuidOf(bt_trace_get_uuid(trace));
  if (const char* name = bt_trace_get_name(trace)) id.trace_name = name;
  id.stream_class_id = bt_stream_class_get_id(stream_class);
  id.stream_id = bt_stream_get_id(stream);
  if (const bt_clock_class* clock = bt_stream_class_borrow_default_clock_class_const(stream_class)) {
    id.has_clock = true;
    id.clock_unix_epoch = bt_clock_class_origin_is_unix_epoch(clock);
    id.clock_uuid = UuidOf(bt_clock_class_get_uuid(clock));
    if (const char* name = bt_clock_class_get_name(clock)) id.clock_name = name;
  }
  (*ctx.on_stream)(StreamOf(ctx, stream).index, id);
}

bt_graph_simple_sink_component_consume_func_status Consume(bt_message_iterator* iterator, void* user_data) {
  auto& ctx = *static_cast<SinkContext*>(user_data);
  bt_message_array_const messages = nullptr;
  uint64_t count = 0;
  switch (bt_message_iterator_next(iterator, &messages, &count)) {
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK: break;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_END: return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN: return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
    default: return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
  }
  bool failed = ctx.failure != nullptr;
  for (uint64_t i = 0; i < count; ++i) {
    const bt_message* message = messages[i];
    bt_message_type type = bt_message_get_type(message);
    if (!failed && (type == BT_MESSAGE_TYPE_EVENT ||
                    (type == BT_MESSAGE_TYPE_STREAM_BEGINNING && ctx.on_stream != nullptr))) {
      AbortGuard::OwnCode ours;  // an abort in here is our bug, not babeltrace2's
      try {
        if (type == BT_MESSAGE_TYPE_STREAM_BEGINNING) {
          Announce(ctx, message);
        } else {
          Decode(ctx, message);
          ++ctx.events;
          (*ctx.on_event)(ctx.event);
        }
      } catch (...) {  // never let an exception cross babeltrace2's C frames
        ctx.failure = std::current_exception();
        failed = true;
      }
    }
    bt_message_put_ref(message);
  }
  return failed ? BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR
                : BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

// Adds the src.ctf.fs components of a graph, one per trace directory, as
// babeltrace2's CLI does: one component takes several inputs only when they
// are parts of one trace (one UUID). `ctf_plugin` must outlive the graph.
std::vector<const bt_component_source*> AddSources(bt_graph* graph, const bt_plugin* ctf_plugin,
                                                   const std::vector<std::string>& trace_directories,
                                                   const std::string& label) {
  const bt_component_class_source* fs_class = bt_plugin_borrow_source_component_class_by_name_const(ctf_plugin, "fs");
  if (fs_class == nullptr) Fail(label, "babeltrace2 has no src.ctf.fs");
  std::vector<const bt_component_source*> sources;
  for (const std::string& dir : trace_directories) {
    ValuePtr params(bt_value_map_create());
    bt_value* inputs = nullptr;
    if (!params ||
        bt_value_map_insert_empty_array_entry(params.get(), "inputs", &inputs) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
        bt_value_array_append_string_element(inputs, dir.c_str()) != BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK)
      Fail(label, "out of memory");
    const bt_component_source* source = nullptr;
    std::string name = "source" + std::to_string(sources.size());
    if (bt_graph_add_source_component(graph, fs_class, name.c_str(), params.get(), BT_LOGGING_LEVEL_NONE, &source) !=
        BT_GRAPH_ADD_COMPONENT_STATUS_OK)
      Fail(label, (dir == label ? "" : dir + ": ") + "not a readable CTF trace");
    sources.push_back(source);
  }
  // A trace without a stream (metadata only, or streams without packets)
  // has no output port: it has no event, as babeltrace2 reads it.
  return sources;
}

}  // namespace

struct CtfGraph::Parts {
  PluginPtr ctf_plugin, utils_plugin;  // released after the graph
  SinkContext ctx;
  GraphPtr graph;
  std::string label;
  bool empty = false;  // no stream in any trace: nothing to run
};

CtfGraph::CtfGraph(const std::vector<std::string>& trace_directories, const std::string& label,
                   PacketOverlaps& overlaps)
    : parts_(std::make_unique<Parts>()) {
  Parts& p = *parts_;
  p.label = label;
  p.ctx.label = label;
  bt_current_thread_clear_error();
  p.ctf_plugin.reset(FindPlugin("ctf", label));
  p.utils_plugin.reset(FindPlugin("utils", label));
  p.graph.reset(bt_graph_create(0));
  if (!p.graph) Fail(label, "cannot create a babeltrace2 graph");
  bt_graph* graph = p.graph.get();
  const std::vector<const bt_component_source*> sources =
      AddSources(graph, p.ctf_plugin.get(), trace_directories, label);
  uint64_t streams = 0;
  for (const bt_component_source* source : sources) streams += bt_component_source_get_output_port_count(source);
  // Traces without streams: no event (babeltrace2's CLI prints none and
  // succeeds); the rest of the graph would have nothing to connect.
  p.empty = streams == 0;
  if (p.empty) return;
  const bt_component_class_filter* muxer_class =
      bt_plugin_borrow_filter_component_class_by_name_const(p.utils_plugin.get(), "muxer");
  if (muxer_class == nullptr) Fail(label, "babeltrace2 has no flt.utils.muxer");
  const bt_component_filter* muxer = nullptr;
  if (bt_graph_add_filter_component(graph, muxer_class, "muxer", nullptr, BT_LOGGING_LEVEL_NONE, &muxer) !=
      BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    Fail(label, "cannot create the babeltrace2 muxer");

  const bt_component_sink* sink = nullptr;
  if (bt_graph_add_simple_sink_component(graph, "sink", nullptr, Consume, nullptr, &p.ctx, &sink) !=
      BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    Fail(label, "cannot create the babeltrace2 sink");

  // Each stream goes through the packet-overlap filter (packet_overlap.h)
  // to one muxer input; the muxer adds a free input port each time one
  // gets connected.
  const bt_component_filter* overlap = AddPacketOverlapFilter(graph, streams, &overlaps);
  if (overlap == nullptr) Fail(label, "cannot create the babeltrace2 packet-overlap filter");
  uint64_t connected = 0;
  for (const bt_component_source* source : sources) {
    for (uint64_t i = 0; i < bt_component_source_get_output_port_count(source); ++i, ++connected) {
      const bt_port_input* in = bt_component_filter_borrow_input_port_by_index_const(muxer, connected);
      if (in == nullptr ||
          bt_graph_connect_ports(graph, bt_component_source_borrow_output_port_by_index_const(source, i),
                                 bt_component_filter_borrow_input_port_by_index_const(overlap, connected),
                                 nullptr) != BT_GRAPH_CONNECT_PORTS_STATUS_OK ||
          bt_graph_connect_ports(graph, bt_component_filter_borrow_output_port_by_index_const(overlap, connected),
                                 in, nullptr) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
        Fail(label, "cannot connect the babeltrace2 graph");
    }
  }
  if (bt_graph_connect_ports(graph, bt_component_filter_borrow_output_port_by_index_const(muxer, 0),
                             bt_component_sink_borrow_input_port_by_index_const(sink, 0),
                             nullptr) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
    Fail(label, "cannot connect the babeltrace2 graph");
}

CtfGraph::~CtfGraph() = default;

uint64_t CtfGraph::Run(const std::function<void(CtfEvent&)>& on_event,
                       const std::function<void(uint32_t, const CtfStreamIdentity&)>& on_stream) {
  Parts& p = *parts_;
  if (p.empty) return 0;
  p.ctx.on_event = &on_event;
  p.ctx.on_stream = on_stream ? &on_stream : nullptr;
  bt_current_thread_clear_error();
  bt_graph_run_status status;
  do {
    status = bt_graph_run(p.graph.get());
  } while (status == BT_GRAPH_RUN_STATUS_AGAIN);
  if (p.ctx.failure) {
    bt_current_thread_clear_error();
    std::rethrow_exception(p.ctx.failure);
  }
  if (status != BT_GRAPH_RUN_STATUS_OK) Fail(p.label, "cannot decode the CTF trace");
  return p.ctx.events;
}

std::string CtfAbortMessage(const std::string& label) {
  return label + ": babeltrace2 stopped on an internal check (corrupt CTF data)";
}

uint64_t ForEachCtfEvent(const std::vector<std::string>& trace_directories, const std::string& label,
                         const std::function<void(const CtfEvent&)>& on_event, PacketOverlaps& overlaps) {
  // babeltrace2 asserts on some corrupt packets (when indexing the streams,
  // and when decoding them) instead of failing; Consume marks our code.
  AbortGuard guard(CtfAbortMessage(label));
  return CtfGraph(trace_directories, label, overlaps).Run([&](CtfEvent& e) { on_event(e); });
}

std::vector<std::vector<std::string>> CtfStreamPorts(const std::vector<std::string>& trace_directories,
                                                     const std::string& label) {
  bt_current_thread_clear_error();
  PluginPtr ctf_plugin(FindPlugin("ctf", label));
  GraphPtr graph(bt_graph_create(0));
  if (!graph) Fail(label, "cannot create a babeltrace2 graph");
  std::vector<std::vector<std::string>> ports;
  for (const bt_component_source* source : AddSources(graph.get(), ctf_plugin.get(), trace_directories, label)) {
    std::vector<std::string>& names = ports.emplace_back();
    for (uint64_t i = 0; i < bt_component_source_get_output_port_count(source); ++i)
      names.emplace_back(bt_port_get_name(
          bt_port_output_as_port_const(bt_component_source_borrow_output_port_by_index_const(source, i))));
  }
  return ports;
}

}  // namespace macroscope::ctf
