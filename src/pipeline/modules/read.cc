// read: a trace in any format (formats::ReadTrace detects it), streamed.
// The reader hands each chunk of completed entities to an EntitySink
// (model/entity_sink.h); this module's sink copies them into batches on
// "out" as they come, so the trace is never held whole
// (docs/streaming.md says what each format keeps meanwhile).
#include <sys/stat.h>

#include <algorithm>
#include <memory>

#include "formats/format.h"
#include "model/entity_sink.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"

namespace macroscope::pipeline {

namespace {

constexpr size_t kBatchEntities = 4096;

// Completed chunks -> batches, published when full.
class BatchingSink : public EntitySink {
 public:
  BatchingSink(Output<EntityBatch>& out, std::shared_ptr<const Trace> trace) : out_(out), trace_(std::move(trace)) {}

  void Completed(const Trace&, const EntityChunk& chunk) override {
    for (size_t i = 0; i < chunk.size();) {
      if (batch_ == nullptr) {
        batch_ = &out_.Claim();
        batch_->Clear();
        batch_->trace = trace_;
      }
      const size_t n = std::min(chunk.size() - i, kBatchEntities - batch_->entities());
      batch_->Append(chunk.Sub(i, n));
      i += n;
      if (batch_->entities() >= kBatchEntities) Publish();
    }
  }

  // The batch under way, if any (the end of the trace).
  void Publish() {
    if (batch_ == nullptr) return;
    batch_->base = trace_->time_base();  // as the reader knows it now (CTF sets it at its first timed event)
    batch_ = nullptr;
    out_.Publish();
  }

 private:
  Output<EntityBatch>& out_;
  std::shared_ptr<const Trace> trace_;
  EntityBatch* batch_ = nullptr;
};

class Read : public Module {
 public:
  Read(std::string name, std::vector<std::string> files, bool events_only)
      : Module(std::move(name)),
        out_(AddOutput<EntityBatch>("out")),
        files_(std::move(files)),
        events_only_(events_only) {}

  void Run() override {
    for (const std::string& file : files_) RecordRead(file);
    auto trace = std::make_shared<Trace>();
    BatchingSink sink(out_, trace);
    formats::ReadOptions options;
    options.sink = &sink;
    options.events_only = events_only_;
    formats::ReadTrace(files_, options, *trace);
    sink.Publish();
  }

 private:
  Output<EntityBatch>& out_;
  std::vector<std::string> files_;
  bool events_only_;
};

}  // namespace

ModuleInfo ReadModule() {
  return {
      .kind = "read",
      .description = "Reads a trace in any supported format (Pajé, OTF2, CTF, Chrome JSON, a store) and streams its "
                     "entities as the reader completes them, without holding the trace.",
      .params = {{"input", "the trace: a path, or several (an array or comma-separated) read as one trace", true},
                 {"events", "CTF: the raw events babeltrace2 decodes (type \"event\", value = the event name) "
                            "instead of states and events (default false; other formats ignore it)"}},
      .inputs = {},
      .outputs = {{"out", StreamType<EntityBatch>::kName, "the trace's entities, store by store as they complete"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(ReadModule());
        std::vector<std::string> files = params.Strings("input");
        if (files.empty()) BadParameter(params, "input", "no trace given");
        for (const std::string& file : files) {
          struct stat st {};
          if (stat(file.c_str(), &st) != 0) BadParameter(params, "input", file + ": no such file or directory");
        }
        return std::make_unique<Read>(name, std::move(files), params.Bool("events", false));
      },
  };
}

}  // namespace macroscope::pipeline
